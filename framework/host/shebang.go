package host

import (
	"bytes"
	"fmt"
	"os"
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

// envProgram returns the program that env runs when a #! line gives it
// arg (Linux passes the rest of the line as one argument: env takes it
// whole as the program's name, or with -S splits it into words, the
// first one that is not an option naming the program); "" for none.
// known is false when arg leaves it unclear (another option, -C among
// them, which runs the program from another directory; quotes or
// variables in a split string; a NAME=VALUE, whose variable may name
// other code the program runs: LD_PRELOAD, PYTHONPATH).
func envProgram(arg string) (prog string, known bool) {
	words := []string{arg}
	if rest, ok := strings.CutPrefix(arg, "-S"); ok {
		words = strings.FieldsFunc(rest, func(r rune) bool { return r == ' ' || r == '\t' })
	}
	takesValue := false
	for _, w := range words {
		switch {
		case takesValue:
			takesValue = false
		case w == "":
			return "", true
		case strings.ContainsAny(w, `'"\$`):
			return "", false
		case w == "-i" || w == "--ignore-environment" || w == "-":
		case w == "-u":
			takesValue = true
		case strings.HasPrefix(w, "-"):
			return "", false
		case strings.Contains(w, "="):
			// NAME=VALUE: the program runs with it (LD_PRELOAD,
			// PYTHONPATH, PATH name other code it runs): unclear.
			return "", false
		default:
			return w, true
		}
	}
	return "", true
}

// envSearchPath returns the PATH in which env, given arg, looks for its
// program: the plugin's (bench's own PATH), or glibc's default
// "/bin:/usr/bin" when env is told to clear the environment (-i, -).
func envSearchPath(arg string) string {
	words := []string{arg}
	if rest, ok := strings.CutPrefix(arg, "-S"); ok {
		words = strings.Fields(rest)
	}
	for _, w := range words {
		if w == "-i" || w == "--ignore-environment" || w == "-" {
			return "/bin:/usr/bin"
		}
	}
	if p, ok := os.LookupEnv("PATH"); ok {
		return p
	}
	return "/bin:/usr/bin"
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
