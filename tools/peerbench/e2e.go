package main

import (
	"bytes"
	"compress/gzip"
	"context"
	_ "embed"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/polyclass/polyclass/framework/cv"
)

//go:embed sklearn_e2e.py
var e2eScript string

// e2eCase is one end-to-end comparison: the same data, folds and pipeline
// through `bench run -j 2` and scikit-learn's cross_validate(n_jobs=2).
type e2eCase struct {
	name        string   // data set name in the experiment
	file        string   // data file name
	categorical []string // integer-coded categorical columns
	folds       int
	steps       []string // polyclass encoders, in order
	describe    string   // the pipeline in words
	memoryGoal  bool     // the case of target 4 (memory)
	// fitsInProcess: also time the fits of the folds in-process (an
	// all-numeric case standardised per fold, see e2eFolds).
	fitsInProcess bool
	// model is the learner and reduction of both sides, a MODEL of
	// sklearn_e2e.py ("": logreg_ova); models declares them in the
	// experiment file.
	model string
	// goal is the target the case measures (0: target 5).
	goal int
	// generated: the data file is made by sklearn_e2e.py's
	// make_classification, not read from the data directory.
	generated bool
}

// e2eModels are the learner and reduction blocks of an experiment, by the
// model of sklearn_e2e.py they compare with.
var e2eModels = map[string]string{
	"":            "learner \"logreg\" { params = { C = 1 } }\nreduction \"ova\" { scheme = \"ova\" }\n",
	"knn":         "learner \"knn\" {}\nreduction \"none\" { scheme = \"none\" }\n",
	"naive_bayes": "learner \"naive_bayes\" {}\nreduction \"none\" { scheme = \"none\" }\n",
	"logreg_ovo":  "learner \"logreg\" { params = { C = 1 } }\nreduction \"ovo\" { scheme = \"ovo\" }\n",
}

// e2eCases are the comparisons of target 5.
func e2eCases() []e2eCase {
	return []e2eCase{
		{name: "letter", file: "letter.csv", folds: 10, steps: []string{"std"},
			describe: "standardize → logreg C = 1 + ova, 10 folds", fitsInProcess: true},
		{name: "diabetes130", file: "diabetes130.csv.gz", folds: 5,
			categorical: []string{"admission_type_id", "discharge_disposition_id", "admission_source_id"},
			steps:       []string{"impute", "std", "onehot"},
			describe:    "impute → standardize → one-hot, logreg C = 1 + ova, 5 folds", memoryGoal: true},
		{name: "covertype_knn", file: "covertype_50k.csv.gz", folds: 10, categorical: []string{"soil_type"},
			steps: []string{"std", "onehot"}, model: "knn", goal: learnerGoal,
			describe: "standardize → one-hot, knn (k = 5), 10 folds"},
		{name: "covertype_nb", file: "covertype_50k.csv.gz", folds: 10, categorical: []string{"soil_type"},
			steps: []string{"std", "onehot"}, model: "naive_bayes", goal: learnerGoal,
			describe: "standardize → one-hot, Gaussian naive Bayes, 10 folds"},
		{name: "classes200", file: "classes200.csv", folds: 3, generated: true,
			steps: []string{"std"}, model: "logreg_ovo", goal: manyClassGoal,
			describe: "20,000 × 50, 200 classes (make_classification), standardize → logreg C = 1 + ovo (19,900 problems), 3 folds"},
	}
}

// learnerGoal and manyClassGoal number the targets of the native learners
// against scikit-learn's and of one-vs-one on many classes.
const (
	learnerGoal   = 9
	manyClassGoal = 10
)

// e2eEncoders declares the encoders an e2e or scaling experiment may use.
var e2eEncoders = map[string]string{
	"impute": `encoder "impute" { type = "impute" }`,
	"std":    `encoder "std" { type = "standardize" }`,
	"onehot": `encoder "onehot" { type = "onehot" }`,
}

// e2eExperiment returns the experiment file of a comparison: one pipeline,
// the learner and reduction of model (e2eModels: logreg C = 1 + ova by
// default), accuracy, the folds of foldsFile.
func e2eExperiment(name, data, foldsFile string, categorical, steps []string, model string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "experiment %q { seed = 1 }\n\ndataset %q {\n  path       = %s\n  folds_file = %s\n", "e2e_"+name, name, strconv.Quote(data), strconv.Quote(foldsFile))
	if len(categorical) > 0 {
		q := make([]string, len(categorical))
		for i, c := range categorical {
			q[i] = strconv.Quote(c)
		}
		fmt.Fprintf(&b, "  categorical = [%s]\n", strings.Join(q, ", "))
	}
	b.WriteString("}\n\n")
	for _, s := range steps {
		b.WriteString(e2eEncoders[s] + "\n")
	}
	q := make([]string, len(steps))
	for i, s := range steps {
		q[i] = strconv.Quote(s)
	}
	fmt.Fprintf(&b, "pipeline \"p\" { steps = [%s] }\n\n", strings.Join(q, ", "))
	b.WriteString(e2eModels[model])
	b.WriteString("metrics = [\"accuracy\"]\noutput { formats = [\"csv\"] }\n")
	return b.String()
}

// openData opens a CSV file, decompressing a .gz one.
func openData(path string) (io.ReadCloser, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	if !strings.HasSuffix(path, ".gz") {
		return f, nil
	}
	z, err := gzip.NewReader(f)
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return struct {
		io.Reader
		io.Closer
	}{z, f}, nil
}

// classColumn reads the `class` column of a CSV file as class indices
// (in order of first appearance).
func classColumn(path string) ([]int, error) {
	f, err := openData(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	r := csv.NewReader(f)
	r.ReuseRecord = true
	head, err := r.Read()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	col := slices.Index(head, "class")
	if col < 0 {
		return nil, fmt.Errorf("%s: no column \"class\"", path)
	}
	ids := map[string]int{}
	var y []int
	for {
		rec, err := r.Read()
		if errors.Is(err, io.EOF) {
			return y, nil
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		id, ok := ids[rec[col]]
		if !ok {
			id = len(ids)
			ids[rec[col]] = id
		}
		y = append(y, id)
	}
}

// writeFolds writes k seeded stratified folds of a data file (framework/cv,
// seed 1) as a folds file, a `fold` column: both sides read it.
func writeFolds(data string, k int, out string) error {
	y, err := classColumn(data)
	if err != nil {
		return err
	}
	fold, err := cv.StratifiedKFold(y, k, 1)
	if err != nil {
		return fmt.Errorf("%s: %w", data, err)
	}
	var b bytes.Buffer
	b.WriteString("fold\n")
	for _, f := range fold {
		b.WriteString(strconv.Itoa(f))
		b.WriteByte('\n')
	}
	if err := os.WriteFile(out, b.Bytes(), 0o644); err != nil {
		return fmt.Errorf("writing %s: %w", out, err)
	}
	return nil
}

// sklearnE2E is what sklearn_e2e.py prints.
type sklearnE2E struct {
	Version  string  `json:"sklearn"`
	Numpy    string  `json:"numpy"`
	Load     float64 `json:"load_seconds"`
	CV       float64 `json:"cv_seconds"`
	Accuracy float64 `json:"accuracy"`
	Folds    int     `json:"folds"`
}

// peerRun is one run of the scikit-learn side.
type peerRun struct {
	wall time.Duration
	cpu  time.Duration // user + system time of python and its workers
	mem  treeMemory
	out  sklearnE2E
}

// runPeer runs the scikit-learn script as a child process, timing it and
// sampling the memory of its process tree (the joblib workers included).
func runPeer(ctx context.Context, py, script string, args ...string) (*peerRun, error) {
	cmd := exec.CommandContext(ctx, py, append([]string{script}, args...)...)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting %s: %w", py, err)
	}
	stop := sampleTree(cmd.Process.Pid, 100*time.Millisecond)
	err := cmd.Wait()
	r := &peerRun{wall: time.Since(start), mem: stop()}
	if err == nil {
		r.cpu = treeCPU(cmd.ProcessState, r.mem)
	}
	if err != nil {
		return nil, fmt.Errorf("%s %s %s: %w\n%s", py, script, strings.Join(args, " "), err, tail(errOut.String(), 20))
	}
	if err := json.Unmarshal(out.Bytes(), &r.out); err != nil {
		return nil, fmt.Errorf("%s output %q: %w", filepath.Base(script), strings.TrimSpace(out.String()), err)
	}
	return r, nil
}

// e2eResult holds the medians of one comparison.
type e2eResult struct {
	c                e2eCase
	ours, peer       time.Duration
	oursCPU, peerCPU time.Duration
	oursMem, peerMem int64
	oursAcc, peerAcc float64
	peerLoad, peerCV float64
	sklearn          string
	// fitCPU is the CPU time of the folds' fits in-process (fitFoldsCPU),
	// 0 when not measured.
	fitCPU time.Duration
}

// e2eSection runs the comparisons of target 5 (and the memory of target 4):
// bench and scikit-learn alternately, median of -long runs.
func e2eSection(ctx context.Context, o *options, w io.Writer, stderr io.Writer) error {
	const title = "End to end: `bench run -j 2` vs scikit-learn `cross_validate(n_jobs=2)`"
	if benchMissing(o, w, title) {
		return nil
	}
	py, ok := lookTool(o.python)
	if ok {
		ok = exec.CommandContext(ctx, py, "-c", "import sklearn").Run() == nil
	}
	if !ok {
		fmt.Fprintf(w, "## %s\n\nSkipped: `%s` with scikit-learn is not available (`apt-get install python3-sklearn`).\n\n", title, o.python)
		return nil
	}
	script := filepath.Join(o.tmp, "sklearn_e2e.py")
	if err := os.WriteFile(script, []byte(e2eScript), 0o644); err != nil {
		return fmt.Errorf("writing %s: %w", script, err)
	}
	var results []*e2eResult
	var skipped []string
	for _, c := range e2eCases() {
		var data string
		var err error
		if c.generated {
			data = filepath.Join(o.tmp, c.file)
			if out, err := exec.CommandContext(ctx, py, script, "make_classification", data).CombinedOutput(); err != nil {
				return fmt.Errorf("%s: making the data: %w\n%s", c.name, err, out)
			}
		} else if data, err = o.dataFile(c.file); err != nil {
			skipped = append(skipped, err.Error())
			continue
		}
		r, err := e2eRun(ctx, o, c, data, py, script, stderr)
		if err != nil {
			return fmt.Errorf("%s: %w", c.name, err)
		}
		results = append(results, r)
	}
	writeE2E(w, title, o.longRuns, results, skipped)
	for _, r := range results {
		switch r.c.goal {
		case learnerGoal:
			o.addGoal(goalResult{goal: learnerGoal, what: fmt.Sprintf("%s: `bench run -j 2` vs scikit-learn `cross_validate(n_jobs=2)` (wall, median of %d)", r.c.name, o.longRuns),
				ours: r.ours.Seconds(), peer: r.peer.Seconds(), unit: unitSeconds, target: 0.5})
			continue
		case manyClassGoal:
			o.addGoal(goalResult{goal: manyClassGoal, what: fmt.Sprintf("%s one-vs-one, `-j 2`: peak summed RSS of the process tree", r.c.name), ours: float64(r.oursMem), unit: unitBytes, target: 1e9})
			o.addGoal(goalResult{goal: manyClassGoal, what: fmt.Sprintf("%s one-vs-one: `bench run -j 2` vs scikit-learn `cross_validate(n_jobs=2)` (wall, median of %d)", r.c.name, o.longRuns),
				ours: r.ours.Seconds(), peer: r.peer.Seconds(), unit: unitSeconds, target: 0.25})
			continue
		}
		o.addGoal(goalResult{goal: 5, what: fmt.Sprintf("%s end to end: `bench run -j 2` vs scikit-learn `cross_validate(n_jobs=2)` (wall, median of %d)", r.c.name, o.longRuns),
			ours: r.ours.Seconds(), peer: r.peer.Seconds(), unit: unitSeconds, target: e2eGoal})
		if r.c.memoryGoal {
			o.addGoal(goalResult{goal: 4, what: r.c.name + " one-hot + logreg ova, 5 folds, `-j 2`: peak summed RSS of the process tree", ours: float64(r.oursMem), unit: unitBytes, target: 600e6})
			o.addGoal(goalResult{goal: 4, what: r.c.name + ": peak summed RSS, ours vs scikit-learn's (bench + plugins vs python + joblib workers)", ours: float64(r.oursMem), peer: float64(r.peerMem), unit: unitBytes, target: 0.5})
		}
	}
	return nil
}

// e2eRun times one comparison, the two sides alternately.
func e2eRun(ctx context.Context, o *options, c e2eCase, data, py, script string, stderr io.Writer) (*e2eResult, error) {
	folds := filepath.Join(o.tmp, c.name+".e2e.folds.csv")
	if err := writeFolds(data, c.folds, folds); err != nil {
		return nil, err
	}
	file := filepath.Join(o.tmp, c.name+".e2e.hcl")
	if err := os.WriteFile(file, []byte(e2eExperiment(c.name, data, folds, c.categorical, c.steps, c.model)), 0o644); err != nil {
		return nil, fmt.Errorf("writing %s: %w", file, err)
	}
	res := &e2eResult{c: c}
	var fits []foldFit
	if c.fitsInProcess {
		var err error
		if fits, err = e2eFolds(data, c.folds); err != nil {
			return nil, err
		}
	}
	var ours, peer, oursCPU, peerCPU, fitCPU []time.Duration
	var oursMem, peerMem []int64
	var loads, cvs []float64
	for i := range o.longRuns {
		fmt.Fprintf(stderr, "peerbench: e2e %s, run %d of %d: bench\n", c.name, i+1, o.longRuns)
		b, err := runBench(ctx, o, file, filepath.Join(o.tmp, fmt.Sprintf("e2e_%s_%d", c.name, i)), stderr)
		if err != nil {
			return nil, err
		}
		ours, oursMem, oursCPU = append(ours, b.wall), append(oursMem, b.mem.peakSum), append(oursCPU, b.cpu)
		for _, row := range b.rows {
			if row.metric == "accuracy" {
				res.oursAcc = row.mean
			}
		}
		fmt.Fprintf(stderr, "peerbench: e2e %s, run %d of %d: scikit-learn (%s)\n", c.name, i+1, o.longRuns, fmtDur(b.wall))
		model := c.model
		if model == "" {
			model = "logreg_ova"
		}
		p, err := runPeer(ctx, py, script, data, folds, strings.Join(c.categorical, ","), model)
		if err != nil {
			return nil, err
		}
		fmt.Fprintf(stderr, "peerbench: e2e %s: scikit-learn %s\n", c.name, fmtDur(p.wall))
		peer, peerMem, peerCPU = append(peer, p.wall), append(peerMem, p.mem.peakSum), append(peerCPU, p.cpu)
		loads, cvs = append(loads, p.out.Load), append(cvs, p.out.CV)
		res.peerAcc, res.sklearn = p.out.Accuracy, p.out.Version+", numpy "+p.out.Numpy
		if fits != nil {
			fmt.Fprintf(stderr, "peerbench: e2e %s, run %d of %d: the folds' fits in-process\n", c.name, i+1, o.longRuns)
			cpu, err := fitFoldsCPU(ctx, fits, benchJobs)
			if err != nil {
				return nil, fmt.Errorf("fitting the folds in-process: %w", err)
			}
			fitCPU = append(fitCPU, cpu)
		}
	}
	if len(fitCPU) > 0 {
		res.fitCPU = median(fitCPU)
	}
	res.ours, res.peer = median(ours), median(peer)
	res.oursCPU, res.peerCPU = median(oursCPU), median(peerCPU)
	res.oursMem, res.peerMem = median(oursMem), median(peerMem)
	res.peerLoad, res.peerCV = median(loads), median(cvs)
	return res, nil
}

// writeE2E prints the comparison table.
func writeE2E(w io.Writer, title string, runs int, results []*e2eResult, skipped []string) {
	fmt.Fprintf(w, "## %s\n\n", title)
	fmt.Fprintf(w, "Targets 5, 4 (memory), 9 (knn, naive Bayes) and 10 (one-vs-one on 200 classes). Both sides read the same data file and the same folds file (stratified, written by peerbench), and run the same pipeline and learner; "+
		"scikit-learn as its users would run it on 2 cores: `cross_validate(make_pipeline(...), cv=PredefinedSplit(folds), n_jobs=2)`, with `LogisticRegression(solver='lbfgs', multi_class='ovr', max_iter=1000)` against logreg + ova, `KNeighborsClassifier()` against knn, `GaussianNB()` against naive_bayes (the one-hot columns dense for both: scikit-learn's faster path), `OneVsOneClassifier(LogisticRegression(solver='liblinear'))` against logreg + ovo (`tools/peerbench/sklearn_e2e.py`). "+
		"Wall time of the whole process (start-up and reading the data included), the two sides run alternately, median of %d; CPU is user + system time of the whole process tree (the larger of `wait4`'s figure and the per-process times sampled from `/proc`, which see the joblib workers too), less sensitive to a loaded machine; memory is the peak of the summed `VmRSS` of the process tree (bench and its plugins; python and its joblib workers), sampled every 100 ms, median over the runs.\n\n", runs)
	if len(results) > 0 {
		fmt.Fprintf(w, "| data, pipeline | ours wall | scikit-learn wall (load + `cross_validate`) | ratio | ours CPU | scikit-learn CPU | ratio | ours peak RSS | scikit-learn peak RSS | ratio | accuracy ours / scikit-learn |\n| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |\n")
		for _, r := range results {
			fmt.Fprintf(w, "| %s: %s | %s | %s (%s + %s) | **%s** | %s | %s | %s | %s | %s | %s | %.4f / %.4f |\n", r.c.name, r.c.describe, fmtDur(r.ours), fmtDur(r.peer), fmtSeconds(r.peerLoad), fmtSeconds(r.peerCV),
				ratio(r.ours, r.peer), fmtDur(r.oursCPU), fmtDur(r.peerCPU), ratio(r.oursCPU, r.peerCPU), fmtBytes(r.oursMem), fmtBytes(r.peerMem), ratioInt(r.oursMem, r.peerMem), r.oursAcc, r.peerAcc)
		}
		fmt.Fprintf(w, "\nscikit-learn %s. ", results[0].sklearn)
		fmt.Fprintf(w, "Summed RSS counts pages shared between processes once per process, on both sides. Accuracies of the logistic regressions differ slightly: the stopping rules of the solvers differ.\n\n")
		writeE2EFloor(w, results, runtime.NumCPU())
		writeE2EFits(w, results, runs)
	}
	for _, s := range skipped {
		fmt.Fprintf(w, "Skipped: %s.\n\n", s)
	}
}

// ratioInt prints a/b, or "–" when either is not positive.
func ratioInt(a, b int64) string {
	if a <= 0 || b <= 0 {
		return "–"
	}
	return fmt.Sprintf("%.2f", float64(a)/float64(b))
}

// e2eGoal is target 5's bound on the ratio of the wall times.
const e2eGoal = 0.2

// benchJobs is the -j of peerbench's bench runs: the folds bench runs at
// once.
const benchJobs = 2

// writeE2EFits prints, for each comparison whose fits were timed
// in-process, their share of bench's CPU time and what is left for the
// rest of the run.
func writeE2EFits(w io.Writer, results []*e2eResult, runs int) {
	for _, r := range results {
		if r.fitCPU <= 0 || r.oursCPU <= 0 {
			continue
		}
		fmt.Fprintf(w, "Where %s's CPU time goes: fitting its %d folds in this process as the logreg plugin fits them (its learner's `FitBatchParallel`, a fold's one-vs-rest problems as one batch, trust-region Newton, C = 1, the plugin's default tol 10⁻⁴, each fold on %s, its share of the %d CPUs, %d folds at a time as `-j %d` runs them, the folds standardised as bench standardises them; median of %d) takes **%s** of CPU, %.0f %% of bench's %s; "+
			"the rest of the run (reading the file, encoding, uploads, predictions, decoding, metrics, gRPC and three processes) takes %s.\n\n",
			r.c.name, r.c.folds, goroutines(foldShare(benchJobs)), runtime.GOMAXPROCS(0), benchJobs, benchJobs, runs, fmtDur(r.fitCPU), 100*r.fitCPU.Seconds()/r.oursCPU.Seconds(), fmtDur(r.oursCPU), fmtDur(max(r.oursCPU-r.fitCPU, 0)))
	}
}

// goroutines says "1 goroutine", "2 goroutines".
func goroutines(n int) string {
	if n == 1 {
		return "1 goroutine"
	}
	return fmt.Sprintf("%d goroutines", n)
}

// writeE2EFloor prints, for each comparison, the wall time that bench's
// CPU time allows on the machine's cores (every core busy from start to
// end) and the CPU time that target 5's ratio would need.
func writeE2EFloor(w io.Writer, results []*e2eResult, cores int) {
	if cores < 1 {
		return
	}
	var parts []string
	for _, r := range results {
		if r.peer <= 0 {
			continue
		}
		floor := r.oursCPU / time.Duration(cores)
		need := time.Duration(e2eGoal * float64(cores) * float64(r.peer))
		parts = append(parts, fmt.Sprintf("%s: bench's CPU time %s on %d cores takes at least %s of wall (%s× scikit-learn's), and a ratio of %.2f needs at most %s of CPU",
			r.c.name, fmtDur(r.oursCPU), cores, fmtDur(floor), ratio(floor, r.peer), e2eGoal, fmtDur(need)))
	}
	if len(parts) == 0 {
		return
	}
	fmt.Fprintf(w, "What the CPU time allows: %s.\n\n", strings.Join(parts, "; "))
}
