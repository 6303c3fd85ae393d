package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"
	"testing"

	"golang.org/x/net/html"

	"github.com/polyclass/polyclass/framework/curves"
	"github.com/polyclass/polyclass/framework/outcome"
	"github.com/polyclass/polyclass/framework/setup"
	"github.com/polyclass/polyclass/internal/hostile"
)

// hostileReportStrings is the corpus of the report test: the shared
// hostile corpus without its control characters (refused when the data
// and the experiment file are read), and the strings that break Markdown,
// HTML and LaTeX.
func hostileReportStrings() []string {
	var out []string
	for _, s := range hostile.Strings() {
		if !hostile.Controls(s) {
			out = append(out, s)
		}
	}
	out = append(out, "a|b|c", "|", `\|`, `\\|`, `a\`, "`code`", "``", "`a|b`", "*bold*", "**b**", "_i_", "[x](y)",
		"[x](javascript:alert(1))", "<script>alert(1)</script>", "</script><script>alert(1)</script>",
		`<img src=x onerror="alert(1)">`, `" onmouseover="alert(1)`, "' onfocus='alert(1)", "&amp;", "&lt;b&gt;", "&#60;",
		`"quoted"`, "'single'", `\ & % $ # _ { } ~ ^`, `\textbf{x}`, `\input{/etc/passwd}`, "$x^2$", "100%", "# heading",
		"> quote", "- item", "---", "<!--", "-->", "]]>", "{{x}}", strings.Repeat("|", 300), strings.Repeat("<b>", 200))
	var uniq []string
	for _, s := range out {
		if !slices.Contains(uniq, s) {
			uniq = append(uniq, s)
		}
	}
	return uniq
}

// hostileRun is one report's strings: four of the corpus, each in every
// string field that reaches a report.
type hostileRun [4]string

// spec and cells build the run: four datasets and four rows, each row's
// learner, parameters, reduction and pipeline, four classes, tuning
// candidates, a failed cell's error, the warnings, the partial-run note,
// the computed-by lines and the set-up (dataset names and paths,
// parameter values, the tuning sentence, the reducer's phrases) all
// taken from the run's strings, with threshold views (curves).
func (h hostileRun) spec() Spec {
	rope := 0.01
	s := &Setup{File: h[0], FileSHA256: strings.Repeat("ab", 32), Seed: 1,
		CV: CVInfo{Folds: 3, Stratified: true, Repeats: 1}, GoVersion: "go1.26.8", Status: "complete", Cells: 16, Finished: 16, Failed: 1,
		Plugins: []PluginInfo{{Name: h[1], Version: h[2], SHA256: strings.Repeat("cd", 32)}}, Source: h[3]}
	for d, name := range h {
		info := DatasetInfo{Name: name, Path: h[(d+1)%4], SHA256: strings.Repeat("01", 32), Rows: 12, Numeric: 2}
		for _, c := range h {
			info.Classes = append(info.Classes, ClassCount{c, 3})
		}
		s.Datasets = append(s.Datasets, info)
	}
	for r := range h {
		k := h.key(r)
		s.Rows = append(s.Rows, setup.Row{Key: k, Show: k,
			Pipeline:      []setup.Step{{Name: k.Encoder, Type: "standardize", Options: []setup.Param{{Name: "with_mean", Value: h[r]}}}},
			LearnerPlugin: k.Learner, LearnerParams: []setup.Param{{Name: "C", Value: h[(r+2)%4]}}, Tuning: h[(r+3)%4],
			ReductionPlugin: k.Reduction, Scheme: k.Reduction, ReductionParams: []setup.Param{{Name: "code", Value: h[r]}},
			Code: []setup.Phrase{{Text: h[(r+1)%4], Datasets: []string{h[r]}}}, Decoder: []setup.Phrase{{Text: h[(r+2)%4]}},
			ClassWeight: h[(r+3)%4]})
	}
	return Spec{Experiment: "x", Metrics: []string{"accuracy"}, Formats: []string{"markdown", "csv", "json", "latex", "html"},
		Rope: &rope, Seed: 1, Setup: s, Warnings: h[:], ComputedBy: h[:], Partial: h[2]}
}

// key is row r's coordinates.
func (h hostileRun) key(r int) setup.Key {
	return setup.Key{Learner: h[r], Params: h[(r+1)%4], Reduction: h[(r+2)%4], Encoder: h[(r+3)%4]}
}

func (h hostileRun) cells() []*outcome.CellResult {
	var cells []*outcome.CellResult
	for d, ds := range h {
		for r := range h {
			k := h.key(r)
			c := &outcome.CellResult{ID: outcome.ID{Dataset: ds, Encoder: k.Encoder, Learner: k.Learner, Params: k.Params, Reduction: k.Reduction},
				Classes: h[:], TuneMetric: "accuracy", TuneCandidates: []string{h[r], h[(r+1)%4]}}
			if d == 3 && r == 3 {
				c.Error = h[1]
				cells = append(cells, c)
				continue
			}
			var cf []curves.Fold
			for f := range 3 {
				wrong := (d + r + f) % 3
				conf := [][]int{{3, 0, 0, 0}, {0, 3, 0, 0}, {0, 0, 3, 0}, {0, 0, 0, 3}}
				conf[0][0], conf[0][1] = 3-wrong, wrong
				acc := float64(12-wrong) / 12
				c.Folds = append(c.Folds, outcome.FoldResult{Fold: f, NTrain: 24, NTest: 12, Confusion: conf,
					Metrics: map[string]float64{"accuracy": acc, "macro_f1": acc - 0.01}, TuneScores: []float64{0.5, 0.6}, Chosen: h[r]})
				var fold curves.Fold
				for i := range 12 {
					y := i % 4
					for k := range 4 {
						p := 0.1 + 0.05*math.Sin(float64(i*7+k*3+f+d+r))
						if k == y {
							p += 0.5
						}
						fold.Scores = append(fold.Scores, p)
					}
					fold.True = append(fold.True, y)
				}
				cf = append(cf, fold)
			}
			c.Curves = curves.Compute(4, cf, true)
			cells = append(cells, c)
		}
	}
	return cells
}

// renderRun writes the report of h and returns its files by name.
func renderRun(t *testing.T, h hostileRun) map[string][]byte {
	t.Helper()
	files, err := Files(h.spec(), h.cells())
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]byte{}
	for _, f := range files {
		if !strings.HasSuffix(f.Name, ".md") && !strings.HasSuffix(f.Name, ".html") && !strings.HasSuffix(f.Name, ".tex") && !strings.HasSuffix(f.Name, ".json") {
			continue
		}
		var b bytes.Buffer
		if err := f.Write(&b); err != nil {
			t.Fatalf("%s: %v", f.Name, err)
		}
		out[f.Name] = b.Bytes()
	}
	return out
}

// TestReportHostileStrings pushes every string of a hostile corpus
// (Markdown's |, backticks, *, links; HTML tags, entities and quotes that
// would close an attribute; LaTeX's specials; a very long string; the
// empty one) through every string field that reaches a report (dataset
// names, pipeline, learner, parameter and reduction labels, class labels,
// tuning candidates, a failed cell's error, warnings, the partial-run
// note, the computed-by lines, the set-up's paths, parameter values and
// phrases), four strings a report, and checks each format against the
// report of the same run with plain names: every Markdown table keeps its
// rows and each row its columns; the HTML has the same elements and
// attributes (none came from the data) and shows the text; the LaTeX has
// the same unescaped specials on each line (every special of the data is
// escaped); the JSON holds each string back as it was.
func TestReportHostileStrings(t *testing.T) {
	corpus := hostileReportStrings()
	// The plain reports are rendered first, one per pattern of empty
	// fields, so that the subtests share nothing they write and run in
	// parallel (their time is the figures' PNG encoding: 1 CPU-s each).
	plains := map[hostileRun]map[string][]byte{}
	for start := 0; start < len(corpus); start += 4 {
		if plain := hostileRunAt(corpus, start).plain(); plains[plain] == nil {
			plains[plain] = renderRun(t, plain)
		}
	}
	for start := 0; start < len(corpus); start += 4 {
		h := hostileRunAt(corpus, start)
		want := plains[h.plain()]
		t.Run(fmt.Sprintf("strings %d-%d", start, start+3), func(t *testing.T) {
			t.Parallel()
			got := renderRun(t, h)
			for _, name := range slices.Sorted(maps.Keys(want)) {
				g := got[name]
				switch {
				case strings.HasSuffix(name, ".md"):
					checkMarkdownTables(t, g, want[name])
				case strings.HasSuffix(name, ".html"):
					checkHTMLShape(t, g, want[name], h)
				case strings.HasSuffix(name, ".tex"):
					checkLaTeXSpecials(t, g, want[name])
				case strings.HasSuffix(name, ".json"):
					checkJSONStrings(t, g, h)
				}
			}
		})
	}
}

// hostileRunAt is the run of the four strings of corpus from start on,
// wrapping around.
func hostileRunAt(corpus []string, start int) hostileRun {
	var h hostileRun
	for i := range h {
		h[i] = corpus[(start+i)%len(corpus)]
	}
	return h
}

// plain is the run of h with plain names: plainN for each non-empty
// string, and the empty ones kept (an empty field is left out of some
// tables).
func (h hostileRun) plain() hostileRun {
	var plain hostileRun
	for i := range h {
		if h[i] != "" {
			plain[i] = fmt.Sprintf("plain%d", i)
		}
	}
	return plain
}

// mdCells splits a Markdown table line into its cells as GitHub's parser
// does: a backslash escapes the punctuation after it (so \| is a pipe in
// a cell, and \\| a backslash and the cell's end).
func mdCells(line string) int {
	line = strings.TrimSpace(line)
	line = strings.TrimPrefix(line, "|")
	n, empty := 1, true
	for i := 0; i < len(line); i++ {
		switch {
		case line[i] == '\\' && i+1 < len(line) && strings.IndexByte("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~", line[i+1]) >= 0:
			i++
			empty = false
		case line[i] == '|':
			if i == len(line)-1 {
				return n // the closing pipe
			}
			n++
		default:
			empty = false
		}
	}
	_ = empty
	return n
}

// mdTables returns, per Markdown table of text (lines starting with |),
// the cells of each of its lines.
func mdTables(text []byte) [][]int {
	var tables [][]int
	var cur []int
	for _, line := range strings.Split(string(text), "\n") {
		if strings.HasPrefix(line, "|") {
			cur = append(cur, mdCells(line))
			continue
		}
		if cur != nil {
			tables = append(tables, cur)
			cur = nil
		}
	}
	if cur != nil {
		tables = append(tables, cur)
	}
	return tables
}

func checkMarkdownTables(t *testing.T, got, want []byte) {
	t.Helper()
	g, w := mdTables(got), mdTables(want)
	if len(g) != len(w) {
		t.Errorf("Markdown: %d tables, want %d", len(g), len(w))
		return
	}
	for i := range g {
		if !slices.Equal(g[i], w[i]) {
			t.Errorf("Markdown table %d: cells per line %v, want %v", i+1, g[i], w[i])
		}
	}
}

// htmlShape counts the elements of an HTML document by tag and their
// attributes by tag and name, and collects its text.
func htmlShape(t *testing.T, doc []byte) (map[string]int, string) {
	t.Helper()
	root, err := html.Parse(bytes.NewReader(doc))
	if err != nil {
		t.Fatal(err)
	}
	shape := map[string]int{}
	var text strings.Builder
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		switch n.Type {
		case html.ElementNode:
			shape["<"+n.Data+">"]++
			for _, a := range n.Attr {
				shape["<"+n.Data+" "+a.Key+">"]++
			}
		case html.TextNode:
			text.WriteString(n.Data)
			text.WriteByte('\n')
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(root)
	return shape, text.String()
}

func checkHTMLShape(t *testing.T, got, want []byte, h hostileRun) {
	t.Helper()
	g, text := htmlShape(t, got)
	w, _ := htmlShape(t, want)
	for _, k := range slices.Sorted(maps.Keys(mergeKeys(g, w))) {
		if g[k] != w[k] {
			t.Errorf("HTML: %d %s, want %d: markup from the data", g[k], k, w[k])
		}
	}
	for _, s := range h {
		if len(s) < 200 && !strings.Contains(text, s) {
			t.Errorf("HTML: the text %q is not shown", s)
		}
	}
}

func mergeKeys(a, b map[string]int) map[string]int {
	m := maps.Clone(a)
	for k := range b {
		m[k] += 0
	}
	return m
}

// texSpecials counts, per line of a LaTeX text, the specials that are not
// escaped (a backslash escapes the character after it) up to the first
// %, which starts a comment (a warning is a comment line), after each
// \textbackslash{}-like command of the escapes is taken for one letter and
// each empty group "{}" that breaks a ligature ("-{}-") for nothing.
func texSpecials(text []byte) []string {
	s := strings.NewReplacer(`\textbackslash{}`, "X", `\textasciitilde{}`, "X", `\textasciicircum{}`, "X",
		`\textless{}`, "X", `\textgreater{}`, "X", `\texttt{\char34}`, "X", "{}", "").Replace(string(text))
	var out []string
	for _, line := range strings.Split(s, "\n") {
		counts := map[byte]int{}
		for i := 0; i < len(line); i++ {
			switch c := line[i]; {
			case c == '\\' && i+1 < len(line):
				i++
				for i+1 < len(line) && isLetter(line[i]) && isLetter(line[i+1]) {
					i++ // a command's name
				}
			case c == '%':
				counts[c]++
				i = len(line) // a comment to the line's end
			case strings.IndexByte("&$#_{}~^", c) >= 0:
				counts[c]++
			}
		}
		out = append(out, fmt.Sprint(counts))
	}
	return out
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

func checkLaTeXSpecials(t *testing.T, got, want []byte) {
	t.Helper()
	g, w := texSpecials(got), texSpecials(want)
	if len(g) != len(w) {
		t.Errorf("LaTeX: %d lines, want %d", len(g), len(w))
		return
	}
	lines := strings.Split(string(got), "\n")
	for i := range g {
		if g[i] != w[i] {
			t.Errorf("LaTeX line %d: unescaped specials %s, want %s: %.200s", i+1, g[i], w[i], lines[i])
		}
	}
}

// checkJSONStrings checks that the JSON parses and holds each string of
// h as one of its string values, unchanged.
func checkJSONStrings(t *testing.T, got []byte, h hostileRun) {
	t.Helper()
	var v any
	if err := json.Unmarshal(got, &v); err != nil {
		t.Fatalf("JSON: %v", err)
	}
	values := map[string]bool{}
	var walk func(any)
	walk = func(v any) {
		switch x := v.(type) {
		case string:
			values[x] = true
		case []any:
			for _, e := range x {
				walk(e)
			}
		case map[string]any:
			for k, e := range x {
				values[k] = true
				walk(e)
			}
		}
	}
	walk(v)
	for _, s := range h {
		if !values[s] {
			t.Errorf("JSON: no string value %q", s)
		}
	}
}
