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
// argument Linux gives it (campaign 8 A15), and the PATH it looks it up
// in, as GNU env and glibc's execvp do: the argument itself, or with -S
// the first word that is not an option or NAME=VALUE (words split at
// env's blanks, a CR among them); the search path bench's PATH ("/b"
// below) unless -i, -u PATH or a PATH= word changes it, glibc's
// "/bin:/usr/bin" where PATH ends unset, and an empty one kept empty
// (the working directory). Unclear ones are reported unknown, to be
// refused; a NAME=VALUE, PATH= among them, too, with what env would run.
func TestEnvProgram(t *testing.T) {
	const unset = "(unset)"
	cases := []struct {
		arg, path    string // path: bench's PATH
		prog, search string
		known        bool
	}{
		{"python3", "/b", "python3", "/b", true},
		{"/abs/ww/interp", "/b", "/abs/ww/interp", "/b", true},
		{"/abs/interp -u", "/b", "/abs/interp -u", "/b", true}, // one argument: its name holds the space
		{"-S /abs/interp -u", "/b", "/abs/interp", "/b", true},
		{"-S -i -u HOME python3 -u", "/b", "python3", "/bin:/usr/bin", true},
		{"-S -i A=1 -u HOME python3 -u", "/b", "", "", false},
		{"LD_PRELOAD=/tmp/ww/x.so", "/b", "", "/b", false},
		{"-S PYTHONPATH=/tmp/ww /usr/bin/python3", "/b", "/usr/bin/python3", "/b", false},
		{"-S -C /tmp ./x", "/b", "", "", false}, // ./x from /tmp
		{"-S 'python3'", "/b", "", "", false},
		{"-v python3", "/b", "", "", false},
		{"", "/b", "", "/b", true},
		// The search path.
		{"-S -i python3", "/b", "python3", "/bin:/usr/bin", true},
		{"-S --ignore-environment python3", "/b", "python3", "/bin:/usr/bin", true},
		{"-S - python3", "/b", "python3", "/bin:/usr/bin", true},
		{"-S -i - python3", "/b", "python3", "/bin:/usr/bin", true},
		{"-S - -u PATH python3", "/b", "", "", false}, // env runs a program "-u": "-" ends the options
		{"-S -u PATH python3", "/b", "python3", "/bin:/usr/bin", true},
		{"-S --unset=PATH python3", "/b", "python3", "/bin:/usr/bin", true},
		{"-S --unset PATH python3", "/b", "python3", "/bin:/usr/bin", true},
		{"-S -u HOME python3", "/b", "python3", "/b", true},
		{"python3", unset, "python3", "/bin:/usr/bin", true},
		{"python3", "", "python3", "", true},
		{"-S PATH=/p:/q python3", "/b", "python3", "/p:/q", false},
		{"-S -i PATH=/p python3", "/b", "python3", "/p", false},
		{"-S -u PATH PATH=/p PATH=/q python3", "/b", "python3", "/q", false},
		{"-S PATH= python3", "/b", "python3", "", false},
		{"-S PATH=/p -u PATH python3", "/b", "", "", false}, // no option after an operand
		// Words.
		{"-S python3\r", "/b", "python3", "/b", true},
		{"-S\vpython3\f-u", "/b", "python3", "/b", true},
		{"-S python3\u00a0-u", "/b", "python3\u00a0-u", "/b", true},
	}
	for _, c := range cases {
		t.Run(c.arg+"/PATH="+c.path, func(t *testing.T) {
			got := envProgram(c.arg, c.path, c.path != unset)
			if got.prog != c.prog || got.search != c.search || got.known != c.known {
				t.Fatalf("envProgram(%q, PATH %q) = %q in %q, %v; want %q in %q, %v", c.arg, c.path, got.prog, got.search, got.known, c.prog, c.search, c.known)
			}
		})
	}
}
