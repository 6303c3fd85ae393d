package host

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"

	"github.com/polyclass/polyclass/framework/safetext"
)

// binprmBuf is the head of a file that Linux reads to find its #! line
// (BINPRM_BUF_SIZE): an interpreter's path must end within it.
const binprmBuf = 256

// parseShebang returns the interpreter and its argument that Linux's
// binfmt_script takes from a script whose first bytes are head (up to
// binprmBuf): the interpreter's path ends only at a space, a tab, a NUL
// or the newline (a CR, a vertical tab, a no-break space are part of it:
// a CRLF script's "#!/bin/sh\r" runs "/bin/sh\r"); the rest of the line,
// its spaces and tabs trimmed, is one argument. ok is false when the
// kernel runs no interpreter: no #!, no name, or no newline and no end of
// the name within the head (a name that may be cut).
func parseShebang(head []byte) (name, arg string, ok bool) {
	if !bytes.HasPrefix(head, []byte("#!")) {
		return "", "", false
	}
	buf := make([]byte, binprmBuf) // NUL after the end of a short file
	copy(buf, head)
	end := bytes.IndexByte(buf, '\n')
	if end < 0 {
		last := binprmBuf - 1
		i := nextNonSpaceTab(buf, 2, last)
		if i < 0 || nextTerminator(buf, i, last) < 0 {
			return "", "", false
		}
		end = last
	}
	for spaceTab(buf[end-1]) {
		end--
	}
	i := nextNonSpaceTab(buf, 2, end)
	if i < 0 || i == end {
		return "", "", false
	}
	sep := nextTerminator(buf, i, end)
	if sep < 0 {
		sep = end
	}
	if sep < end && buf[sep] != 0 {
		if a := nextNonSpaceTab(buf, sep, end); a >= 0 && a < end {
			arg, _, _ = strings.Cut(string(buf[a:end]), "\x00")
		}
	}
	return string(buf[i:sep]), arg, true
}

// spaceTab reports whether c ends a #! interpreter's path, as the kernel's
// spacetab.
func spaceTab(c byte) bool { return c == ' ' || c == '\t' }

// nextNonSpaceTab returns the index of the first byte of buf[first:last+1]
// that is not a space or a tab, -1 for none.
func nextNonSpaceTab(buf []byte, first, last int) int {
	for i := first; i <= last; i++ {
		if !spaceTab(buf[i]) {
			return i
		}
	}
	return -1
}

// nextTerminator returns the index of the first space, tab or NUL of
// buf[first:last+1], -1 for none.
func nextTerminator(buf []byte, first, last int) int {
	for i := first; i <= last; i++ {
		if spaceTab(buf[i]) || buf[i] == 0 {
			return i
		}
	}
	return -1
}

// defaultPath is the search path of glibc's execvp when PATH is unset
// (its _CS_PATH): env's after -i, or -u PATH.
const defaultPath = "/bin:/usr/bin"

// envCall is what GNU env does with the one argument a #! line gives it.
type envCall struct {
	prog string // the program it runs; "" for none
	// search is the PATH env looks prog up in, as glibc's execvp reads
	// it: an empty entry (and an empty PATH) is the working directory.
	search string
	// known is false when the argument leaves unclear what runs:
	// another option (-C among them, which runs the program from another
	// directory), quotes or variables in a split string, or a NAME=VALUE,
	// whose variable may name other code the program runs (LD_PRELOAD,
	// PYTHONPATH; PATH too: the program runs with it).
	known bool
}

// envProgram returns what env does when a #! line gives it arg, run with
// bench's PATH, path (set false: PATH unset). Linux passes the rest of
// the line as one argument: env takes it whole as the program's name, or
// with -S splits it into words at its blanks, the first one that is not
// an option or a NAME=VALUE naming the program. The search path is
// PATH's, emptied by -i (--ignore-environment, or a lone "-") and
// -u PATH (--unset=PATH), then given by the NAME=VALUE words in turn;
// an unset PATH searches glibc's default, "/bin:/usr/bin". Options come
// before "-" and NAME=VALUE words, as env's getopt stops at the first
// operand.
func envProgram(arg, path string, set bool) envCall {
	words := []string{arg}
	if rest, ok := strings.CutPrefix(arg, "-S"); ok {
		words = strings.FieldsFunc(rest, envBlank)
	}
	search := func() string {
		if set {
			return path
		}
		return defaultPath
	}
	unsetPath := func(name string) {
		if name == "PATH" {
			set = false
		}
	}
	known, options := true, true
	for i := 0; i < len(words); i++ {
		w := words[i]
		switch {
		case w == "":
			return envCall{search: search(), known: known}
		case strings.ContainsAny(w, `'"\$`):
			return envCall{}
		case options && (w == "-i" || w == "--ignore-environment"):
			set = false
		case options && w == "-":
			// An operand, which ends env's options: env takes it for -i
			// and what follows for NAME=VALUE words and the program.
			set, options = false, false
		case options && (w == "-u" || w == "--unset"):
			if i++; i < len(words) {
				unsetPath(words[i])
			}
		case options && strings.HasPrefix(w, "--unset="):
			unsetPath(strings.TrimPrefix(w, "--unset="))
		case strings.HasPrefix(w, "-"):
			return envCall{}
		case strings.Contains(w, "="):
			name, value, _ := strings.Cut(w, "=")
			if name == "PATH" {
				path, set = value, true
			}
			known, options = false, false
		default:
			return envCall{prog: w, search: search(), known: known}
		}
	}
	return envCall{search: search(), known: known}
}

// envBlank reports whether c separates the words of env's -S string:
// GNU env splits at a space, a tab, a newline, a vertical tab, a form
// feed or a carriage return.
func envBlank(c rune) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r'
}

// showPath writes p as it is, or quoted with Go's escapes when it holds
// a character a terminal would not show as itself (a CR, a no-break
// space).
func showPath(p string) string {
	q := strconv.Quote(p)
	if q[1:len(q)-1] == p && !strings.ContainsFunc(p, safetext.Hidden) {
		return p
	}
	return quoteHidden(p)
}

// quoteHidden is strconv.Quote with the characters that safetext.Hidden
// reports escaped too: strconv.Quote takes a Hangul filler (U+3164) for
// printable and leaves it as it is, invisible in the message.
func quoteHidden(s string) string {
	var b strings.Builder
	for _, r := range strconv.Quote(s) {
		switch {
		case !safetext.Hidden(r):
			b.WriteRune(r)
		case r > 0xFFFF:
			fmt.Fprintf(&b, `\U%08x`, r)
		default:
			fmt.Fprintf(&b, `\u%04x`, r)
		}
	}
	return b.String()
}
