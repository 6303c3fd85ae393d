package report

import (
	"strconv"
	"testing"

	"github.com/hashicorp/hcl/v2"

	"github.com/polyclass/polyclass/framework/config"
	"github.com/polyclass/polyclass/framework/outcome"
)

// TestCheckOutputRows: the baseline and each confusion row of an output
// block must name one row of the tables; a name that names none or
// several is an error at its attribute, with FindRow's reason; a skipped
// name is not checked.
func TestCheckOutputRows(t *testing.T) {
	const hint = ` Name a row by its short name, as the tables label it (its learner, and what tells it apart from that learner's other rows), or by some of its words in order ("logreg ova").`
	var ids []outcome.ID
	for _, c := range goldenCells() {
		ids = append(ids, c.ID)
	}
	base := hcl.Range{Filename: "exp.hcl", Start: hcl.Pos{Line: 9, Column: 14}}
	conf := hcl.Range{Filename: "exp.hcl", Start: hcl.Pos{Line: 10, Column: 15}}
	for _, tc := range []struct {
		name string
		out  config.Output
		skip func(string) bool
		want []string // summary @ line: detail
	}{
		{name: "one row each", out: config.Output{Baseline: "svm_cs", Confusion: []string{"logreg C=10"}}},
		{name: "no row and several rows", out: config.Output{Baseline: "tree", BaselineRange: base, Confusion: []string{"svm_cs", "logreg"}, ConfusionRange: conf},
			want: []string{
				`Unknown baseline @ 9: baseline "tree" matches no row (rows: "logreg C=1", "logreg C=10", "svm_cs").` + hint,
				`Unknown confusion row @ 10: confusion row "logreg" matches several rows: "logreg C=1", "logreg C=10".` + hint,
			}},
		// Campaign 14 N11: two entries of one row drew its figures twice.
		{name: "one row named twice", out: config.Output{Confusion: []string{"logreg C=1", "svm_cs", "C=1"}, ConfusionRange: conf,
			ConfusionRanges: []hcl.Range{conf, conf, {Filename: "exp.hcl", Start: hcl.Pos{Line: 11, Column: 3}}}},
			want: []string{`Duplicate confusion row @ 11: Confusion rows "logreg C=1" and "C=1" both name row "logreg C=1", whose figures would be drawn twice; list the row once.`}},
		{name: "one text twice", out: config.Output{Confusion: []string{"svm_cs", "svm_cs"}, ConfusionRange: conf}},
		{name: "skipped", out: config.Output{Baseline: "tree", BaselineRange: base}, skip: func(string) bool { return true }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			diags := CheckOutputRows(&tc.out, ids, nil, tc.skip)
			if len(diags) != len(tc.want) {
				t.Fatalf("%d diagnostics %v, want %d", len(diags), diags, len(tc.want))
			}
			for i, d := range diags {
				if got := d.Summary + " @ " + strconv.Itoa(d.Subject.Start.Line) + ": " + d.Detail; got != tc.want[i] {
					t.Errorf("diagnostic %d: %s\nwant %s", i, got, tc.want[i])
				}
			}
		})
	}
}
