package suggest

import (
	"slices"
	"testing"
)

func TestClosest(t *testing.T) {
	metrics := []string{"accuracy", "error", "macro_f1", "micro_f1", "log_loss", "brier", "kappa", "mcc", "auc_ovr", "auc_ovo"}
	for _, tc := range []struct {
		name string
		want []string
	}{
		{"acuracy", []string{"accuracy"}},
		{"f1_macro", []string{"macro_f1"}},
		{"logloss", []string{"log_loss"}},
		{"Log-Loss", []string{"log_loss"}},
		{"macro-f2", []string{"macro_f1"}},
		{"mcro_f1", []string{"macro_f1", "micro_f1"}},
		{"zzz", nil},
		{"precision", nil},
		{"", nil},
		{"accuracy", nil},                       // an exact name suggests nothing else
		{"auc", []string{"auc_ovr", "auc_ovo"}}, // names it begins
		{"AUC", []string{"auc_ovr", "auc_ovo"}},
		{"ma", nil}, // too short to begin a name
		{"c", nil},  // one letter suggests nothing ("C" does: fold)
		{"Kappa", []string{"kappa"}},
	} {
		if got := Closest(tc.name, metrics); !slices.Equal(got, tc.want) {
			t.Errorf("Closest(%q) = %q, want %q", tc.name, got, tc.want)
		}
	}
}

// TestClosestShortCandidates: among short names (a dataset's classes
// "a", "b", "c"), a one-letter name is never suggested another one
// letter away, which would replace it whole; a change of case still is.
func TestClosestShortCandidates(t *testing.T) {
	classes := []string{"a", "b", "c", "ab", "tableware"}
	for _, tc := range []struct {
		name string
		want []string
	}{
		{"z", nil},
		{"A", []string{"a"}},
		{"zb", []string{"b", "ab"}},
		{"tablewear", []string{"tableware"}},
	} {
		if got := Closest(tc.name, classes); !slices.Equal(got, tc.want) {
			t.Errorf("Closest(%q) = %q, want %q", tc.name, got, tc.want)
		}
	}
}

// TestClosestQuotes: quotes around a name (a header written by a word
// processor, a name quoted twice) are folded as blanks are, either side.
func TestClosestQuotes(t *testing.T) {
	columns := []string{"\u201csepal_length\u201d", "\u201cclass\u201d", "'kind'", "\u00abtype\u00bb", `"z"`}
	for _, tc := range []struct {
		name string
		want []string
	}{
		{"class", []string{"\u201cclass\u201d"}},
		{"Class", []string{"\u201cclass\u201d"}},
		{"kind", []string{"'kind'"}},
		{"type", []string{"\u00abtype\u00bb"}},
		{"sepal_length", []string{"\u201csepal_length\u201d"}},
		{"z", []string{`"z"`}},
		{"\u2018class\u2019", []string{"\u201cclass\u201d"}},
		{"y", nil},
		{"\u201c\u201d", nil},
	} {
		if got := Closest(tc.name, columns); !slices.Equal(got, tc.want) {
			t.Errorf("Closest(%q) = %q, want %q", tc.name, got, tc.want)
		}
	}
	if got := Closest("\u201cclass\u201d", []string{"class", "mass"}); !slices.Equal(got, []string{"class"}) {
		t.Errorf("Closest(curly-quoted class) = %q, want class", got)
	}
}

func TestDidYouMean(t *testing.T) {
	for _, tc := range []struct{ name, want string }{
		{"acuracy", ` (did you mean "accuracy"?)`},
		{"mcro_f1", ` (did you mean "macro_f1" or "micro_f1"?)`},
		{"nothing like it", ""},
	} {
		if got := DidYouMean(tc.name, []string{"accuracy", "macro_f1", "micro_f1"}); got != tc.want {
			t.Errorf("DidYouMean(%q) = %q, want %q", tc.name, got, tc.want)
		}
	}
}

func TestDistance(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		d    int
	}{{"", "", 0}, {"kitten", "sitting", 3}, {"abc", "", 3}, {"héllo", "hello", 1}} {
		if got := distance(tc.a, tc.b); got != tc.d {
			t.Errorf("distance(%q, %q) = %d, want %d", tc.a, tc.b, got, tc.d)
		}
	}
}
