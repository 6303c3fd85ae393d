package main

import (
	"bufio"
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/stat"

	"github.com/polyclass/polyclass/framework/data"
	"github.com/polyclass/polyclass/plugins/logreg/logistic"
	"github.com/polyclass/polyclass/plugins/svm/linsvm"
)

//go:embed sklearn_bench.py
var sklearnScript string

// Tolerances of the comparison: LIBLINEAR's defaults for -s 0 and -s 3.
const (
	logregTol = 0.01
	svmTol    = linsvm.DefaultTol
)

// dataset is a standardised numeric design with class indices.
type dataset struct {
	x       *mat.Dense
	y       []int
	classes []string
}

// loadStandardized reads a CSV whose features are all numeric and whose
// target is the column "class", and standardises every feature over the
// whole file (mean, population standard deviation; a constant column is
// only centred). For a timing benchmark fitting the scaler on all rows is
// fine; the cross-validated runs fit it per fold.
func loadStandardized(path string) (*dataset, error) {
	t, err := data.ReadCSV(path, data.Options{Categorical: []string{"class"}})
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", path, err)
	}
	cls, ok := t.Lookup("class")
	if !ok {
		return nil, fmt.Errorf("%s: no column \"class\"", path)
	}
	var feats []*data.Column
	for i := range t.Columns {
		c := &t.Columns[i]
		if c.Name == "class" {
			continue
		}
		if c.Kind != data.Numeric || c.MissingCount() > 0 {
			return nil, fmt.Errorf("%s: column %q must be numeric without missing values", path, c.Name)
		}
		feats = append(feats, c)
	}
	n, d := t.NumRows, len(feats)
	if n == 0 || d == 0 {
		return nil, fmt.Errorf("%s: %d rows, %d features: %w", path, n, d, data.ErrEmpty)
	}
	x := mat.NewDense(n, d, nil)
	for j, c := range feats {
		mean, std := stat.PopMeanStdDev(c.Num, nil)
		if std == 0 {
			std = 1
		}
		for i, v := range c.Num {
			x.Set(i, j, (v-mean)/std)
		}
	}
	y := make([]int, n)
	for i, c := range cls.Codes {
		if c < 0 {
			return nil, fmt.Errorf("%s: row %d has no class", path, i+2)
		}
		y[i] = int(c)
	}
	return &dataset{x: x, y: y, classes: cls.Levels}, nil
}

// ovrLabels returns the ±1 targets of the one-vs-rest problems as
// LIBLINEAR trains them: one per class, or a single problem (first class
// positive) when there are two classes.
func ovrLabels(y []int, k int) [][]float64 {
	p := k
	if k == 2 {
		p = 1
	}
	labels := make([][]float64, p)
	for c := range labels {
		labels[c] = make([]float64, len(y))
		for i, yi := range y {
			labels[c][i] = -1
			if yi == c {
				labels[c][i] = 1
			}
		}
	}
	return labels
}

// fitAll fits problems 0..p−1 with fit, one after the other (workers = 1)
// or spread over workers goroutines, and returns the wall time and the
// number of problems whose solver did not meet its stopping rule.
func fitAll(p, workers int, fit func(c int) (converged bool, err error)) (time.Duration, int, error) {
	start := time.Now()
	var (
		mu       sync.Mutex
		firstErr error
		notConv  int
		wg       sync.WaitGroup
	)
	next := make(chan int)
	for range min(workers, p) {
		wg.Go(func() {
			for c := range next {
				ok, err := fit(c)
				mu.Lock()
				if err != nil && firstErr == nil {
					firstErr = fmt.Errorf("problem %d: %w", c, err)
				}
				if !ok {
					notConv++
				}
				mu.Unlock()
			}
		})
	}
	for c := range p {
		next <- c
	}
	close(next)
	wg.Wait()
	return time.Since(start), notConv, firstErr
}

// median returns the median of ds (the mean of the middle two for an even
// count); ds is not modified.
func median(ds []time.Duration) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	n := len(s)
	if n == 0 {
		return 0
	}
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

// repeat runs f n times and returns the median duration.
func repeat(ctx context.Context, n int, f func() (time.Duration, error)) (time.Duration, error) {
	ds := make([]time.Duration, 0, n)
	for range n {
		if err := ctx.Err(); err != nil {
			return 0, err
		}
		d, err := f()
		if err != nil {
			return 0, err
		}
		ds = append(ds, d)
	}
	return median(ds), nil
}

// solverRow is one solver of the letter comparison.
type solverRow struct {
	name     string
	flags    []string // liblinear-train flags
	fit      func(c int) (bool, error)
	seq, par time.Duration
	notConv  int
	llRaw    time.Duration // liblinear-train with flags
	llBase   time.Duration // liblinear-train with -e 1e9 (reading, set-up, output)
}

// letterSection times the one-vs-rest fits on letter.
func letterSection(ctx context.Context, o *options, w io.Writer, stderr io.Writer) error {
	path, err := o.dataFile("letter.csv")
	if err != nil {
		fmt.Fprintf(w, "## letter: one-vs-rest fit times\n\nSkipped: %v.\n\n", err)
		return nil
	}
	fmt.Fprintf(stderr, "peerbench: letter: loading %s\n", path)
	ds, err := loadStandardized(path)
	if err != nil {
		return err
	}
	n, d := ds.x.Dims()
	k := len(ds.classes)
	labels := ovrLabels(ds.y, k)
	p := len(labels)
	lx := logistic.NewDense(ds.x)
	sx := linsvm.NewDense(ds.x)
	rows := []*solverRow{
		{
			name:  fmt.Sprintf("logistic regression, trust-region Newton, eps %g", logregTol),
			flags: []string{"-s", "0", "-c", "1", "-e", strconv.FormatFloat(logregTol, 'g', -1, 64), "-B", "1"},
			fit: func(c int) (bool, error) {
				r, err := logistic.Fit(lx, labels[c], nil, logistic.Options{C: 1, Solver: logistic.SolverNewton, Tol: logregTol})
				if err != nil {
					return false, err
				}
				return r.Converged, nil
			},
		},
		{
			name:  fmt.Sprintf("linear SVM, hinge, dual CD, bias 1, eps %g", svmTol),
			flags: []string{"-s", "3", "-c", "1", "-e", strconv.FormatFloat(svmTol, 'g', -1, 64), "-B", "1"},
			fit: func(c int) (bool, error) {
				r, err := linsvm.Fit(sx, labels[c], nil, linsvm.Options{C: 1, Loss: linsvm.LossHinge, Bias: 1, Tol: svmTol, Seed: uint64(c)})
				if err != nil {
					return false, err
				}
				return r.Converged, nil
			},
		},
	}
	procs := runtime.GOMAXPROCS(0)
	for _, r := range rows {
		fmt.Fprintf(stderr, "peerbench: letter: ours, %s\n", r.name)
		r.seq, err = repeat(ctx, o.runs, func() (time.Duration, error) {
			t, nc, err := fitAll(p, 1, r.fit)
			r.notConv = nc
			return t, err
		})
		if err != nil {
			return fmt.Errorf("%s: %w", r.name, err)
		}
		r.par, err = repeat(ctx, o.runs, func() (time.Duration, error) {
			t, _, err := fitAll(p, procs, r.fit)
			return t, err
		})
		if err != nil {
			return fmt.Errorf("%s: %w", r.name, err)
		}
	}

	ll, haveLL := lookTool(o.liblinear)
	var llNote string
	if haveLL {
		svm := filepath.Join(o.tmp, "letter.svm")
		if err := writeFile(svm, func(w io.Writer) error { return writeLIBSVM(w, ds.x, ds.y) }); err != nil {
			return err
		}
		model := filepath.Join(o.tmp, "letter.model")
		for _, r := range rows {
			fmt.Fprintf(stderr, "peerbench: letter: %s %s\n", ll, strings.Join(r.flags, " "))
			if r.llRaw, err = repeat(ctx, o.runs, func() (time.Duration, error) { return timeCommand(ctx, ll, append(r.flags, "-q", svm, model)...) }); err != nil {
				return err
			}
			base := append(slices.Clone(r.flags[:2]), "-c", "1", "-e", "1e9", "-B", "1", "-q", svm, model)
			if r.llBase, err = repeat(ctx, o.runs, func() (time.Duration, error) { return timeCommand(ctx, ll, base...) }); err != nil {
				return err
			}
		}
		llNote = toolVersion(ctx, "dpkg-query", "-W", "-f=${Version}", "liblinear-tools")
	}

	letterGoals(o, rows, p, procs, haveLL)
	fmt.Fprintf(w, "## letter: one-vs-rest fit times\n\n")
	fmt.Fprintf(w, "`%s`: %d rows × %d features, %d classes → %d binary problems, standardised over the whole file, C = 1. "+
		"Median of %d runs; %d CPUs, GOMAXPROCS %d. Ours is `Fit` in-process on the in-memory matrix; ", filepath.Base(path), n, d, k, p, o.runs, runtime.NumCPU(), procs)
	if haveLL {
		fmt.Fprintf(w, "LIBLINEAR is `liblinear-train` (Debian liblinear-tools %s) on the same data in LIBSVM format, timed as a process in the same run.\n\n", orUnknown(llNote))
	} else {
		fmt.Fprintf(w, "LIBLINEAR: `%s` is not installed, column skipped (`apt-get install liblinear-tools`).\n\n", o.liblinear)
	}
	if haveLL {
		fmt.Fprintf(w, "| solver | ours, sequential | ours, %d goroutines | LIBLINEAR flags | LIBLINEAR raw | LIBLINEAR `-e 1e9` (read + set-up) | LIBLINEAR adjusted | ours / LIBLINEAR adjusted | ours / LIBLINEAR raw |\n", procs)
		fmt.Fprintf(w, "| --- | ---: | ---: | --- | ---: | ---: | ---: | ---: | ---: |\n")
		for _, r := range rows {
			adj := r.llRaw - r.llBase
			fmt.Fprintf(w, "| %s | %s | %s | `%s` | %s | %s | %s | %s | %s |\n", r.name, fmtDur(r.seq), fmtDur(r.par), strings.Join(r.flags, " "),
				fmtDur(r.llRaw), fmtDur(r.llBase), fmtDur(adj), ratio(r.seq, adj), ratio(r.seq, r.llRaw))
		}
	} else {
		fmt.Fprintf(w, "| solver | ours, sequential | ours, %d goroutines |\n| --- | ---: | ---: |\n", procs)
		for _, r := range rows {
			fmt.Fprintf(w, "| %s | %s | %s |\n", r.name, fmtDur(r.seq), fmtDur(r.par))
		}
	}
	fmt.Fprintln(w)
	for _, r := range rows {
		if r.notConv > 0 {
			fmt.Fprintf(w, "Note: %s: %d of %d problems stopped at the iteration cap.\n\n", r.name, r.notConv, p)
		}
	}
	fmt.Fprintf(w, "- Same stopping rules: logistic regression stops when ‖∇f‖₂ ≤ eps·max(min(n₊,n₋),1)/n·‖∇f(0)‖₂ (LIBLINEAR `-s 0`), the SVM when the projected-gradient spread over a full pass is ≤ eps (`-s 3`).\n")
	fmt.Fprintf(w, "- With `-B 1` LIBLINEAR's logistic regression penalises the bias (a constant feature); ours does not (`-s 3` and our SVM both penalise it), so the `-s 0` problems differ slightly.\n")
	if haveLL {
		fmt.Fprintf(w, "- \"raw\" is the whole `liblinear-train` process: start-up, parsing the text file, training, writing the model. \"`-e 1e9`\" runs the same command with eps = 10⁹, which stops every problem after its first gradient (or first dual pass); \"adjusted\" = raw − that, i.e. LIBLINEAR's training time alone (slightly under-estimated by that one pass).\n")
	}
	fmt.Fprintln(w)

	return sklearnPart(ctx, o, w, stderr, ds)
}

// sklearnPart times scikit-learn on the same standardised data.
func sklearnPart(ctx context.Context, o *options, w io.Writer, stderr io.Writer, ds *dataset) error {
	py, ok := lookTool(o.python)
	if ok {
		if err := exec.CommandContext(ctx, py, "-c", "import sklearn").Run(); err != nil {
			ok = false
		}
	}
	if !ok {
		fmt.Fprintf(w, "scikit-learn: `%s` with scikit-learn is not available, skipped (`apt-get install python3-sklearn`).\n\n", o.python)
		return nil
	}
	csvPath := filepath.Join(o.tmp, "letter_std.csv")
	if err := writeFile(csvPath, func(w io.Writer) error { return writeNumericCSV(w, ds.x, ds.y) }); err != nil {
		return err
	}
	script := filepath.Join(o.tmp, "sklearn_bench.py")
	if err := os.WriteFile(script, []byte(sklearnScript), 0o644); err != nil {
		return fmt.Errorf("writing %s: %w", script, err)
	}
	fmt.Fprintf(stderr, "peerbench: letter: scikit-learn (%s)\n", py)
	cmd := exec.CommandContext(ctx, py, script, csvPath, strconv.Itoa(o.runs))
	cmd.Stderr = stderr
	out, err := cmd.Output()
	if err != nil {
		return fmt.Errorf("%s %s: %w", py, script, err)
	}
	res, err := parseSklearn(out)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "scikit-learn %s (`%s`, numpy %s) on the same standardised matrix, `fit` timed with `time.perf_counter`, median of %d:\n\n", res.Version, py, res.Numpy, o.runs)
	fmt.Fprintf(w, "| scikit-learn estimator | fit |\n| --- | ---: |\n")
	for _, r := range res.Results {
		fmt.Fprintf(w, "| `%s` | %s |\n", r.Name, fmtDur(time.Duration(r.Median*float64(time.Second))))
	}
	fmt.Fprintf(w, "\nscikit-learn's `liblinear` solver and `LinearSVC` use `intercept_scaling = 1`, i.e. LIBLINEAR's `-B 1` (penalised bias); `lbfgs` leaves the intercept unpenalised and stops on max|∇f| ≤ tol (scipy's gtol), a different rule.\n\n")
	return nil
}

// sklearnOutput is what sklearn_bench.py prints.
type sklearnOutput struct {
	Version string `json:"sklearn"`
	Numpy   string `json:"numpy"`
	Results []struct {
		Name   string    `json:"name"`
		Median float64   `json:"median"`
		Times  []float64 `json:"times"`
	} `json:"results"`
}

func parseSklearn(b []byte) (*sklearnOutput, error) {
	var r sklearnOutput
	if err := json.Unmarshal(b, &r); err != nil {
		return nil, fmt.Errorf("parsing the scikit-learn timings %q: %w", b, err)
	}
	return &r, nil
}

// writeLIBSVM writes x with labels y+1 in LIBSVM format, leaving out
// zeros.
func writeLIBSVM(w io.Writer, x mat.Matrix, y []int) error {
	n, d := x.Dims()
	bw := bufio.NewWriter(w)
	buf := make([]byte, 0, 64)
	for i := range n {
		buf = strconv.AppendInt(buf[:0], int64(y[i]+1), 10)
		for j := range d {
			if v := x.At(i, j); v != 0 {
				buf = append(buf, ' ')
				buf = strconv.AppendInt(buf, int64(j+1), 10)
				buf = append(buf, ':')
				buf = strconv.AppendFloat(buf, v, 'g', -1, 64)
			}
		}
		buf = append(buf, '\n')
		if _, err := bw.Write(buf); err != nil {
			return err
		}
	}
	return bw.Flush()
}

// writeNumericCSV writes x and the class index column, without a header.
func writeNumericCSV(w io.Writer, x mat.Matrix, y []int) error {
	n, d := x.Dims()
	bw := bufio.NewWriter(w)
	buf := make([]byte, 0, 64)
	for i := range n {
		buf = buf[:0]
		for j := range d {
			buf = strconv.AppendFloat(buf, x.At(i, j), 'g', -1, 64)
			buf = append(buf, ',')
		}
		buf = strconv.AppendInt(buf, int64(y[i]), 10)
		buf = append(buf, '\n')
		if _, err := bw.Write(buf); err != nil {
			return err
		}
	}
	return bw.Flush()
}

// writeFile creates path and fills it with fill.
func writeFile(path string, fill func(io.Writer) error) error {
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("creating %s: %w", path, err)
	}
	if err := fill(f); err != nil {
		f.Close()
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return nil
}

// timeCommand runs a command and returns its wall time.
func timeCommand(ctx context.Context, name string, args ...string) (time.Duration, error) {
	cmd := exec.CommandContext(ctx, name, args...)
	start := time.Now()
	out, err := cmd.CombinedOutput()
	d := time.Since(start)
	if err != nil {
		return 0, fmt.Errorf("%s %s: %w\n%s", name, strings.Join(args, " "), err, out)
	}
	return d, nil
}

// toolVersion returns the trimmed output of a command, or "" on failure.
func toolVersion(ctx context.Context, name string, args ...string) string {
	out, err := exec.CommandContext(ctx, name, args...).Output()
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(out))
}

func orUnknown(s string) string {
	if s == "" {
		return "version unknown"
	}
	return s
}

// fmtDur prints a duration in seconds with three significant decimals.
func fmtDur(d time.Duration) string {
	s := d.Seconds()
	switch {
	case s >= 10:
		return fmt.Sprintf("%.1f s", s)
	case s >= 1:
		return fmt.Sprintf("%.2f s", s)
	default:
		return fmt.Sprintf("%.0f ms", s*1000)
	}
}

// ratio prints a/b, or "–" when b is not positive.
func ratio(a, b time.Duration) string {
	if b <= 0 {
		return "–"
	}
	return fmt.Sprintf("%.2f", float64(a)/float64(b))
}
