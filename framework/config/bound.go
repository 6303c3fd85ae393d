package config

import (
	"bytes"
	"fmt"
	"unicode/utf8"

	"github.com/hashicorp/hcl/v2"
)

// Bounds of an experiment file, checked before it is parsed (see
// checkBounds): the HCL parser and the evaluation of its expressions
// recurse once per level of nesting, so that a parameter nested 100,000
// levels deep (C = [[[…]]]) exhausted the stack, and 10,000 levels took
// seconds. The shipped experiments are a few KB and nest at most 5 deep.
const (
	// MaxFileBytes bounds an experiment file's size: 1 MiB.
	MaxFileBytes = 1 << 20
	// MaxNesting bounds how deeply an experiment file's brackets [ ],
	// braces { }, parentheses ( ) and template interpolations ${ } and
	// %{ } nest, together, outside comments: 64 levels. A run of unary
	// operators (- - - 1, !!!x) counts one level per operator, and a
	// chain of conditionals (a ? b : c ? d : e) one level per "?", since
	// the parser recurses for each.
	MaxNesting = 64
)

// frame kinds of the bound scanner's stack.
const (
	frameBracket = iota // ( [ {: code inside
	frameInterp         // ${ or %{ in a template: code inside
	frameString         // a quoted string: a template
	frameHeredoc        // a heredoc's lines: a template
)

// frame is one open construct of the bound scanner.
type frame struct {
	kind int
	// marker closes a heredoc; conds counts the "?" of conditionals
	// open in a code frame (they close with it).
	marker []byte
	conds  int
}

// scanner walks an experiment file's bytes once, tracking what is open
// (see checkBounds).
type scanner struct {
	src   []byte
	i     int
	stack []frame
	// depth is the number of open brackets, interpolations, "?" and
	// unary operators in a row; unary is the last of them.
	depth, unary int
}

// checkBounds refuses src, named filename, when it is larger than
// MaxFileBytes or nests deeper than MaxNesting, with an error at the
// first byte beyond the bound; nil when it is within them. It is one
// pass over the bytes, with no recursion, and reads strings, heredocs
// and comments as the HCL lexer does, so that a bracket inside them does
// not count. Where it cannot tell (a malformed file), it keeps scanning:
// the parser reports the malformation.
func checkBounds(src []byte, filename string) *hcl.Diagnostic {
	if len(src) > MaxFileBytes {
		rng := rangeAt(src, filename, MaxFileBytes)
		return &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Experiment file too large",
			Detail:  fmt.Sprintf("The file is larger than the %d bytes (1 MiB) an experiment file may have; this is its first byte beyond the limit.", MaxFileBytes),
			Subject: &rng}
	}
	s := &scanner{src: src, stack: []frame{{kind: frameBracket}}}
	if at := s.scan(); at >= 0 {
		rng := rangeAt(src, filename, at)
		return &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Experiment file nested too deeply",
			Detail:  fmt.Sprintf("This opens level %d of nesting; brackets, braces, parentheses, template interpolations, unary operators in a row and chained conditionals nest at most %d levels deep in an experiment file.", MaxNesting+1, MaxNesting),
			Subject: &rng}
	}
	return nil
}

// maxSnippet bounds the part of a line a bound error shows: the line up to
// the byte beyond the bound, when it starts at most this many bytes
// before it.
const maxSnippet = 200

// boundSnippet returns the source a bound error at byte at shows: src up
// to and including that byte, so that the line printed ends there (a
// line nested 100,000 deep is not printed whole), or nil, for no
// source, when the line holds more than maxSnippet bytes before it.
func boundSnippet(src []byte, at int) []byte {
	if at-(bytes.LastIndexByte(src[:at], '\n')+1) > maxSnippet {
		return nil
	}
	return src[:at+1]
}

// rangeAt returns the one-character range of src at byte offset at.
func rangeAt(src []byte, filename string, at int) hcl.Range {
	line := 1 + bytes.Count(src[:at], []byte("\n"))
	start := bytes.LastIndexByte(src[:at], '\n') + 1
	col := 1 + utf8.RuneCount(src[start:at])
	pos := hcl.Pos{Line: line, Column: col, Byte: at}
	end := pos
	end.Column++
	end.Byte++
	return hcl.Range{Filename: filename, Start: pos, End: end}
}

// scan walks the file and returns the offset of the first byte that
// opens a level beyond MaxNesting, or -1.
func (s *scanner) scan() int {
	for s.i < len(s.src) {
		var over bool
		switch s.top().kind {
		case frameBracket, frameInterp:
			over = s.code()
		case frameString:
			over = s.quoted()
		case frameHeredoc:
			over = s.heredoc()
		}
		if over {
			return s.i
		}
	}
	return -1
}

func (s *scanner) top() *frame { return &s.stack[len(s.stack)-1] }

// open pushes a frame that counts as a level and reports whether it is
// one too many.
func (s *scanner) open(f frame) bool {
	s.depth++
	s.stack = append(s.stack, f)
	return s.depth > MaxNesting
}

// closeCode pops the code frame on top (a bracket or an interpolation),
// with the conditionals and unary operators it held; the outermost frame
// (the file) is never popped.
func (s *scanner) closeCode() {
	if len(s.stack) == 1 {
		return
	}
	f := s.top()
	s.depth -= 1 + f.conds + s.unary
	s.unary = 0
	s.stack = s.stack[:len(s.stack)-1]
}

// endUnary closes a run of unary operators at the operand that ends it.
func (s *scanner) endUnary() {
	s.depth -= s.unary
	s.unary = 0
}

// code reads one token's worth of code at s.i and reports whether it
// opens a level too many (s.i then at it).
func (s *scanner) code() bool {
	if s.skipComment() {
		return false
	}
	c := s.src[s.i]
	switch {
	case c == '(' || c == '[' || c == '{':
		if s.open(frame{kind: frameBracket}) {
			return true
		}
	case c == ')' || c == ']' || c == '}':
		s.closeCode() // after an interpolation: back in its template
	case c == '"':
		s.endUnary()
		s.stack = append(s.stack, frame{kind: frameString})
	case s.has("<<"):
		if marker, n := heredocStart(s.src[s.i:]); n > 0 {
			s.endUnary()
			s.stack = append(s.stack, frame{kind: frameHeredoc, marker: marker})
			s.i += n
			return false
		}
		s.i++
	case c == '?':
		s.top().conds++
		s.depth++
		if s.depth > MaxNesting {
			return true
		}
	case c == '-' || c == '!':
		if s.unaryPosition() {
			s.unary++
			s.depth++
			if s.depth > MaxNesting {
				return true
			}
		}
	case c == '\n' || c == ',':
		// An attribute or an element ends: its conditionals too.
		s.depth -= s.top().conds
		s.top().conds = 0
		s.endUnary()
	case c == ' ' || c == '\t' || c == '\r':
	default:
		s.endUnary()
	}
	s.i++
	return false
}

// unaryPosition reports whether the operator at s.i starts an operand
// (a unary operator) rather than joining two: the last token before it,
// spaces and comments aside, is an operator, an opening bracket, "=",
// ":", ",", "?" or the start of a line.
func (s *scanner) unaryPosition() bool {
	for j := s.i - 1; j >= 0; j-- {
		switch s.src[j] {
		case ' ', '\t', '\r':
			continue
		case '(', '[', '{', '=', ':', ',', '?', '\n', '-', '!', '+', '*', '/', '%', '<', '>', '&', '|':
			return true
		default:
			return false
		}
	}
	return true
}

// quoted reads one character's worth of a quoted string.
func (s *scanner) quoted() bool {
	switch {
	case s.src[s.i] == '\\':
		s.i += 2
	case s.src[s.i] == '"' || s.src[s.i] == '\n':
		// The lexer ends an unclosed string at the end of its line.
		s.stack = s.stack[:len(s.stack)-1]
		s.i++
	default:
		return s.template()
	}
	return false
}

// heredoc reads one character's worth of a heredoc, or its closing line.
func (s *scanner) heredoc() bool {
	if s.i == 0 || s.src[s.i-1] == '\n' {
		line := s.src[s.i:]
		if n := bytes.IndexByte(line, '\n'); n >= 0 {
			line = line[:n]
		}
		if bytes.Equal(bytes.TrimSpace(line), s.top().marker) {
			s.stack = s.stack[:len(s.stack)-1]
			s.i += len(line)
			return false
		}
	}
	return s.template()
}

// template reads one character's worth of a template: an interpolation
// ${ or a directive %{ opens code, $${ and %%{ are literal.
func (s *scanner) template() bool {
	switch {
	case s.has("$${") || s.has("%%{"):
		s.i += 3
	case s.has("${") || s.has("%{"):
		if s.open(frame{kind: frameInterp}) {
			return true
		}
		s.i += 2
	default:
		s.i++
	}
	return false
}

// heredocStart reads the start of a heredoc, <<MARKER or <<-MARKER and
// the end of its line, at the start of b: the marker and the length read,
// or 0 when b does not start one.
func heredocStart(b []byte) ([]byte, int) {
	n := 2
	if n < len(b) && b[n] == '-' {
		n++
	}
	start := n
	for n < len(b) && (b[n] == '_' || b[n] == '-' || b[n] >= '0' && b[n] <= '9' || b[n] >= 'a' && b[n] <= 'z' || b[n] >= 'A' && b[n] <= 'Z') {
		n++
	}
	if n == start {
		return nil, 0
	}
	marker := b[start:n]
	if n < len(b) && b[n] == '\r' {
		n++
	}
	if n >= len(b) || b[n] != '\n' {
		return nil, 0
	}
	return marker, n + 1
}

// has reports whether the source continues with p at s.i.
func (s *scanner) has(p string) bool { return bytes.HasPrefix(s.src[s.i:], []byte(p)) }

// skipComment moves s.i past a comment that starts there, if one does:
// # or // to the end of the line (the newline itself is read as code),
// /* to */ (or the end of the file). It reports whether one did.
func (s *scanner) skipComment() bool {
	var start, end, skip int // where the end is sought, where it is, its length
	switch {
	case s.src[s.i] == '#' || s.has("//"):
		start = s.i
		end = bytes.IndexByte(s.src[start:], '\n')
	case s.has("/*"):
		start, skip = s.i+2, 2 // "/*/" is not a whole comment
		end = bytes.Index(s.src[start:], []byte("*/"))
	default:
		return false
	}
	if end < 0 {
		s.i = len(s.src)
	} else {
		s.i = start + end + skip
	}
	return true
}
