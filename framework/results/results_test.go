package results

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/polyclass/polyclass/framework/outcome"
)

// digest returns a fake cell digest: the SHA-256 of i.
func digest(i int) string { return fmt.Sprintf("%x", sha256.Sum256([]byte{byte(i)})) }

func digests(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = digest(i)
	}
	return out
}

// cell returns a finished cell with 3 folds of known accuracy.
func cell(i int) *outcome.CellResult {
	c := &outcome.CellResult{Index: i, ID: outcome.ID{Dataset: "iris", Encoder: "none", Learner: "logreg",
		Params: fmt.Sprintf("C=%d", i+1), Reduction: "ova"}, Classes: []string{"a", "b"}}
	for f := range 3 {
		c.Folds = append(c.Folds, outcome.FoldResult{Fold: f, NTrain: 100, NTest: 50,
			Metrics: map[string]float64{"accuracy": 0.5 + 0.1*float64(f) + 0.01*float64(i)}})
	}
	return c
}

func manifest(name string) *Manifest {
	return &Manifest{Experiment: name, Metrics: []string{"accuracy"}, Formats: []string{"markdown", "csv", "json"}}
}

// clock returns a clock one second later at every call.
func clock() func() time.Time {
	t := time.Date(2026, 11, 22, 19, 0, 0, 0, time.UTC)
	return func() time.Time { t = t.Add(time.Second); return t }
}

func begin(t *testing.T, dir, name string, n int, opt Options) *Run {
	t.Helper()
	if opt.Now == nil {
		opt.Now = clock()
	}
	r, err := Begin(dir, manifest(name), digests(n), opt)
	if err != nil {
		t.Fatalf("Begin: %v", err)
	}
	return r
}

// TestManifestFirstThenFinal: the manifest says "running" before any cell
// is computed, and the final one records the status, counts and outputs;
// the tables of a partial run say so in their header.
func TestManifestFirstThenFinal(t *testing.T) {
	dir := t.TempDir()
	r := begin(t, dir, "exp", 3, Options{Render: fakeRender})
	m, err := ReadManifest(dir)
	if err != nil {
		t.Fatal(err)
	}
	if m.Status != StatusRunning || m.Cells != 3 || m.Finished != 0 || len(m.RunDigest) != 64 {
		t.Errorf("first manifest: %+v", m)
	}
	for _, i := range []int{0, 2} {
		if err := r.CellFinished(cell(i)); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := r.Finish(StatusComplete, 4); err != nil {
		t.Fatal(err)
	}
	m, err = ReadManifest(dir)
	if err != nil {
		t.Fatal(err)
	}
	if m.Status != StatusInterrupted || m.Finished != 2 || m.Uploads != 4 || m.Outputs["exp.md"] == "" {
		t.Errorf("final manifest: %+v", m)
	}
	md, _ := os.ReadFile(filepath.Join(dir, "exp.md"))
	if !strings.HasPrefix(string(md), "# exp\npartial: 2 of 3 cells finished (run status: interrupted)\n") {
		t.Errorf("markdown header:\n%s", md)
	}
	js, _ := os.ReadFile(filepath.Join(dir, "exp.json"))
	if !strings.Contains(string(js), "partial: 2 of 3 cells finished (run status: interrupted)\n") {
		t.Errorf("json header:\n%.300s", js)
	}
	for _, want := range []string{"cells/0000-" + digest(0)[:16] + ".json", "cells/0002-" + digest(2)[:16] + ".json"} {
		if _, err := os.Stat(filepath.Join(dir, want)); err != nil {
			t.Error(err)
		}
	}
	// Nothing left under a temporary name.
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if strings.HasPrefix(d.Name(), tmpPrefix) {
			t.Errorf("temporary file left: %s", p)
		}
		return nil
	})
}

// TestResume: a second run of the same experiment keeps the cells whose
// digest matches, moves aside (never deletes) the others and anything that
// is not a valid cell, and its complete tables have no partial header.
func TestResume(t *testing.T) {
	dir := t.TempDir()
	r := begin(t, dir, "exp", 4, Options{Render: fakeRender})
	for i := range 3 {
		if err := r.CellFinished(cell(i)); err != nil {
			t.Fatal(err)
		}
	}
	r.Finish(StatusInterrupted, 0)
	cells := filepath.Join(dir, CellsDir)
	// Cell 1's inputs change; a stray file appears; a write was cut off.
	stale := filepath.Join(cells, CellFileName(1, digest(1)))
	os.WriteFile(filepath.Join(cells, "notes.txt"), []byte("x"), 0o644)
	os.WriteFile(filepath.Join(cells, tmpPrefix+CellFileName(3, digest(3))+"-123"), []byte("{"), 0o644)
	// And a kill -9 cut off the writes of a plot and of predictions.
	for sub, name := range map[string]string{"plots": "box_accuracy.svg", "predictions": "iris.csv"} {
		os.MkdirAll(filepath.Join(dir, sub), 0o755)
		os.WriteFile(filepath.Join(dir, sub, tmpPrefix+name+"-77"), []byte("<"), 0o644)
	}
	ds := digests(4)
	ds[1] = digest(99)
	var notes strings.Builder
	r, err := Begin(dir, manifest("exp"), ds, Options{Render: fakeRender, Notes: &notes, Now: clock()})
	if err != nil {
		t.Fatal(err)
	}
	kept := r.Kept()
	if len(kept) != 2 || kept[0] == nil || kept[2] == nil || kept[2].Folds[1].Metrics["accuracy"] != 0.62 {
		t.Fatalf("kept %v", kept)
	}
	if _, err := os.Stat(stale); !os.IsNotExist(err) {
		t.Errorf("the stale cell is still in cells/: %v", err)
	}
	for _, want := range []string{"moved cells/0001-" + digest(1)[:16] + ".json aside to superseded/", "its inputs changed",
		"moved cells/notes.txt aside", "resuming: 2 of 4 cells kept from an earlier run, 2 to run"} {
		if !strings.Contains(notes.String(), want) {
			t.Errorf("notes lack %q:\n%s", want, notes.String())
		}
	}
	aside, _ := filepath.Glob(filepath.Join(dir, SupersededDir, "*", CellsDir, "*"))
	if len(aside) != 2 {
		t.Errorf("moved aside: %v", aside)
	}
	for _, sub := range []string{CellsDir, "plots", "predictions"} {
		if left, _ := filepath.Glob(filepath.Join(dir, sub, tmpPrefix+"*")); len(left) != 0 {
			t.Errorf("unfinished writes left: %v", left)
		}
	}
	c1 := cell(1)
	c1.Folds[0].Metrics["accuracy"] = 0.25
	r.CellFinished(c1)
	r.CellFinished(cell(3))
	if _, err := r.Finish(StatusComplete, 0); err != nil {
		t.Fatal(err)
	}
	m, _ := ReadManifest(dir)
	if m.Status != StatusComplete || m.Finished != 4 || m.Resumed != 2 {
		t.Errorf("manifest %+v", m)
	}
	md, _ := os.ReadFile(filepath.Join(dir, "exp.md"))
	if strings.Contains(string(md), "partial") {
		t.Errorf("complete run with a partial header:\n%s", md)
	}
	_, loaded, err := Load(dir)
	if err != nil || len(loaded) != 4 || loaded[1].Digest != digest(99) || loaded[1].Folds[0].Metrics["accuracy"] != 0.25 {
		t.Errorf("Load: %v %v", loaded, err)
	}
	log, _ := os.ReadFile(filepath.Join(dir, LogFile))
	if strings.Count(string(log), "started") != 2 || !strings.Contains(string(log), "run complete, 4 of 4 cells (0 failed, 2 kept") {
		t.Errorf("run log:\n%s", log)
	}
}

// TestResumeRenumbers: a block added before others shifts the indices;
// the kept cells are found by digest and renumbered, not computed again.
func TestResumeRenumbers(t *testing.T) {
	dir := t.TempDir()
	r := begin(t, dir, "exp", 2, Options{Render: fakeRender})
	r.CellFinished(cell(0))
	r.CellFinished(cell(1))
	r.Finish(StatusComplete, 0)
	// A new cell comes first: the old cells 0 and 1 are now 1 and 2.
	ds := []string{digest(7), digest(0), digest(1)}
	r, err := Begin(dir, manifest("exp"), ds, Options{Render: fakeRender, Now: clock()})
	if err != nil {
		t.Fatal(err)
	}
	kept := r.Kept()
	if len(kept) != 2 || kept[1] == nil || kept[1].Params != "C=1" || kept[1].Index != 1 || kept[2].Params != "C=2" {
		t.Fatalf("kept %+v", kept)
	}
	r.CellFinished(cell(0))
	r.Finish(StatusComplete, 0)
	_, cells, err := Load(dir)
	if err != nil || len(cells) != 3 || cells[1].Digest != digest(0) || cells[2].Digest != digest(1) {
		t.Errorf("Load: %v %v", cells, err)
	}
	if aside, _ := filepath.Glob(filepath.Join(dir, SupersededDir, "*", CellsDir, "*")); len(aside) != 2 {
		t.Errorf("old files moved aside: %v", aside)
	}
}

// withPredictions returns cell(i) with per-row predictions in every fold.
func withPredictions(i int) *outcome.CellResult {
	c := cell(i)
	for f := range c.Folds {
		n := c.Folds[f].NTest
		p := &outcome.Predictions{Rows: make([]int, n), True: make([]int, n), Predicted: make([]int, n), Scores: mat.NewDense(n, 2, nil)}
		for r := range n {
			p.Rows[r], p.True[r], p.Predicted[r] = 3*r+f, r%2, (r/3)%2
			p.Scores.Set(r, 0, float64(r)/7)
			p.Scores.Set(r, 1, 1-float64(r)/7)
		}
		c.Folds[f].Predictions = p
	}
	return c
}

// TestResumeWithPredictions: with output.predictions set, a resumed run
// keeps the cells whose files hold the predictions, which read back
// exactly, and computes again those computed without them (their files
// moved aside).
func TestResumeWithPredictions(t *testing.T) {
	dir := t.TempDir()
	m := manifest("exp")
	m.Predictions = true
	r, err := Begin(dir, m, digests(2), Options{Render: fakeRender, Now: clock()})
	if err != nil {
		t.Fatal(err)
	}
	r.CellFinished(withPredictions(0))
	r.Finish(StatusInterrupted, 0)
	r = begin(t, dir, "exp", 2, Options{Render: fakeRender}) // without predictions
	r.CellFinished(cell(1))
	r.Finish(StatusInterrupted, 0)

	var notes strings.Builder
	m = manifest("exp")
	m.Predictions = true
	r, err = Begin(dir, m, digests(2), Options{Render: fakeRender, Now: clock(), Notes: &notes})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Finish(StatusInterrupted, 0)
	kept := r.Kept()
	if len(kept) != 1 || kept[0] == nil || !strings.Contains(notes.String(), "the cell file holds no predictions (computed without it)") {
		t.Fatalf("kept %v; notes:\n%s", kept, notes.String())
	}
	want := withPredictions(0)
	for f := range want.Folds {
		g, w := kept[0].Folds[f].Predictions, want.Folds[f].Predictions
		if !slices.Equal(g.Rows, w.Rows) || !slices.Equal(g.True, w.True) || !slices.Equal(g.Predicted, w.Predicted) || !mat.Equal(g.Scores, w.Scores) {
			t.Errorf("fold %d: predictions read back differ", f)
		}
	}
}

// TestOldPredictionsFile: the single predictions.csv of an older bench is
// moved aside, not left stale beside predictions/DATASET.csv.
func TestOldPredictionsFile(t *testing.T) {
	dir := t.TempDir()
	// The directory is an earlier run's (bench writes only into its own).
	first := begin(t, dir, "exp", 1, Options{})
	if _, err := first.Finish(StatusInterrupted, 0); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "predictions.csv"), []byte("dataset,row\niris,0\n"), 0o644)
	var notes strings.Builder
	r, err := Begin(dir, manifest("exp"), digests(1), Options{Render: fakeRender, Now: clock(), Notes: &notes})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Finish(StatusInterrupted, 0)
	if fileExists(filepath.Join(dir, "predictions.csv")) {
		t.Error("predictions.csv left in place")
	}
	aside, _ := filepath.Glob(filepath.Join(dir, SupersededDir, "*", "predictions.csv"))
	if len(aside) != 1 {
		t.Fatalf("moved aside: %v", aside)
	}
	if b, _ := os.ReadFile(aside[0]); string(b) != "dataset,row\niris,0\n" {
		t.Errorf("moved file holds %q", b)
	}
	if !strings.Contains(notes.String(), "predictions are now written per dataset") {
		t.Errorf("notes:\n%s", notes.String())
	}
}

// TestResumeOverAnOlderLayout: a directory written by a bench from before
// resume (manifest without schema, cells/NNNN.json without digest) is
// taken over: its cells are moved aside and computed again.
func TestResumeOverAnOlderLayout(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, CellsDir), 0o755)
	os.WriteFile(filepath.Join(dir, ManifestFile), []byte(`{"experiment": "exp", "cells": 1}`), 0o644)
	b, _ := json.Marshal(cell(0))
	os.WriteFile(filepath.Join(dir, CellsDir, "0000.json"), b, 0o644)
	var notes strings.Builder
	r, err := Begin(dir, manifest("exp"), digests(1), Options{Render: fakeRender, Now: clock(), Notes: &notes})
	if err != nil {
		t.Fatal(err)
	}
	r.Finish(StatusInterrupted, 0)
	if len(r.Kept()) != 0 || !strings.Contains(notes.String(), "moved cells/0000.json aside") {
		t.Errorf("kept %d; notes:\n%s", len(r.Kept()), notes.String())
	}
	if _, err := Begin(dir, manifest("other"), digests(1), Options{Render: fakeRender}); err == nil {
		t.Error("another experiment was let in")
	}
}

// TestRefuseOtherExperiment: a directory holding another experiment is
// refused, naming both, and nothing in it changes.
func TestRefuseOtherExperiment(t *testing.T) {
	dir := t.TempDir()
	r := begin(t, dir, "first", 1, Options{Render: fakeRender})
	r.CellFinished(cell(0))
	r.Finish(StatusComplete, 0)
	for _, fresh := range []bool{false, true} {
		_, err := Begin(dir, manifest("second"), digests(1), Options{Render: fakeRender, Fresh: fresh})
		if err == nil || !strings.Contains(err.Error(), `holds experiment "first", not "second"`) {
			t.Errorf("fresh %v: error %v", fresh, err)
		}
	}
	if _, cells, err := Load(dir); err != nil || len(cells) != 1 {
		t.Errorf("after the refusal: %v %v", cells, err)
	}
}

// TestFresh: --fresh moves the earlier cells and manifest aside.
func TestFresh(t *testing.T) {
	dir := t.TempDir()
	r := begin(t, dir, "exp", 2, Options{Render: fakeRender})
	r.CellFinished(cell(0))
	r.CellFinished(cell(1))
	r.Finish(StatusComplete, 0)
	r = begin(t, dir, "exp", 2, Options{Render: fakeRender, Fresh: true})
	if len(r.Kept()) != 0 {
		t.Errorf("fresh run kept %d cells", len(r.Kept()))
	}
	r.Finish(StatusInterrupted, 0)
	aside, _ := filepath.Glob(filepath.Join(dir, SupersededDir, "*", "*"))
	cellsAside, _ := filepath.Glob(filepath.Join(dir, SupersededDir, "*", CellsDir, "*.json"))
	if len(cellsAside) != 2 || len(aside) != 2 {
		t.Errorf("moved aside: %v %v", aside, cellsAside)
	}
	if m, _ := ReadManifest(dir); m == nil || m.Finished != 0 {
		t.Errorf("manifest after the fresh run: %+v", m)
	}
}

// TestSecondRunIsLockedOut: two runs never write one directory at once.
func TestSecondRunIsLockedOut(t *testing.T) {
	dir := t.TempDir()
	r := begin(t, dir, "exp", 1, Options{Render: fakeRender})
	if _, err := Begin(dir, manifest("exp"), digests(1), Options{Render: fakeRender}); err == nil || !strings.Contains(err.Error(), "in use by another bench run") {
		t.Errorf("second Begin: %v", err)
	}
	if _, _, err := Render(dir, fakeRender, nil); err == nil {
		t.Error("Render ran during a run")
	}
	r.Finish(StatusComplete, 0)
	if _, _, err := Render(dir, fakeRender, nil); err != nil {
		t.Errorf("Render after the run: %v", err)
	}
}

// TestReadCellRejects: bench table checks every cell file: schema, index
// range, duplicates, metric ranges; each bad file is named with its reason.
func TestReadCellRejects(t *testing.T) {
	good := func() map[string]any {
		// Schema 1 (no checksum): the checks below are the ones these
		// damaged files must meet; a schema 2 file's checksum would refuse
		// each of them first (TestCellChecksum).
		b, _ := json.Marshal(Cell{Schema: 1, Digest: digest(1), CellResult: cell(1)})
		var m map[string]any
		json.Unmarshal(b, &m)
		delete(m, "checksum")
		return m
	}
	metric := func(name string, v any) func(map[string]any) {
		return func(m map[string]any) {
			m["folds"].([]any)[1].(map[string]any)["metrics"].(map[string]any)[name] = v
		}
	}
	for _, tc := range []struct {
		name string
		raw  string // the file's content, when set
		edit func(map[string]any)
		file string // default: the cell's own name
		want string
	}{
		{name: "good", edit: func(map[string]any) {}},
		{name: "null", raw: "null", want: "no cell (null or empty object)"},
		{name: "empty object", raw: "{}", want: "no cell (null or empty object)"},
		{name: "truncated", raw: `{"schema": 1, "digest": "`, want: "not a cell file: line 1, column 26: unexpected end of file"},
		{name: "two values", raw: "{} {}", want: "more than one JSON value"},
		{name: "no schema", edit: func(m map[string]any) { delete(m, "schema") }, want: "cell schema 0, this bench reads 1"},
		{name: "unknown field", edit: func(m map[string]any) { m["accuracy"] = 1 }, want: `unknown field "accuracy"`},
		{name: "bad digest", edit: func(m map[string]any) { m["digest"] = "xyz" }, want: `digest "xyz" is not a SHA-256`},
		{name: "index too large", edit: func(m map[string]any) { m["index"] = 7 }, want: "cell index 7 out of range [0, 3)"},
		{name: "negative index", edit: func(m map[string]any) { m["index"] = -1 }, want: "cell index -1 out of range [0, 3)"},
		{name: "renamed", edit: func(map[string]any) {}, file: "0002-" + digest(1)[:16] + ".json", want: "file name does not match its cell (index 1"},
		{name: "accuracy 5", edit: metric("accuracy", 5), want: "fold 1: accuracy = 5 is outside [0, 1]"},
		{name: "kappa -2", edit: metric("kappa", -2), want: "fold 1: kappa = -2 is outside [-1, 1]"},
		{name: "negative log_loss", edit: metric("log_loss", -0.5), want: "fold 1: log_loss = -0.5 is outside [0, +Inf]"},
		{name: "metric as text", edit: metric("accuracy", "0.9"), want: "cannot unmarshal string"},
		{name: "no folds", edit: func(m map[string]any) { m["folds"] = []any{} }, want: "no folds and no error"},
		{name: "failed with folds", edit: func(m map[string]any) { m["error"] = "boom" }, want: "a failed cell with 3 folds"},
		{name: "no learner", edit: func(m map[string]any) { m["learner"] = "" }, want: "no learner"},
		{name: "repeated fold", edit: func(m map[string]any) {
			m["folds"].([]any)[2].(map[string]any)["fold"] = 0
		}, want: "fold 2: repeat 0 fold 0 is negative or repeated"},
		{name: "predictions for fewer rows", edit: func(m map[string]any) {
			m["folds"].([]any)[1].(map[string]any)["predictions"] = map[string]any{"rows": []int{1}, "true": []int{0}, "predicted": []int{1}}
		}, want: "fold 1: predictions: 1 prediction rows for 50 test rows"},
		{name: "predicted class out of range", edit: func(m map[string]any) {
			p := predictionsOf(1, 50)
			p["predicted"].([]int)[3] = 2
			m["folds"].([]any)[1].(map[string]any)["predictions"] = p
		}, want: "fold 1: predictions: row 3: true class 1, predicted 2, not in [0, 2)"},
		{name: "scores of another shape", edit: func(m map[string]any) {
			p := predictionsOf(1, 50)
			p["scores"] = map[string]any{"rows": 50, "cols": 3, "data": make([]float64, 150)}
			m["folds"].([]any)[1].(map[string]any)["predictions"] = p
		}, want: "fold 1: predictions: scores is 50×3, not 50×2"},
		{name: "scores short of entries", edit: func(m map[string]any) {
			p := predictionsOf(1, 50)
			p["scores"] = map[string]any{"rows": 50, "cols": 2, "data": make([]float64, 99)}
			m["folds"].([]any)[1].(map[string]any)["predictions"] = p
		}, want: "scores: 99 entries for a 50×2 matrix"},
		{name: "no test rows", edit: func(m map[string]any) {
			m["folds"].([]any)[0].(map[string]any)["n_test"] = 0
		}, want: "fold 0: 100 training and 0 test rows"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			raw := []byte(tc.raw)
			if tc.raw == "" {
				m := good()
				tc.edit(m)
				raw, _ = json.Marshal(m)
			}
			file := tc.file
			if file == "" {
				file = CellFileName(1, digest(1))
			}
			path := filepath.Join(dir, file)
			os.WriteFile(path, raw, 0o644)
			c, err := ReadCell(path, 3)
			if tc.want == "" {
				if err != nil || c.Index != 1 || len(c.Folds) != 3 {
					t.Fatalf("good cell: %v %+v", err, c)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), path+": ") {
				t.Errorf("error %v, want %s: …%s", err, path, tc.want)
			}
		})
	}
}

// predictionsOf returns the JSON form of good predictions of n rows.
func predictionsOf(fold, n int) map[string]any {
	p := map[string]any{"rows": make([]int, n), "true": make([]int, n), "predicted": make([]int, n)}
	for r := range n {
		p["rows"].([]int)[r] = r + fold
		p["true"].([]int)[r] = r % 2
	}
	return p
}

// TestCellFileEscapesHidden: a plugin's error text holding a bidi override, a zero-width space, a C1 control, DEL and a tag
// character reach the cell file as JSON escapes (no raw character that
// reverses or hides text when the file is printed), and read back as
// they were, checksum and all.
func TestCellFileEscapesHidden(t *testing.T) {
	for _, tc := range []struct {
		name, text, want string
	}{
		{"bidi override", "rev\u202eesrever", `rev\u202eesrever`},
		{"zero-width space", "a\u200bb", `a\u200bb`},
		{"C1 control", "a\u0085b", `a\u0085b`},
		{"DEL", "a\x7fb", `a\u007fb`},
		{"tag beyond U+FFFF", "a\U000e0041b", `a\udb40\udc41b`},
		{"visible text kept", "caf\u00e9 \u03b1", "caf\u00e9 \u03b1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			c := cell(0)
			c.Error, c.Folds = "repeat 0 fold 1: "+tc.text, nil
			path, err := WriteCell(dir, c, digest(0), nil)
			if err != nil {
				t.Fatal(err)
			}
			b, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if n := bytes.Count(b, []byte(`"error": "repeat 0 fold 1: `+tc.want+`"`)); n != 1 {
				t.Errorf("the error as %q appears %d times in the file, want 1:\n%s", tc.want, n, b)
			}
			if tc.text != tc.want && bytes.Contains(b, []byte(tc.text)) {
				t.Errorf("the raw text %q is in the file", tc.text)
			}
			if !json.Valid(b) {
				t.Fatalf("not valid JSON:\n%s", b)
			}
			got, err := ReadCell(path, 1)
			if err != nil {
				t.Fatal(err)
			}
			if got.Error != c.Error {
				t.Errorf("read back error %q, want %q", got.Error, c.Error)
			}
		})
	}
}

// TestReadCellsDuplicates: two files of one cell index are both named.
func TestReadCellsDuplicates(t *testing.T) {
	dir := t.TempDir()
	WriteCell(dir, cell(0), digest(0), nil)
	WriteCell(dir, cell(0), digest(5), nil)
	WriteCell(dir, cell(1), digest(1), nil)
	cells, err := ReadCells(dir, 2)
	want := fmt.Sprintf("%s: cell 0 again (also in %s)", filepath.Join(dir, CellFileName(0, digest(5))), CellFileName(0, digest(0)))
	if err == nil || err.Error() != want {
		t.Errorf("error %v, want %s", err, want)
	}
	if len(cells) != 2 || cells[0].Index != 0 || cells[1].Index != 1 {
		t.Errorf("cells %v", cells)
	}
}

// TestInsideRefusesEscapes: no output name leads out of the directory.
func TestInsideRefusesEscapes(t *testing.T) {
	for _, name := range []string{"../x.md", "/etc/x", "plots/../../x", ""} {
		if p, err := inside("/r", name); err == nil {
			t.Errorf("%q → %s", name, p)
		}
	}
	if p, err := inside("/r", "plots/box_accuracy.png"); err != nil || p != "/r/plots/box_accuracy.png" {
		t.Errorf("plots: %s %v", p, err)
	}
}

// TestResumeRetriesFailedCells: a cell that failed in the earlier run is
// not kept: it runs again, as a missing one does, since its cause may have
// been fixed (a resubmitted job must not fail on it forever).
func TestResumeRetriesFailedCells(t *testing.T) {
	dir := t.TempDir()
	r := begin(t, dir, "exp", 2, Options{Render: fakeRender})
	failed := cell(1)
	failed.Error, failed.Folds = "dense matrix over --dense-budget", nil
	finishCells(t, r, 0)
	if err := r.CellFinished(failed); err != nil {
		t.Fatal(err)
	}
	r.Finish(StatusComplete, 0)
	var notes strings.Builder
	r = begin(t, dir, "exp", 2, Options{Render: fakeRender, Notes: &notes})
	if kept := r.Kept(); len(kept) != 1 || kept[0] == nil {
		t.Fatalf("kept %v, want cell 0 only", kept)
	}
	for _, want := range []string{"moved cells/0001-", "it failed in the earlier run: it runs again", "resuming: 1 of 2 cells kept from an earlier run, 1 to run"} {
		if !strings.Contains(notes.String(), want) {
			t.Errorf("notes lack %q:\n%s", want, notes.String())
		}
	}
}

// TestResumeRenumbersBeyondTheGrid: a block removed from the grid leaves
// cells whose old index is past the new grid's end; they are found by
// digest and renumbered, not dropped as out of range.
func TestResumeRenumbersBeyondTheGrid(t *testing.T) {
	dir := t.TempDir()
	r := begin(t, dir, "exp", 3, Options{Render: fakeRender})
	finishCells(t, r, 0, 1, 2)
	r.Finish(StatusComplete, 0)
	// Cell 1's block is removed and another comes first: old 2 is new 0.
	var notes strings.Builder
	r, err := Begin(dir, manifest("exp"), []string{digest(2), digest(0)}, Options{Render: fakeRender, Notes: &notes, Now: clock()})
	if err != nil {
		t.Fatal(err)
	}
	kept := r.Kept()
	if len(kept) != 2 || kept[0] == nil || kept[0].Params != "C=3" || kept[1] == nil || kept[1].Params != "C=1" {
		t.Fatalf("kept %+v", kept)
	}
	for _, want := range []string{"renumbered: cell 2 is now cell 0", "renumbered: cell 0 is now cell 1", "cells/0001-" + digest(1)[:16]} {
		if !strings.Contains(notes.String(), want) {
			t.Errorf("notes lack %q:\n%s", want, notes.String())
		}
	}
	if strings.Contains(notes.String(), "out of range") {
		t.Errorf("a cell was dropped as out of range:\n%s", notes.String())
	}
}

// TestResumeAfterKilledRenumbering: a run killed while renumbering leaves
// a cell twice, under its old index and its new one (the copy is written
// before the old file is moved aside), beside the old file of the new
// index. The next resume keeps every cell, each once, under its new index,
// and moves aside only the stale copy: no finished cell runs again.
func TestResumeAfterKilledRenumbering(t *testing.T) {
	for _, moveOld := range []bool{false, true} {
		t.Run(fmt.Sprintf("old file moved aside %v", moveOld), func(t *testing.T) { resumeAfterKilledRenumbering(t, moveOld) })
	}
}

func resumeAfterKilledRenumbering(t *testing.T, moveOld bool) {
	dir := t.TempDir()
	r := begin(t, dir, "exp", 3, Options{Render: fakeRender})
	finishCells(t, r, 0, 1, 2)
	r.Finish(StatusComplete, 0)
	// A new cell comes first (old 0, 1, 2 are new 1, 2, 3); the kill came
	// after old cell 0 was written as 0001 (and, with moveOld, after 0000
	// went aside), before old cell 1 was renumbered.
	cells := filepath.Join(dir, CellsDir)
	c0 := cell(0)
	c0.Index = 1
	if _, err := WriteCell(cells, c0, digest(0), nil); err != nil {
		t.Fatal(err)
	}
	if moveOld {
		if err := os.Remove(filepath.Join(cells, CellFileName(0, digest(0)))); err != nil {
			t.Fatal(err)
		}
	}
	var notes strings.Builder
	r, err := Begin(dir, manifest("exp"), []string{digest(7), digest(0), digest(1), digest(2)}, Options{Render: fakeRender, Notes: &notes, Now: clock()})
	if err != nil {
		t.Fatal(err)
	}
	kept := r.Kept()
	if len(kept) != 3 || kept[1] == nil || kept[1].Params != "C=1" || kept[2] == nil || kept[2].Params != "C=2" || kept[3] == nil || kept[3].Params != "C=3" {
		t.Fatalf("kept %+v\n%s", kept, notes.String())
	}
	for i, d := range []string{digest(0), digest(1), digest(2)} {
		if !fileExists(filepath.Join(cells, CellFileName(i+1, d))) {
			t.Errorf("kept cell %d has no file %s\n%s", i+1, CellFileName(i+1, d), notes.String())
		}
	}
	if left, _ := filepath.Glob(filepath.Join(cells, "0000-*")); len(left) != 0 {
		t.Errorf("stale cell 0 files left: %v", left)
	}
}

// TestCellsWrittenAgainAtFinish: a finished cell whose file cannot be
// written (a full disk; here the cells directory is briefly not one) is
// told at once, kept, and written when the run finishes if it then can;
// if not, Finish says how many cells are missing and what to do, and the
// tables show the cells on disk only (as bench table would).
func TestCellsWrittenAgainAtFinish(t *testing.T) {
	for _, recovered := range []bool{true, false} {
		t.Run(fmt.Sprintf("recovered %v", recovered), func(t *testing.T) {
			dir := t.TempDir()
			var notes strings.Builder
			r := begin(t, dir, "exp", 3, Options{Render: fakeRender, Notes: &notes})
			finishCells(t, r, 0)
			cells := filepath.Join(dir, CellsDir)
			if err := os.Rename(cells, cells+".away"); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(cells, nil, 0o644); err != nil {
				t.Fatal(err)
			}
			if err := r.CellFinished(cell(1)); err != nil {
				t.Fatalf("CellFinished of an unwritable cell: %v (the run must go on)", err)
			}
			if !strings.Contains(notes.String(), "the run goes on and writes the cells it cannot write now when it ends") {
				t.Errorf("notes:\n%s", notes.String())
			}
			if recovered {
				os.Remove(cells)
				if err := os.Rename(cells+".away", cells); err != nil {
					t.Fatal(err)
				}
				finishCells(t, r, 2)
			}
			_, err := r.Finish(StatusComplete, 0)
			m, _ := ReadManifest(dir)
			if recovered {
				if err != nil {
					t.Fatal(err)
				}
				for i := range 3 {
					if !fileExists(filepath.Join(cells, CellFileName(i, digest(i)))) {
						t.Errorf("cell %d not on disk", i)
					}
				}
				if m == nil || m.Status != StatusComplete || m.Finished != 3 {
					t.Errorf("manifest %+v", m)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), "1 finished cell(s) could not be written") || !strings.Contains(err.Error(), "run the same command again") {
				t.Errorf("Finish error %v", err)
			}
			if m == nil || m.Status != StatusInterrupted || m.Finished != 1 {
				t.Errorf("manifest %+v, want interrupted with the 1 cell on disk", m)
			}
		})
	}
}

// TestDamagedManifest: an unreadable manifest (empty: a run killed on a
// full disk) stops a run, bench table and Load with what to do about it;
// --fresh moves it aside with the cells and starts over.
func TestDamagedManifest(t *testing.T) {
	dir := t.TempDir()
	r := begin(t, dir, "exp", 2, Options{Render: fakeRender})
	finishCells(t, r, 0, 1)
	r.Finish(StatusComplete, 0)
	if err := os.WriteFile(filepath.Join(dir, ManifestFile), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	advice := "move " + filepath.Join(dir, ManifestFile) + " aside (or delete it) and run again: the cell files are checked one by one and kept; or run with --fresh"
	if _, err := Begin(dir, manifest("exp"), digests(2), Options{Render: fakeRender, Now: clock()}); err == nil || !strings.Contains(err.Error(), advice) {
		t.Errorf("Begin: %v, want the advice %q", err, advice)
	}
	if _, _, err := Render(dir, fakeRender, nil); err == nil || !strings.Contains(err.Error(), advice) {
		t.Errorf("Render: %v", err)
	}
	if _, _, err := Load(dir); err == nil || !strings.Contains(err.Error(), advice) {
		t.Errorf("Load: %v", err)
	}
	// --fresh moves the damaged manifest aside with the cells.
	if err := os.Remove(filepath.Join(dir, ManifestFile)); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, ManifestFile), []byte("{"), 0o644); err != nil {
		t.Fatal(err)
	}
	r, err := Begin(dir, manifest("exp"), digests(2), Options{Render: fakeRender, Fresh: true, Now: clock()})
	if err != nil {
		t.Fatalf("--fresh with a damaged manifest: %v", err)
	}
	if len(r.Kept()) != 0 {
		t.Errorf("--fresh kept %d cells", len(r.Kept()))
	}
	r.Finish(StatusInterrupted, 0)
	if aside, _ := filepath.Glob(filepath.Join(dir, SupersededDir, "*", ManifestFile)); len(aside) != 1 {
		t.Errorf("the damaged manifest was not moved aside: %v", aside)
	}
	// Without --fresh, once the damaged manifest is gone, the cells resume.
	dir2 := t.TempDir()
	r = begin(t, dir2, "exp", 2, Options{Render: fakeRender})
	finishCells(t, r, 0, 1)
	r.Finish(StatusComplete, 0)
	os.Remove(filepath.Join(dir2, ManifestFile))
	r, err = Begin(dir2, manifest("exp"), digests(2), Options{Render: fakeRender, Now: clock()})
	if err != nil || len(r.Kept()) != 2 {
		t.Fatalf("resume without a manifest: %v, kept %d", err, len(r.Kept()))
	}
	r.Finish(StatusComplete, 0)
}

// TestCellChecksum: a cell file edited after it was written (a score
// changed, the JSON still valid) is refused, with the reason; a file
// written without a checksum (an older bench) is read as before.
func TestCellChecksum(t *testing.T) {
	dir := t.TempDir()
	path, err := WriteCell(dir, cell(0), digest(0), nil)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(path)
	if !regexp.MustCompile(`\n  "checksum": "[0-9a-f]{64}",\n`).Match(b) {
		t.Fatalf("no checksum line in\n%s", b)
	}
	if _, err := ReadCell(path, 1); err != nil {
		t.Fatalf("the file as written: %v", err)
	}
	edited := bytes.Replace(b, []byte(`"accuracy": 0.5`), []byte(`"accuracy": 0.55`), 1)
	if bytes.Equal(edited, b) {
		t.Fatal("test: nothing edited")
	}
	os.WriteFile(path, edited, 0o644)
	if _, err := ReadCell(path, 1); err == nil || !strings.Contains(err.Error(), "its content does not match its checksum: the file was edited or damaged after it was written") {
		t.Errorf("edited file: %v", err)
	}
	old := regexp.MustCompile(`\n  "checksum": "[0-9a-f]{64}",`).ReplaceAll(edited, nil)
	// Its checksum line deleted, a schema 3 file is refused all the same.
	os.WriteFile(path, old, 0o644)
	if _, err := ReadCell(path, 1); err == nil || !strings.Contains(err.Error(), "no checksum, which every schema 3 cell file has") {
		t.Errorf("schema 3 without its checksum: %v", err)
	}
	old = bytes.Replace(old, []byte(`"schema": 3`), []byte(`"schema": 1`), 1)
	os.WriteFile(path, old, 0o644)
	if c, err := ReadCell(path, 1); err != nil || c.Folds[0].Metrics["accuracy"] != 0.55 {
		t.Errorf("a schema 1 file, without a checksum: %v", err)
	}
	// Line ends converted to CRLF, or the final newline lost, are not edits.
	for name, copy := range map[string][]byte{
		"crlf":       bytes.ReplaceAll(b, []byte("\n"), []byte("\r\n")),
		"no newline": bytes.TrimSuffix(b, []byte("\n")),
	} {
		os.WriteFile(path, copy, 0o644)
		if _, err := ReadCell(path, 1); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}

// TestRenderAfterKill: bench table on the directory of a run killed
// mid-way (its manifest still says running, its lock is free) calls the
// run interrupted in the tables and the manifest, not running.
func TestRenderAfterKill(t *testing.T) {
	dir := t.TempDir()
	r := begin(t, dir, "exp", 3, Options{Render: fakeRender})
	finishCells(t, r, 0)
	r.unlock() // as kill -9 leaves it: no Finish
	m, _, err := Render(dir, fakeRender, nil)
	if err != nil {
		t.Fatal(err)
	}
	if m.Status != StatusInterrupted {
		t.Errorf("status %s, want interrupted", m.Status)
	}
	md, _ := os.ReadFile(filepath.Join(dir, "exp.md"))
	if !strings.Contains(string(md), "1 of 3 cells finished (run status: interrupted)") {
		t.Errorf("tables:\n%s", md)
	}
}

// completeRun runs the two cells of experiment "exp" into dir with the
// output formats given, to the end.
func completeRun(t *testing.T, dir string, formats ...string) {
	t.Helper()
	m := manifest("exp")
	m.Formats = formats
	r, err := Begin(dir, m, digests(2), Options{Render: fakeRender, Now: clock()})
	if err != nil {
		t.Fatal(err)
	}
	finishCells(t, r, 0, 1)
	if _, err := r.Finish(StatusComplete, 0); err != nil {
		t.Fatal(err)
	}
}

// TestStaleOutputsRemoved: outputs an earlier run wrote that this one
// does not (csv and plots dropped from the formats) are removed, not left
// beside the new tables, plots/ with them; the cells stay.
func TestStaleOutputsRemoved(t *testing.T) {
	dir := t.TempDir()
	completeRun(t, dir, "markdown", "csv", "plots")
	if !fileExists(filepath.Join(dir, "summary.csv")) || !fileExists(filepath.Join(dir, "plots")) {
		t.Fatal("no summary.csv or plots/ from the first run")
	}
	m := manifest("exp")
	m.Formats = []string{"markdown"}
	m.Predictions = false
	r, err := Begin(dir, m, digests(2), Options{Render: fakeRender, Now: clock()})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.Finish(StatusComplete, 0); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"summary.csv", "folds.csv", "plots"} {
		if fileExists(filepath.Join(dir, f)) {
			t.Errorf("stale %s left", f)
		}
	}
	if !fileExists(filepath.Join(dir, "exp.md")) || !fileExists(filepath.Join(dir, CellsDir, CellFileName(1, digest(1)))) {
		t.Error("the tables or the cells went too")
	}
}

// TestFullDiskKeepsTheTables: tables that cannot be written again (a full
// disk; here a file the new tables cannot replace) leave the earlier ones
// in place, listed in the manifest, none removed as stale.
func TestFullDiskKeepsTheTables(t *testing.T) {
	dir := t.TempDir()
	completeRun(t, dir, "markdown", "csv")
	before := map[string]string{}
	for _, f := range []string{"exp.md", "summary.csv", "folds.csv"} {
		b, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil {
			t.Fatal(err)
		}
		before[f] = string(b)
	}
	// summary.csv comes first among the csv files: make its write fail.
	if err := os.Remove(filepath.Join(dir, "summary.csv")); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, "summary.csv"), 0o755); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "summary.csv", "x"), nil, 0o644)
	if _, _, err := Render(dir, fakeRender, nil); err == nil {
		t.Fatal("Render wrote over a directory")
	}
	b, err := os.ReadFile(filepath.Join(dir, "folds.csv"))
	if err != nil || string(b) != before["folds.csv"] {
		t.Errorf("folds.csv after a failed render: %v", err)
	}
	m2, err := ReadManifest(dir)
	if err != nil || m2.Outputs["folds.csv"] == "" {
		t.Errorf("manifest outputs after a failed render: %v, %v", err, m2.Outputs)
	}
}

// TestHoldLocksOutRuns: Hold refuses a directory a run is writing into,
// with bench table's words, and keeps a run from starting there until
// Release; a directory without a manifest is os.ErrNotExist.
func TestHoldLocksOutRuns(t *testing.T) {
	dir := t.TempDir()
	if _, err := Hold(dir); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("Hold without a manifest: %v, want os.ErrNotExist", err)
	}
	if _, err := os.Stat(filepath.Join(dir, lockFile)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("Hold without a manifest made %s: %v", lockFile, err)
	}
	r := begin(t, dir, "exp", 1, Options{Render: fakeRender})
	want := "results directory " + dir + " is in use by another bench run"
	if _, err := Hold(dir); err == nil || err.Error() != want {
		t.Errorf("Hold during a run: %v, want %q", err, want)
	}
	r.Finish(StatusComplete, 0)
	h, err := Hold(dir)
	if err != nil {
		t.Fatalf("Hold after the run: %v", err)
	}
	if _, err := Begin(dir, manifest("exp"), digests(1), Options{Render: fakeRender}); err == nil || !strings.Contains(err.Error(), "in use by another bench run") {
		t.Errorf("Begin while held: %v", err)
	}
	if _, _, err := Render(dir, fakeRender, nil); err == nil {
		t.Error("Render ran while held")
	}
	h.Release()
	h.Release() // a second Release does nothing
	r = begin(t, dir, "exp", 1, Options{Render: fakeRender})
	r.Finish(StatusComplete, 0)
}
