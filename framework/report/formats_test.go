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
