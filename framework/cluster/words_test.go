package cluster

import (
	"fmt"
	"strconv"
	"strings"
)

// shellWords splits a bash command line into its words, reading exactly
// the quoting the writers produce and refusing the rest: bare words of
// [A-Za-z0-9_@%+=:,./-], \' (a quote), '…', $'…' with \xHH, \\ and \'
// escapes, and "…" whose text (${…} expansions included) is kept as
// written. Any other character outside quotes ($, `, ;, |, &, <, >, #,
// (, ), another backslash…) is an error: it would be shell syntax, not a
// word.
func shellWords(line string) ([]string, error) {
	var words []string
	for i := 0; i < len(line); {
		if line[i] == ' ' || line[i] == '\t' {
			i++
			continue
		}
		w, n, err := shellWord(line[i:])
		if err != nil {
			return nil, fmt.Errorf("at byte %d of %q: %w", i, line, err)
		}
		words = append(words, w)
		i += n
	}
	return words, nil
}

// shellWord reads the word at the start of s, returning it and the
// number of bytes read.
func shellWord(s string) (string, int, error) {
	var b strings.Builder
	i := 0
	for i < len(s) && s[i] != ' ' && s[i] != '\t' {
		var part string
		var n int
		var err error
		switch c := s[i]; {
		case c == '\'':
			end := strings.IndexByte(s[i+1:], '\'')
			if end < 0 {
				return "", 0, fmt.Errorf("unterminated '")
			}
			part, n = s[i+1:i+1+end], end+2
		case strings.HasPrefix(s[i:], "$'"):
			part, n, err = ansiCWord(s[i+2:])
			n += 2
		case c == '"':
			part, n, err = doubleQuoted(s[i+1:])
			n++
		case c == '\\' && i+1 < len(s) && s[i+1] == '\'':
			part, n = "'", 2
		case isBare(c) || c >= 0x80:
			n = 1
			for i+n < len(s) && (isBare(s[i+n]) || s[i+n] >= 0x80) {
				n++
			}
			part = s[i : i+n]
		default:
			return "", 0, fmt.Errorf("unquoted %q", c)
		}
		if err != nil {
			return "", 0, err
		}
		b.WriteString(part)
		i += n
	}
	return b.String(), i, nil
}

func isBare(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("_@%+=:,./-", c) >= 0
}

// ansiCWord reads the rest of a $'…' word: its text and the bytes read
// up to and with the closing quote.
func ansiCWord(s string) (string, int, error) {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\'':
			return b.String(), i + 1, nil
		case '\\':
			switch {
			case i+1 < len(s) && (s[i+1] == '\\' || s[i+1] == '\''):
				b.WriteByte(s[i+1])
				i++
			case i+3 < len(s) && s[i+1] == 'x':
				v, err := strconv.ParseUint(s[i+2:i+4], 16, 8)
				if err != nil {
					return "", 0, fmt.Errorf("bad escape %q", s[i:i+4])
				}
				b.WriteByte(byte(v))
				i += 3
			default:
				return "", 0, fmt.Errorf("escape the writers do not write in $'…'")
			}
		default:
			b.WriteByte(s[i])
		}
	}
	return "", 0, fmt.Errorf("unterminated $'")
}

// doubleQuoted reads the rest of a "…" word, keeping its text as written:
// the writers put only ${…} expansions of the environment there, which
// the intended argument lists name as such.
func doubleQuoted(s string) (string, int, error) {
	end := strings.IndexByte(s, '"')
	if end < 0 {
		return "", 0, fmt.Errorf("unterminated \"")
	}
	text := s[:end]
	if strings.ContainsAny(text, "\\`") || strings.Contains(strings.ReplaceAll(text, "${", ""), "$") {
		return "", 0, fmt.Errorf("double-quoted text %q holds more than ${…}", text)
	}
	return text, end + 1, nil
}

// sbatchArgs splits the options of an #SBATCH line as sbatch does
// (_get_argument in Slurm's src/sbatch/opt.c): blanks separate, a
// backslash escapes the next character anywhere, ' and " group, and an
// unescaped # outside quotes ends the line.
func sbatchArgs(line string) ([]string, error) {
	var args []string
	var cur strings.Builder
	inArg, escape := false, false
	var quote byte
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case escape:
			escape = false
			cur.WriteByte(c)
		case c == '\\':
			escape, inArg = true, true
		case quote != 0:
			if c == quote {
				quote = 0
			} else {
				cur.WriteByte(c)
			}
		case c == '\'' || c == '"':
			quote, inArg = c, true
		case c == '#':
			i = len(line)
		case c == ' ' || c == '\t':
			if inArg {
				args = append(args, cur.String())
				cur.Reset()
				inArg = false
			}
		default:
			cur.WriteByte(c)
			inArg = true
		}
	}
	if quote != 0 || escape {
		return nil, fmt.Errorf("unterminated quote or escape in %q", line)
	}
	if inArg {
		args = append(args, cur.String())
	}
	return args, nil
}
