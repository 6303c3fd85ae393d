package report

import (
	"strings"
	"testing"

	"github.com/polyclass/polyclass/framework/outcome"
)

// TestAbsentMark: an absent value has one mark, "–", in every table of a
// format: a cell the run does not have (an empty cell before) as the
// empty parameters beside it ("–" already), in Markdown, HTML and LaTeX
// (where it is set as --).
func TestAbsentMark(t *testing.T) {
	acc := []float64{0.80, 0.82, 0.79}
	cells := []*outcome.CellResult{
		mkCell("d1", "base", "", "ova", 90, 10, withErr(acc)),
		mkCell("d1", "up", "", "ova", 90, 10, withErr([]float64{0.85, 0.86, 0.84})),
		mkCell("d2", "base", "", "ova", 90, 10, withErr(acc)),
	}
	files := renderFormats(t, Spec{Experiment: "a", Metrics: []string{"accuracy"}}, cells)
	for name, want := range map[string]string{
		"a.md":   "| up | **0.8500 ± 0.0100** | – |",
		"a.html": `<td>up</td><td>default</td><td>up</td><td>–</td><td>ova</td>`,
		"a.tex":  `up & \textbf{0.8500 $\pm$ 0.0100} & -- & `,
	} {
		if !strings.Contains(files[name], want) {
			t.Errorf("%s lacks %q:\n%s", name, want, files[name])
		}
	}
	if !strings.Contains(files["a.html"], `<td class="num">–</td>`) {
		t.Errorf("a.html: the absent cell is not –:\n%s", files["a.html"])
	}
}
