package report

import (
	"slices"
	"strings"
	"testing"

	"github.com/polyclass/polyclass/framework/config"
)

// TestFormats: each registered format writes the files its Writes names
// (the figures under plots/ for those that show them), the experiment
// file's default formats are registered ones, and a format that is not
// registered is an error naming the registered ones.
func TestFormats(t *testing.T) {
	for _, d := range config.DefaultFormats() {
		if !slices.Contains(FormatNames(), d) {
			t.Errorf("default format %q is not a registered format %v", d, FormatNames())
		}
	}
	want := map[string][]string{
		"markdown": {"f.md"},
		"csv":      {"summary.csv", "folds.csv", "per_class.csv"}, // golden cells have threshold views
		"json":     {"f.json"},
		"latex":    {"f.tex", "plots/"},
		"html":     {"f.html", "plots/"},
		"plots":    {"plots/"},
	}
	for _, f := range Formats() {
		files, err := Files(Spec{Experiment: "f", Metrics: []string{"accuracy"}, Formats: []string{f.Name}}, goldenCells())
		if err != nil {
			t.Fatalf("%s: %v", f.Name, err)
		}
		var got []string
		for _, file := range files {
			name := file.Name
			if strings.HasPrefix(name, "plots/") {
				name = "plots/"
			}
			if !slices.Contains(got, name) {
				got = append(got, name)
			}
		}
		if strings.Join(got, " ") != strings.Join(want[f.Name], " ") {
			t.Errorf("format %s writes %v, want %v", f.Name, got, want[f.Name])
		}
		for _, w := range got {
			if w != "plots/" && !strings.Contains(f.Writes, strings.Replace(w, "f.", "NAME.", 1)) {
				t.Errorf("format %s: Writes %q does not name %s", f.Name, f.Writes, w)
			}
		}
		delete(want, f.Name)
	}
	if len(want) > 0 {
		t.Errorf("formats not registered: %v", want)
	}
	_, err := Files(Spec{Experiment: "f", Formats: []string{"markdown", "pdf"}}, goldenCells())
	if err == nil || !strings.Contains(err.Error(), `"pdf"`) || !strings.Contains(err.Error(), "markdown, csv, json, latex, html, plots") {
		t.Errorf("unknown format: error %v", err)
	}
}

// TestMarkdownEscapesHTML: a label in a Markdown table cell has "<" and
// ">" escaped (a Markdown renderer would pass them through as HTML),
// as the HTML and LaTeX reports escape them, "|" as before, and an "&"
// that begins an entity, so that no two labels read alike.
func TestMarkdownEscapesHTML(t *testing.T) {
	tests := []struct{ in, want string }{
		{"</script><script>alert(1)</script>", "&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;"},
		{"<b>bold</b>", "&lt;b&gt;bold&lt;/b&gt;"},
		{"R&D", "R&D"},
		// campaign 11's B50: "&lt;x" and "<x" were two classes written alike.
		{"&lt;x", "&amp;lt;x"},
		{"&#60;x", "&amp;#60;x"},
		{"&#x3C;x", "&amp;#x3C;x"},
		{"a&b;c", "a&amp;b;c"},
		{"wine&co", "wine&co"},
		{"&;", "&;"},
		// campaign 11's B48: a label that a renderer would make a link.
		{"[l](javascript:alert(1))", `[l]\(javascript:alert(1))`},
		{"C=[0.01, 0.1]", "C=[0.01, 0.1]"},
		// campaign 11b's BM3 and BM4: emphasis and code spans read alike.
		{"*x*", `\*x\*`},
		{"_x_", `\_x\_`},
		{"__bold__", `\_\_bold\_\_`},
		{"svm_cs", "svm_cs"},
		{"a_ b", `a\_ b`},
		{"é_ü", "é_ü"},
		{"`v1`", "\\`v1\\`"},
		{"~~x~~", `\~\~x\~\~`},
		{"a|b", `a\|b`},
		{"C=0.1, kernel=rbf", "C=0.1, kernel=rbf"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			if got := mdEscape(tt.in); got != tt.want {
				t.Errorf("mdEscape(%q) = %q, want %q", tt.in, got, tt.want)
			}
			if got := orDash(tt.in); got != tt.want {
				t.Errorf("orDash(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

// TestPerClassInFormatTable: per_class.csv is the csv format's, chosen in
// the format table (Format.after) like every other output, and listed
// after the figures, where earlier versions listed it.
func TestPerClassInFormatTable(t *testing.T) {
	cells := goldenCells()
	s := Spec{Experiment: "f", Metrics: []string{"accuracy"}, Formats: []string{"csv", "plots"}}
	o := &outputs{spec: s, tables: BuildTables(s, cells), cells: cells}
	var after []string
	for _, f := range Formats() {
		if f.after == nil {
			continue
		}
		for _, file := range f.after(o) {
			after = append(after, f.Name+": "+file.Name)
		}
	}
	if want := []string{"csv: per_class.csv"}; !slices.Equal(after, want) {
		t.Errorf("files listed after the figures: %q, want %q", after, want)
	}
	files, err := Files(s, cells)
	if err != nil {
		t.Fatal(err)
	}
	if last := files[len(files)-1].Name; last != "per_class.csv" || !strings.HasPrefix(files[len(files)-2].Name, "plots/") {
		t.Errorf("last files %s, %s; want a plot, then per_class.csv", files[len(files)-2].Name, last)
	}
}

// TestTeXEscape: LaTeX's specials are escaped and its ligatures broken,
// so that no two labels typeset alike (campaign 11b's BM7: lda--x and
// lda–x, “q” and “q”); other bytes pass as they are.
func TestTeXEscape(t *testing.T) {
	tests := []struct{ in, want string }{
		{"lda--x", "lda-{}-x"},
		{"lda–x", `lda\textendash{}x`},
		// campaign 11c's B12: an em dash and a hyphen before an en dash.
		{"lda—x", `lda\textemdash{}x`},
		{"lda-–x", `lda-\textendash{}x`},
		{"a---b", "a-{}-{}-b"},
		{"a—b", `a\textemdash{}b`},
		{"``q''", "`{}`q'{}'"},
		{"“q”", `\textquotedblleft{}q\textquotedblright{}`},
		// B25, B14, B24: curly quotes, ASCII quotes and | in OT1.
		{"’’q", `\textquoteright{}\textquoteright{}q`},
		{"'’q", `'{}\textquoteright{}q`},
		{"`‘q", "`{}\\textquoteleft{}q"},
		{`"q"`, `\texttt{\char34}q\texttt{\char34}`},
		{"a|b", `a\textbar{}b`},
		// campaign 11d's B18: hyphens U+2010 that inputenc reads as -.
		{"a\u2010\u2010b", "a\u2010{}\u2010b"},
		{"a-\u2010b", "a-{}\u2010b"},
		{",,q", ",{},q"},
		{"!`x ?`y", "!{}`x ?{}`y"},
		{"a-b, c's", "a-b, c's"},
		{`50% & $x_1$ #2 {y} ~^\`, `50\% \& \$x\_1\$ \#2 \{y\} \textasciitilde{}\textasciicircum{}\textbackslash{}`},
		{"<b>±−", `\textless{}b\textgreater{}$\pm$$-$`},
		{"a\xffb", "a\xffb"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			if got := texEscape(tt.in); got != tt.want {
				t.Errorf("texEscape(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}
