package results

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/polyclass/polyclass/framework/cellspec"
	"github.com/polyclass/polyclass/framework/outcome"
)

// TestReadCellResultNames: a cell file whose result was edited after it
// was written, its checksum computed again and its spec left as it was,
// is refused when a name the tables show holds a terminal's escape, a
// carriage return, a bidi control or an invisible character, or when the
// result names another dataset, learner, cell or classes than its spec
// (campaign 9 B08: bench table wrote learner "lda<ESC…>" and such a class
// raw into every table). So is a cell whose result and spec were edited
// alike, the spec's digest, file name and checksum computed again
// (campaign 10's B08d/e/g: a reduction label, a parameter value, a
// plugin's version or runtime), and one whose tune candidates, chosen
// parameters, metric names or plan warnings hold such a character. The
// reason names the file, the field and the character, escaped.
func TestReadCellResultNames(t *testing.T) {
	for _, tc := range []struct {
		name   string
		noSpec bool // the file holds no spec (a bench from before specs)
		edit   func(*outcome.CellResult)
		// signed edits result and spec alike before the spec's digest,
		// file name and checksum are computed (campaign 10's resign.py).
		signed func(*outcome.CellResult, *cellspec.Spec)
		want   string // "": the cell is read
	}{
		{name: "as written", edit: func(*outcome.CellResult) {}},
		{name: "as written, no spec", noSpec: true, edit: func(*outcome.CellResult) {}},
		{name: "learner with OSC and BEL", edit: func(c *outcome.CellResult) { c.Learner = "logreg\x1b]0;pwned\a" },
			want: `its result's learner "logreg\x1b]0;pwned\a" holds an escape (U+001B) at character 7: the file was edited after it was written`},
		{name: "dataset with RLO", edit: func(c *outcome.CellResult) { c.Dataset = "ir\u202esi" },
			want: `its result's dataset "ir\u202esi" holds a right-to-left override (U+202E) at character 3`},
		{name: "encoder with a zero-width space", edit: func(c *outcome.CellResult) { c.Encoder = "no\u200bne" },
			want: `its result's encoder "no\u200bne" holds a zero-width space (U+200B) at character 3`},
		{name: "class with ESC", edit: func(c *outcome.CellResult) { c.Classes[1] = "b\x1b[31m" },
			want: `its result's class 2 "b\x1b[31m" holds an escape (U+001B) at character 2`},
		{name: "class with CR, no spec", noSpec: true, edit: func(c *outcome.CellResult) { c.Classes[0] = "a\rb" },
			want: `its result's class 1 "a\rb" holds a carriage return (U+000D) at character 2`},
		{name: "tune metric with a newline", edit: func(c *outcome.CellResult) { c.TuneMetric = "accuracy\n| x |" },
			want: `its result's tune_metric "accuracy\n| x |" holds a newline (U+000A) at character 9`},
		{name: "another learner", edit: func(c *outcome.CellResult) { c.Learner = "svm" },
			want: `its result's learner "svm" is not the learner its spec names, "logreg": the file was edited after it was written`},
		{name: "another dataset", edit: func(c *outcome.CellResult) { c.Dataset = "wine" },
			want: `its result's dataset "wine" is not the dataset its spec names, "iris"`},
		{name: "classes swapped", edit: func(c *outcome.CellResult) { c.Classes[0], c.Classes[1] = "b", "a" },
			want: `its result's classes ["b", "a"] are not those its spec names, ["a", "b"]`},
		{name: "another reduction", edit: func(c *outcome.CellResult) { c.Reduction = "ovo" },
			want: `its result's cell "iris|none|logreg|C=2|ovo" (dataset|encoder|learner|parameters|reduction) is not the cell its spec names, "iris|none|logreg|C=2|ova"`},
		{name: "other parameters", edit: func(c *outcome.CellResult) { c.Params = "C=1e9" },
			want: `its result's cell "iris|none|logreg|C=1e9|ova" (dataset|encoder|learner|parameters|reduction) is not the cell its spec names`},
		{name: "another learner, no spec", noSpec: true, edit: func(c *outcome.CellResult) { c.Learner = "svm" }},
		// Result and spec edited alike (B08d/e/g): the spec is no proof.
		{name: "signed, visible text", signed: func(c *outcome.CellResult, sp *cellspec.Spec) {
			c.Reduction, sp.Reduction.Name = "ova–dense", "ova–dense"
			sp.Learner.Params = map[string]any{"C": 2.0, "solver": "lbfgs"}
			sp.Learner.Plugin = cellspec.Plugin{Name: "logreg", Version: "1.0 β", Runtime: map[string]string{"python": "3.11"}}
		}},
		{name: "signed reduction label with ESC", signed: func(c *outcome.CellResult, sp *cellspec.Spec) {
			c.Reduction, sp.Reduction.Name = "ova\x1b[31mRED", "ova\x1b[31mRED"
		}, want: `its result's reduction "ova\x1b[31mRED" holds an escape (U+001B) at character 4: the file was edited after it was written`},
		{name: "signed parameter value with OSC and BEL", signed: func(c *outcome.CellResult, sp *cellspec.Spec) {
			c.Params = "C=2, solver=x\x1b]0;t\a"
			sp.Learner.Params = map[string]any{"C": 2.0, "solver": "x\x1b]0;t\a"}
		}, want: `its result's params "C=2, solver=x\x1b]0;t\a" holds an escape (U+001B) at character 14`},
		{name: "signed spec parameter in a list with RLO", signed: func(c *outcome.CellResult, sp *cellspec.Spec) {
			sp.Reduction.Params = map[string]any{"decode": []any{"hamming", "\u202eexp"}}
		}, want: `its spec's reduction parameter "decode" "\u202eexp" holds a right-to-left override (U+202E) at character 1`},
		{name: "signed plugin version with CR", signed: func(c *outcome.CellResult, sp *cellspec.Spec) {
			sp.Learner.Plugin = cellspec.Plugin{Name: "logreg", Version: "1.0\rfake"}
		}, want: `its spec's learner plugin version "1.0\rfake" holds a carriage return (U+000D) at character 4`},
		{name: "signed plugin runtime with RLO", signed: func(c *outcome.CellResult, sp *cellspec.Spec) {
			sp.Reduction.Plugin = cellspec.Plugin{Name: "reducer", Runtime: map[string]string{"python": "3.11\u202e"}}
		}, want: `its spec's reduction plugin runtime "python" "3.11\u202e" holds a right-to-left override (U+202E) at character 5`},
		{name: "signed runtime component name with a zero-width space", signed: func(c *outcome.CellResult, sp *cellspec.Spec) {
			sp.Learner.Plugin = cellspec.Plugin{Name: "logreg", Runtime: map[string]string{"py\u200bthon": "3.11"}}
		}, want: `its spec's learner plugin runtime component "py\u200bthon" holds a zero-width space (U+200B) at character 3`},
		{name: "tune candidate with ESC", edit: func(c *outcome.CellResult) { c.TuneCandidates = []string{"C=1", "C=\x1b[2J"} },
			want: `its result's tune candidate 2 "C=\x1b[2J" holds an escape (U+001B) at character 3`},
		{name: "chosen with a newline", edit: func(c *outcome.CellResult) { c.Folds[1].Chosen = "C=1\n| x |" },
			want: `its result's fold 2's chosen "C=1\n| x |" holds a newline (U+000A) at character 4`},
		{name: "metric name with RLO", edit: func(c *outcome.CellResult) { c.Folds[0].Metrics["acc\u202e"] = 1 },
			want: `its result's fold 1's metric name "acc\u202e" holds a right-to-left override (U+202E) at character 4`},
		{name: "plan warning with BEL", edit: func(c *outcome.CellResult) { c.Folds[2].PlanWarnings = []string{"ok", "ding\a"} },
			want: `its result's fold 3's plan warning 2 "ding\a" holds a control character (U+0007) at character 5`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := cell(1)
			var spec *cellspec.Spec
			if !tc.noSpec {
				spec = &cellspec.Spec{Format: cellspec.Format, Cell: c.ID.Key(),
					Dataset:   cellspec.Dataset{Name: c.Dataset, Classes: []string{"a", "b"}},
					Learner:   cellspec.Learner{Name: c.Learner},
					Reduction: cellspec.Reduction{Name: c.Reduction, Scheme: c.Reduction}}
			}
			if tc.signed != nil {
				tc.signed(c, spec)
				spec.Cell = c.ID.Key()
			}
			if tc.edit == nil {
				tc.edit = func(*outcome.CellResult) {}
			}
			dig := digest(1)
			if spec != nil {
				dig = spec.Digest()
			}
			tc.edit(c)
			path, err := WriteCell(t.TempDir(), c, dig, spec)
			if err != nil {
				t.Fatal(err)
			}
			got, err := ReadCell(path, 3)
			if tc.want == "" {
				if err != nil || got.Learner != c.Learner {
					t.Fatalf("ReadCell: %v", err)
				}
				return
			}
			if err == nil || !strings.HasPrefix(err.Error(), path+": ") || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v\nwant %s: …%s", err, filepath.Base(path), tc.want)
			}
			if strings.ContainsAny(err.Error(), "\x1b\a\r\n\u202e\u200b") {
				t.Errorf("the error holds the characters raw: %q", err)
			}
		})
	}
}
