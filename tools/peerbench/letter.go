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
	"github.com/polyclass/polyclass/framework/matrix"
	"github.com/polyclass/polyclass/framework/param"
)

//go:embed sklearn_bench.py
var sklearnScript string

// Settings of the comparison: LIBLINEAR's default tolerances for -s 0 and
// -s 3 (also -s 1 and -s 4), and its iteration cap of the binary SVMs
// (Crammer–Singer then gets 100 times as many, as in LIBLINEAR).
const (
	logregTol  = 0.01
	svmTol     = 0.1
	svmMaxIter = 1000
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
	t, classes, y, err := readClassified(path)
	if err != nil {
		return nil, err
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
	return &dataset{x: x, y: y, classes: classes}, nil
}

// readClassified reads a CSV whose target is the column "class" and
// returns the table, the classes (in order of first appearance) and each
// row's class index; a row without a class is an error.
func readClassified(path string) (t *data.Table, classes []string, y []int, err error) {
	t, err = data.ReadCSV(path, data.Options{Categorical: []string{"class"}})
	if err != nil {
		return nil, nil, nil, fmt.Errorf("reading %s: %w", path, err)
	}
	cls, ok := t.Lookup("class")
	if !ok {
		return nil, nil, nil, fmt.Errorf("%s: no column \"class\"", path)
	}
	y = make([]int, len(cls.Codes))
	for i, c := range cls.Codes {
		if c < 0 {
			return nil, nil, nil, fmt.Errorf("%s: row %d has no class", path, i+2)
		}
		y[i] = int(c)
	}
	return t, cls.Levels, y, nil
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
// or spread over workers goroutines, and returns the wall time.
func fitAll(p, workers int, fit func(c int) error) (time.Duration, error) {
	start := time.Now()
	var (
		mu       sync.Mutex
		firstErr error
		wg       sync.WaitGroup
	)
	next := make(chan int)
	for range min(workers, p) {
		wg.Go(func() {
			for c := range next {
				if err := fit(c); err != nil {
					mu.Lock()
					if firstErr == nil {
						firstErr = fmt.Errorf("problem %d: %w", c, err)
					}
					mu.Unlock()
				}
			}
		})
	}
	for c := range p {
		next <- c
	}
	close(next)
	wg.Wait()
	return time.Since(start), firstErr
}

// sample is one timed run: wall-clock time and the CPU time (user +
// system) it used.
type sample struct {
	wall, cpu time.Duration
}

// alternate runs the functions fs in turn, n rounds (f₀, f₁, …, f₀, f₁, …),
// so that every side of a comparison sees the same machine load, and
// returns the median wall and CPU time of each function.
func alternate(ctx context.Context, n int, fs ...func() (sample, error)) ([]sample, error) {
	walls := make([][]time.Duration, len(fs))
	cpus := make([][]time.Duration, len(fs))
	for range n {
		for i, f := range fs {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			s, err := f()
			if err != nil {
				return nil, err
			}
			walls[i] = append(walls[i], s.wall)
			cpus[i] = append(cpus[i], s.cpu)
		}
	}
	med := make([]sample, len(fs))
	for i := range fs {
		med[i] = sample{wall: median(walls[i]), cpu: median(cpus[i])}
	}
	return med, nil
}

// inProcess times f in this process; its CPU time is the process's, so
// nothing else may run in the process meanwhile.
func inProcess(f func() error) (sample, error) {
	cpu := processCPU()
	start := time.Now()
	err := f()
	return sample{wall: time.Since(start), cpu: processCPU() - cpu}, err
}

// ovrRow is a solver fitted on all p one-vs-rest problems.
type ovrRow struct {
	name  string
	flags []string // liblinear-train flags
	fit   func(c int) error
}

// solverRow is one solver of the comparison with LIBLINEAR: fit fits every
// problem in this process, one after the other.
type solverRow struct {
	name   string
	flags  []string // liblinear-train flags
	fit    func() error
	ours   sample
	llRaw  sample // liblinear-train with flags
	llBase sample // liblinear-train with -e 1e9 (reading, set-up, output)
}

// parallelRow is a solver fitted on the p problems sequentially and on
// several goroutines.
type parallelRow struct {
	name     string
	fit      func(c int) error
	seq, par sample
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
	logreg, hinge, rows := letterSolvers(ctx, ds, labels)
	loadStart := loadAverage()
	ll, haveLL := lookTool(o.liblinear)
	if err := timeSolvers(ctx, o, rows, ll, haveLL, ds, stderr); err != nil {
		return err
	}
	const workers = 2
	par := []*parallelRow{{name: logreg.name, fit: logreg.fit}, {name: hinge.name, fit: hinge.fit}}
	if err := timeParallel(ctx, o, par, p, workers, stderr); err != nil {
		return err
	}
	loadEnd := loadAverage()
	letterGoals(o, rows, par, p, workers, haveLL)
	var llNote string
	if haveLL {
		llNote = toolVersion(ctx, "dpkg-query", "-W", "-f=${Version}", "liblinear-tools")
	}
	printSolvers(w, o, rows, haveLL, llNote, path, n, d, k, p)
	printParallel(w, par, workers, p)
	fmt.Fprintf(w, "Machine load (1-minute load average, %d CPUs): %s at the start of these measurements, %s at the end. "+
		"Wall times and the speed-up suffer when other processes compete for the cores; CPU times (user + system of our process, or of the `liblinear-train` process) are steadier.\n\n",
		runtime.NumCPU(), orUnknown(loadStart), orUnknown(loadEnd))
	if autogroupOn() {
		fmt.Fprintf(w, "Linux autogroup scheduling is on (`/proc/sys/kernel/sched_autogroup_enabled`): the cores are shared equally between sessions, not threads, so while other sessions keep them busy a second goroutine gets no extra CPU and the speed-up tends to 1×; it measures free cores, the CPU columns measure the code.\n\n")
	}
	return sklearnPart(ctx, o, w, stderr, ds)
}

// letterSolvers returns the solvers of the comparison with LIBLINEAR and,
// separately, the logistic and hinge one-vs-rest fits the parallel table
// times: the logreg and svm learners, fitted in this process (see
// fitter) on the whole standardised matrix.
func letterSolvers(ctx context.Context, ds *dataset, labels [][]float64) (logreg, hinge ovrRow, rows []*solverRow) {
	p := len(labels)
	k := len(ds.classes)
	x := matrix.Matrix{Dense: ds.x}
	lr := logregFitter(param.Params{"C": param.Number(1), "solver": param.String("newton"), "tol": param.Number(logregTol)})
	logreg = ovrRow{
		name:  fmt.Sprintf("logistic regression, trust-region Newton, eps %g", logregTol),
		flags: []string{"-s", "0", "-c", "1", "-e", strconv.FormatFloat(logregTol, 'g', -1, 64), "-B", "1"},
		fit:   func(c int) error { return lr.fitBinary(ctx, x, labels[c], uint64(c)) },
	}
	svmWith := func(method, loss string) fitter {
		return svmFitter(param.Params{"C": param.Number(1), "method": param.String(method), "loss": param.String(loss),
			"bias": param.Number(1), "tol": param.Number(svmTol), "max_iter": param.Number(svmMaxIter)})
	}
	svmFit := func(loss string) func(c int) error {
		f := svmWith("dual_cd", loss)
		return func(c int) error { return f.fitBinary(ctx, x, labels[c], uint64(c)) }
	}
	svmFlags := func(solver string) []string {
		return []string{"-s", solver, "-c", "1", "-e", strconv.FormatFloat(svmTol, 'g', -1, 64), "-B", "1"}
	}
	hinge = ovrRow{name: fmt.Sprintf("linear SVM, hinge, dual CD, bias 1, eps %g", svmTol), flags: svmFlags("3"), fit: svmFit("hinge")}
	squared := ovrRow{name: fmt.Sprintf("linear SVM, squared hinge, dual CD, bias 1, eps %g", svmTol), flags: svmFlags("1"), fit: svmFit("squared_hinge")}
	sequential := func(r ovrRow) func() error {
		return func() error {
			_, err := fitAll(p, 1, r.fit)
			return err
		}
	}
	cs := svmWith("crammer_singer", "hinge")
	rows = []*solverRow{
		{name: logreg.name, flags: logreg.flags, fit: sequential(logreg)},
		{name: hinge.name, flags: hinge.flags, fit: sequential(hinge)},
		{name: squared.name, flags: squared.flags, fit: sequential(squared)},
		{
			name:  fmt.Sprintf("Crammer–Singer multiclass SVM (one problem, %d classes), bias 1, eps %g", k, svmTol),
			flags: svmFlags("4"),
			fit:   func() error { return cs.fitMulticlass(ctx, x, ds.y, k, 0) },
		},
	}
	return logreg, hinge, rows
}

// timeParallel times each row's p problems sequentially and on workers
// goroutines, alternately, o.runs rounds.
func timeParallel(ctx context.Context, o *options, rows []*parallelRow, p, workers int, stderr io.Writer) error {
	for _, r := range rows {
		fmt.Fprintf(stderr, "peerbench: letter: %s, sequential vs %d goroutines\n", r.name, workers)
		med, err := alternate(ctx, o.runs,
			func() (sample, error) { return fitAllTimed(p, 1, r.fit) },
			func() (sample, error) { return fitAllTimed(p, workers, r.fit) })
		if err != nil {
			return fmt.Errorf("%s: %w", r.name, err)
		}
		r.seq, r.par = med[0], med[1]
	}
	return nil
}

// fitAllTimed runs fitAll and returns its wall and CPU time.
func fitAllTimed(p, workers int, fit func(c int) error) (sample, error) {
	return inProcess(func() error {
		_, err := fitAll(p, workers, fit)
		return err
	})
}

// timeSolvers times each row in this process and, when LIBLINEAR is
// installed, liblinear-train with the row's flags and with -e 1e9,
// alternately, o.runs rounds.
func timeSolvers(ctx context.Context, o *options, rows []*solverRow, ll string, haveLL bool, ds *dataset, stderr io.Writer) error {
	var svm, model string
	if haveLL {
		svm = filepath.Join(o.tmp, "letter.svm")
		if err := writeFile(svm, func(w io.Writer) error { return writeLIBSVM(w, ds.x, ds.y) }); err != nil {
			return err
		}
		model = filepath.Join(o.tmp, "letter.model")
	}
	for _, r := range rows {
		ours := func() (sample, error) { return inProcess(r.fit) }
		fs := []func() (sample, error){ours}
		if haveLL {
			raw := append(slices.Clone(r.flags), "-q", svm, model)
			base := append(slices.Clone(r.flags[:2]), "-c", "1", "-e", "1e9", "-B", "1", "-q", svm, model)
			fs = append(fs,
				func() (sample, error) { return timeProcess(ctx, ll, raw...) },
				func() (sample, error) { return timeProcess(ctx, ll, base...) })
			fmt.Fprintf(stderr, "peerbench: letter: %s vs %s %s\n", r.name, ll, strings.Join(r.flags, " "))
		} else {
			fmt.Fprintf(stderr, "peerbench: letter: ours, %s\n", r.name)
		}
		med, err := alternate(ctx, o.runs, fs...)
		if err != nil {
			return fmt.Errorf("%s: %w", r.name, err)
		}
		r.ours = med[0]
		if haveLL {
			r.llRaw, r.llBase = med[1], med[2]
		}
	}
	return nil
}

// printSolvers writes the table of our solvers against LIBLINEAR.
func printSolvers(w io.Writer, o *options, rows []*solverRow, haveLL bool, llNote, path string, n, d, k, p int) {
	fmt.Fprintf(w, "## letter: one-vs-rest fit times\n\n")
	fmt.Fprintf(w, "`%s`: %d rows × %d features, %d classes → %d binary problems, standardised over the whole file, C = 1. "+
		"Median of %d runs, the two sides of every ratio run alternately in the same run; %d CPUs, GOMAXPROCS %d. "+
		"Ours is the logreg or svm learner's `Fit` (each plugin's public `learner.New()`, the value its process serves) in this process on the in-memory matrix, the problems one after the other, with the parameters of the LIBLINEAR flags (`max_iter = %d` for the SVMs, LIBLINEAR's cap); ",
		filepath.Base(path), n, d, k, p, o.runs, runtime.NumCPU(), runtime.GOMAXPROCS(0), svmMaxIter)
	if !haveLL {
		fmt.Fprintf(w, "LIBLINEAR: `%s` is not installed, column skipped (`apt-get install liblinear-tools`).\n\n", o.liblinear)
		fmt.Fprintf(w, "| solver | ours | ours, CPU |\n| --- | ---: | ---: |\n")
		for _, r := range rows {
			fmt.Fprintf(w, "| %s | %s | %s |\n", r.name, fmtDur(r.ours.wall), fmtDur(r.ours.cpu))
		}
		fmt.Fprintln(w)
		return
	}
	fmt.Fprintf(w, "LIBLINEAR is `liblinear-train` (Debian liblinear-tools %s) on the same data in LIBSVM format, timed as a process.\n\n", orUnknown(llNote))
	fmt.Fprintf(w, "| solver | ours | LIBLINEAR flags | LIBLINEAR raw | LIBLINEAR `-e 1e9` (read + set-up) | LIBLINEAR adjusted | ours / LIBLINEAR adjusted | ours / LIBLINEAR raw | ours, CPU | LIBLINEAR adjusted, CPU | ours / LIBLINEAR, CPU |\n")
	fmt.Fprintf(w, "| --- | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n")
	for _, r := range rows {
		adj, adjCPU := r.llRaw.wall-r.llBase.wall, r.llRaw.cpu-r.llBase.cpu
		fmt.Fprintf(w, "| %s | %s | `%s` | %s | %s | %s | **%s** | %s | %s | %s | %s |\n", r.name, fmtDur(r.ours.wall), strings.Join(r.flags, " "),
			fmtDur(r.llRaw.wall), fmtDur(r.llBase.wall), fmtDur(adj), ratio(r.ours.wall, adj), ratio(r.ours.wall, r.llRaw.wall),
			fmtDur(r.ours.cpu), fmtDur(adjCPU), ratio(r.ours.cpu, adjCPU))
	}
	fmt.Fprintln(w)
	fmt.Fprintf(w, "- Same stopping rules: logistic regression stops when ‖∇f‖₂ ≤ eps·max(min(n₊,n₋),1)/n·‖∇f(0)‖₂ (LIBLINEAR `-s 0`), the binary SVMs when the projected-gradient spread over a full pass is ≤ eps (`-s 3`, `-s 1`), Crammer–Singer when the largest per-row gradient spread over a full pass is < eps (`-s 4`).\n")
	fmt.Fprintf(w, "- With `-B 1` LIBLINEAR's logistic regression penalises the bias (a constant feature); ours does not (the SVMs of both penalise it), so the `-s 0` problems differ slightly.\n")
	fmt.Fprintf(w, "- \"raw\" is the whole `liblinear-train` process: start-up, parsing the text file, training, writing the model. \"`-e 1e9`\" runs the same command with eps = 10⁹, which stops every problem after its first gradient (or first dual pass); \"adjusted\" = raw − that, i.e. LIBLINEAR's training time alone (slightly under-estimated by that one pass). The CPU columns are user + system time, of our process during the fits and of the `liblinear-train` processes (adjusted the same way).\n\n")
}

// printParallel writes the sequential vs parallel table.
func printParallel(w io.Writer, rows []*parallelRow, workers, p int) {
	fmt.Fprintf(w, "The %d problems one after the other and spread over %d goroutines (each goroutine takes the next problem), timed alternately:\n\n", p, workers)
	fmt.Fprintf(w, "| solver | sequential | %d goroutines | speed-up | sequential, CPU | %d goroutines, CPU |\n| --- | ---: | ---: | ---: | ---: | ---: |\n", workers, workers)
	for _, r := range rows {
		fmt.Fprintf(w, "| %s | %s | %s | **%s×** | %s | %s |\n", r.name, fmtDur(r.seq.wall), fmtDur(r.par.wall), ratio(r.seq.wall, r.par.wall), fmtDur(r.seq.cpu), fmtDur(r.par.cpu))
	}
	fmt.Fprintf(w, "\nThe CPU columns show the work: equal CPU times mean the goroutines do not slow each other down, and the speed-up then reaches %d× when %d cores are free.\n\n", workers, workers)
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
	s, err := timeProcess(ctx, name, args...)
	return s.wall, err
}

// timeProcess runs a command and returns its wall time and the CPU time
// (user + system) of the process.
func timeProcess(ctx context.Context, name string, args ...string) (sample, error) {
	cmd := exec.CommandContext(ctx, name, args...)
	start := time.Now()
	out, err := cmd.CombinedOutput()
	wall := time.Since(start)
	if err != nil {
		return sample{}, fmt.Errorf("%s %s: %w\n%s", name, strings.Join(args, " "), err, out)
	}
	return sample{wall: wall, cpu: cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()}, nil
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
func fmtDur(d time.Duration) string { return fmtSeconds(d.Seconds()) }

// ratio prints a/b, or "–" when b is not positive.
func ratio(a, b time.Duration) string {
	if b <= 0 {
		return "–"
	}
	return fmt.Sprintf("%.2f", float64(a)/float64(b))
}
