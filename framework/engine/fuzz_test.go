package engine_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/polyclass/polyclass/framework/config"
	"github.com/polyclass/polyclass/framework/engine"
	"github.com/polyclass/polyclass/framework/host"
	"github.com/polyclass/polyclass/framework/report"
	"github.com/polyclass/polyclass/internal/adversarial"
	lda "github.com/polyclass/polyclass/plugins/lda/learner"
	logreg "github.com/polyclass/polyclass/plugins/logreg/learner"
	"github.com/polyclass/polyclass/plugins/reducers/reducer"
	svm "github.com/polyclass/polyclass/plugins/svm/learner"
)

// fuzzData are the files an experiment under fuzzing may name: a small
// multiclass data set, its folds, a test file, a mixed one.
var fuzzData = map[string]string{
	"d.csv": "x1,x2,class\n5.1,3.5,a\n4.9,3.0,a\n4.7,3.2,a\n4.6,3.1,a\n7.0,3.2,b\n6.4,3.2,b\n6.9,3.1,b\n5.5,2.3,b\n6.3,3.3,c\n5.8,2.7,c\n7.1,3.0,c\n6.3,2.9,c\n",
	"f.csv": "fold\n0\n1\n2\n3\n0\n1\n2\n3\n0\n1\n2\n3\n",
	"t.csv": "x1,x2,class\n5.0,3.3,a\n6.1,3.0,b\n6.5,3.0,c\n",
	"c.csv": "x1,colour,class\n1,red,a\n2,blue,a\n3,,a\n4,red,a\n5,blue,b\n6,red,b\n7,blue,b\n8,red,b\n9,red,c\n10,blue,c\n11,red,c\n12,blue,c\n",
}

// FuzzResolve: an experiment file goes from source to resolved grid (parse,
// then Resolve against the data and in-process logreg, lda, svm and
// reducers plugins) without a panic or a hang; every diagnostic prints,
// and those with a location point into the experiment file; an accepted
// file gives a grid whose folds cover every row with non-empty folds,
// whose labels are classes, whose cells are numbered in order, and which
// resolving again gives cell for cell. Seeds: every experiment of the
// adversarial corpus that names only the files above. Sources that would
// only be slow (range(), grids of more than 256 combinations or tuning
// candidates, files outside the data directory) are skipped.
func FuzzResolve(f *testing.F) {
	dir := f.TempDir()
	for name, text := range fuzzData {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			f.Fatal(err)
		}
	}
	h := host.New("", nil)
	h.Register("logreg", host.InProcess{Learner: logreg.New()})
	h.Register("lda", host.InProcess{Learner: lda.New()})
	h.Register("svm", host.InProcess{Learner: svm.New()})
	h.Register("reducers", host.InProcess{Reducer: reducer.New()})
	f.Cleanup(h.Close)
	for _, c := range adversarial.Load(f, "experiments") {
		if names := c.Files("exp.hcl"); len(names) == 1 && names[0] == "d.csv" {
			src, _ := c.File("exp.hcl")
			f.Add(string(src))
		}
	}
	f.Fuzz(func(t *testing.T, src string) {
		if strings.Contains(src, "range(") || len(src) > 8<<10 {
			return
		}
		file := filepath.Join(dir, "fuzz.hcl")
		p := config.NewParser(report.FormatNames())
		exp, diags := p.ParseSource([]byte(src), file)
		var out bytes.Buffer
		if err := config.WriteDiagnostics(&out, p.Files(), diags); err != nil {
			t.Fatal(err)
		}
		if exp == nil || diags.HasErrors() || !within(exp, dir) || combinations(exp) > 256 {
			return
		}
		ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
		defer cancel()
		g, rd := engine.Resolve(ctx, exp, h, engine.ResolveOptions{DefaultReducer: "reducers"})
		if err := config.WriteDiagnostics(&out, p.Files(), rd); err != nil {
			t.Fatal(err)
		}
		for _, d := range rd {
			if d.Subject != nil && d.Subject.Filename != file {
				t.Fatalf("diagnostic %q located in %s, not in the experiment file", d.Summary, d.Subject.Filename)
			}
		}
		if rd.HasErrors() {
			return
		}
		checkGrid(t, g)
		p2 := config.NewParser(report.FormatNames())
		exp2, _ := p2.ParseSource([]byte(src), file)
		g2, rd2 := engine.Resolve(ctx, exp2, h, engine.ResolveOptions{DefaultReducer: "reducers"})
		if rd2.HasErrors() || !slices.Equal(keys(g), keys(g2)) {
			t.Fatalf("resolved again: %v, cells %v, want %v", rd2, keys(g2), keys(g))
		}
	})
}

// checkGrid checks the invariants of a resolved grid.
func checkGrid(t *testing.T, g *engine.Grid) {
	t.Helper()
	for _, d := range g.Datasets {
		n := d.Table.NumRows
		if len(d.Folds) == 0 || d.NumFolds < 1 {
			t.Fatalf("dataset %s: %d fold assignments of %d folds", d.Config.Name, len(d.Folds), d.NumFolds)
		}
		for _, folds := range d.Folds {
			sizes := make([]int, d.NumFolds+1) // a test file's split: fold 0 and the training rows' 1
			if len(folds) != n {
				t.Fatalf("dataset %s: folds for %d rows, %d rows", d.Config.Name, len(folds), n)
			}
			for _, v := range folds {
				if v < 0 || v > d.NumFolds {
					t.Fatalf("dataset %s: fold %d of %d", d.Config.Name, v, d.NumFolds)
				}
				sizes[v]++
			}
			for f := range d.NumFolds {
				if sizes[f] == 0 {
					t.Fatalf("dataset %s: fold %d is empty (sizes %v)", d.Config.Name, f, sizes)
				}
			}
		}
		if !d.MultiLabel {
			for i, y := range d.Labels {
				if y < 0 || y >= d.K() {
					t.Fatalf("dataset %s: row %d has label %d of %d classes", d.Config.Name, i, y, d.K())
				}
			}
		}
	}
	for i, c := range g.Cells {
		if c.Index != i || c.Dataset == nil || c.Learner == nil || c.Reduction == nil || c.Pipeline == nil {
			t.Fatalf("cell %d: %+v", i, c)
		}
	}
}

// keys returns the cells' keys in order.
func keys(g *engine.Grid) []string {
	out := make([]string, len(g.Cells))
	for i, c := range g.Cells {
		out[i] = c.ID().Key()
	}
	return out
}

// within reports whether every file exp names is in dir.
func within(exp *config.Experiment, dir string) bool {
	paths := []string{exp.CV.FoldsFile}
	for _, d := range exp.Datasets {
		paths = append(paths, d.Path, d.TestPath, d.FoldsFile)
	}
	for _, p := range paths {
		if p != "" && filepath.Dir(p) != dir {
			return false
		}
	}
	return true
}

// combinations bounds the number of cells of exp: the product of the
// list lengths of its parameters, and of the candidates tuning draws.
func combinations(exp *config.Experiment) int {
	n := 1
	count := func(params map[string]config.Param) {
		for _, p := range params {
			if l := len(p.Value.Elems()); l > 1 {
				n *= l
			}
			n = min(n, 1<<20)
		}
	}
	for _, l := range exp.Learners {
		count(l.Params)
		if l.Tune != nil && l.Tune.NIter > 1 {
			n = min(n*l.Tune.NIter, 1<<20) // random or halving candidates drawn
		}
	}
	for _, r := range exp.Reductions {
		count(r.Params)
	}
	return n * max(len(exp.Datasets), 1) * max(len(exp.Learners), 1) * max(len(exp.Reductions), 1) * max(len(exp.Pipelines), 1)
}
