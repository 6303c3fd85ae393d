package host

import (
	"strings"
	"testing"
)

// TestParseShebang: the #! line is read as Linux's binfmt_script reads
// it (campaign 8 A01): the interpreter's path ends only at a space, a
// tab, a NUL or the newline, the rest of the line (trimmed of spaces and
// tabs) is one argument, and a path that does not end within the first
// 256 bytes runs nothing.
func TestParseShebang(t *testing.T) {
	long := "/" + strings.Repeat("p", 300)
	cases := []struct {
		name, head string
		interp     string
		arg        string
		ok         bool
	}{
		{"plain", "#!/bin/sh\necho", "/bin/sh", "", true},
		{"CRLF keeps the CR", "#!/bin/sh\r\n", "/bin/sh\r", "", true},
		{"no-break space is part of the path", "#!/bin/s\u00a0h -x\n", "/bin/s\u00a0h", "-x", true},
		{"vertical tab and form feed are part of the path", "#!/a\vb\fc\n", "/a\vb\fc", "", true},
		{"one argument, inner spaces kept, ends trimmed", "#!  /usr/bin/env \t python3 -u  \t\n", "/usr/bin/env", "python3 -u", true},
		{"tab ends the path", "#!/bin/sh\t-e\n", "/bin/sh", "-e", true},
		{"NUL ends the path and drops the argument", "#!/bin/sh\x00 -e\n", "/bin/sh", "", true},
		{"relative path", "#!ww/interp\n", "ww/interp", "", true},
		{"no newline in a short file", "#!/bin/sh", "/bin/sh", "", true},
		{"no newline, path past 256 bytes", "#!" + long, "", "", false},
		{"no newline, path ends within 256 bytes", "#!/bin/sh " + long, "/bin/sh", long[:256-len("#!/bin/sh ")-1], true},
		{"no name", "#!  \t\n", "", "", false},
		{"not a script", "\x7fELF", "", "", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			head := []byte(c.head)
			if len(head) > binprmBuf {
				head = head[:binprmBuf]
			}
			interp, arg, ok := parseShebang(head)
			if interp != c.interp || arg != c.arg || ok != c.ok {
				t.Fatalf("parseShebang(%q) = %q, %q, %v; want %q, %q, %v", c.head, interp, arg, ok, c.interp, c.arg, c.ok)
			}
		})
	}
}

// TestEnvProgram: the program that #!/usr/bin/env runs, from the one
// argument Linux gives it (campaign 8 A15): the argument itself, or with
// -S the first word that is not an option or NAME=VALUE; unclear ones
// are reported unknown, to be refused.
func TestEnvProgram(t *testing.T) {
	cases := []struct {
		arg, prog string
		known     bool
	}{
		{"python3", "python3", true},
		{"/abs/ww/interp", "/abs/ww/interp", true},
		{"/abs/interp -u", "/abs/interp -u", true}, // one argument: its name holds the space
		{"-S /abs/interp -u", "/abs/interp", true},
		{"-S -i -u HOME python3 -u", "python3", true},
		{"-S -i A=1 -u HOME python3 -u", "", false},
		{"LD_PRELOAD=/tmp/ww/x.so", "", false},
		{"-S PYTHONPATH=/tmp/ww /usr/bin/python3", "", false},
		{"-S -C /tmp ./x", "", false}, // ./x from /tmp
		{"-S 'python3'", "", false},
		{"-v python3", "", false},
		{"", "", true},
	}
	for _, c := range cases {
		t.Run(c.arg, func(t *testing.T) {
			prog, known := envProgram(c.arg)
			if prog != c.prog || known != c.known {
				t.Fatalf("envProgram(%q) = %q, %v; want %q, %v", c.arg, prog, known, c.prog, c.known)
			}
		})
	}
}
