// Package suggest finds the names a misspelt name was probably meant to
// be, for "did you mean" hints in error messages.
package suggest

import (
	"fmt"
	"slices"
	"sort"
	"strings"
)

// Closest returns the candidates closest to name, best first: those at the
// smallest edit distance (Levenshtein, after lower-casing and ignoring
// '_', '-', '.', ' ' and quotes) when that distance is small for the name's
// length, those made of the same words in another order ("f1_macro" for
// "macro_f1"), and, as the farthest of the close ones, those the name of
// at least 3 characters begins ("auc_ovr" for "auc"); never one that
// replaces every character of the name. It returns nil when no candidate
// is close.
func Closest(name string, candidates []string) []string {
	n := fold(name)
	if n == "" {
		return nil
	}
	// A name is never replaced whole: "z" suggests none of the classes
	// "a", "b", "c", though each is one edit away.
	limit := min(max(1, len([]rune(n))/3), len([]rune(n))-1)
	best := limit + 1
	var out []string
	words := wordKey(name)
	for _, c := range candidates {
		if c == name || slices.Contains(out, c) {
			continue
		}
		fc := fold(c)
		d := distance(n, fc)
		if words != "" && wordKey(c) == words {
			d = 0
		}
		if d > limit && len(n) >= 3 && strings.HasPrefix(fc, n) {
			d = limit
		}
		switch {
		case d < best:
			best, out = d, []string{c}
		case d == best:
			out = append(out, c)
		}
	}
	if best > limit {
		return nil
	}
	return out
}

// DidYouMean returns ` (did you mean "x"?)`, ` (did you mean "x" or "y"?)`
// for the closest candidates, or "" when none is close.
func DidYouMean(name string, candidates []string) string {
	c := Closest(name, candidates)
	if len(c) == 0 {
		return ""
	}
	q := make([]string, len(c))
	for i, s := range c {
		q[i] = fmt.Sprintf("%q", s)
	}
	return fmt.Sprintf(" (did you mean %s?)", strings.Join(q, " or "))
}

// fold lower-cases s and drops separators and quotes: a name quoted in
// a file (a header a word processor wrote, "\u201cclass\u201d") reads as
// the name, as one with blanks around it does.
func fold(s string) string {
	return strings.Map(func(r rune) rune {
		switch r {
		case '_', '-', '.', ' ':
			return -1
		}
		if strings.ContainsRune(quotes, r) {
			return -1
		}
		return r
	}, strings.ToLower(s))
}

// quotes are the quotation marks fold drops: ASCII ones, the typographic
// ones (U+2018 to U+201F) and guillemets.
const quotes = "\"'`\u2018\u2019\u201a\u201b\u201c\u201d\u201e\u201f\u00ab\u00bb\u2039\u203a"

// wordKey returns the sorted words of s (split at separators), or "" for a
// single word.
func wordKey(s string) string {
	w := strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return r == '_' || r == '-' || r == '.' || r == ' ' })
	if len(w) < 2 {
		return ""
	}
	sort.Strings(w)
	return strings.Join(w, " ")
}

// distance is the Levenshtein distance between a and b, in runes.
func distance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}
