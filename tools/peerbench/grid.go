package main

import (
	"bytes"
	"context"
	"encoding/csv"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/polyclass/polyclass/framework/data"
	"github.com/polyclass/polyclass/framework/encode"
)

// hclDataDefault is the data directory the files in experiments/bench name,
// relative to themselves: ROOT/../shared/data.
const hclDataDefault = `default = "../../../shared/data"`

// benchRun is one `bench run` child process.
type benchRun struct {
	wall    time.Duration
	cpu     time.Duration // user + system time of bench and its plugins
	summary string        // the "NAME: N cells (F failed) in D" line
	rows    []summaryRow
	mem     treeMemory
}

// summaryRow is one row of summary.csv.
type summaryRow struct {
	dataset, encoder, learner, params, reduction, metric string
	mean, std                                            float64
	folds                                                int
}

// experimentFile returns the experiment file to run for
// experiments/bench/NAME given where its data file was found: the file
// itself when the data is in ../shared/data, where the file points, else a
// copy in the temporary directory pointing at the data's directory.
func experimentFile(o *options, name, dataFile string) (string, error) {
	file := filepath.Join(o.root, "experiments", "bench", name)
	dir := filepath.Dir(dataFile)
	if dir == o.sharedDataDir() {
		return file, nil
	}
	b, err := os.ReadFile(file)
	if err != nil {
		return "", fmt.Errorf("reading the experiment file: %w", err)
	}
	if !bytes.Contains(b, []byte(hclDataDefault)) {
		return "", fmt.Errorf("%s: no `variable \"data\" { %s }` to point at %s", file, hclDataDefault, dir)
	}
	b = bytes.Replace(b, []byte(hclDataDefault), []byte("default = "+strconv.Quote(dir)), 1)
	out := filepath.Join(o.tmp, name)
	if err := os.WriteFile(out, b, 0o644); err != nil {
		return "", fmt.Errorf("writing %s: %w", out, err)
	}
	return out, nil
}

// runBench runs `bench run --quiet -j 2 -o DIR FILE` (-j benchJobs) as a
// child process, timing it and sampling the memory of its process tree.
func runBench(ctx context.Context, o *options, file, outDir string, stderr io.Writer, flags ...string) (*benchRun, error) {
	return runBenchAs(ctx, o, benchCommand{jobs: benchJobs}, file, outDir, stderr, flags...)
}

// benchCommand says how a timed `bench run` starts: its -j, and the CPUs
// taskset pins it (and so every plugin process it starts) to.
type benchCommand struct {
	jobs    int
	taskset string // taskset binary; "" = not pinned
	cpus    string // taskset -c CPUS
}

// argv returns the command line of a bench run of file into outDir.
func (c benchCommand) argv(bench, file, outDir string, flags []string) []string {
	var argv []string
	if c.taskset != "" {
		argv = []string{c.taskset, "-c", c.cpus}
	}
	argv = append(argv, bench, "run", "--quiet", "-j", strconv.Itoa(c.jobs))
	return append(append(argv, flags...), "-o", outDir, file)
}

// runBenchAs runs bench as c says (see runBench).
func runBenchAs(ctx context.Context, o *options, c benchCommand, file, outDir string, stderr io.Writer, flags ...string) (*benchRun, error) {
	argv := c.argv(o.bench, file, outDir, flags)
	name, args := argv[0], argv[1:]
	fmt.Fprintf(stderr, "peerbench: %s\n", strings.Join(argv, " "))
	cmd := exec.CommandContext(ctx, name, args...)
	var out, errOut bytes.Buffer
	cmd.Stdout = &out
	cmd.Stderr = &errOut
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting %s: %w", name, err)
	}
	stop := sampleTree(cmd.Process.Pid, 100*time.Millisecond)
	err := cmd.Wait()
	wall := time.Since(start)
	mem := stop()
	if err != nil {
		return nil, fmt.Errorf("%s: %w\n%s%s", strings.Join(argv, " "), err, out.Bytes(), tail(errOut.String(), 20))
	}
	mem.maxrss = maxRSS(cmd.ProcessState)
	r := &benchRun{wall: wall, mem: mem, cpu: treeCPU(cmd.ProcessState, mem)}
	r.summary, _, _ = strings.Cut(out.String(), "\n")
	f, err := os.Open(filepath.Join(outDir, "summary.csv"))
	if err != nil {
		return nil, fmt.Errorf("reading the results: %w", err)
	}
	defer f.Close()
	if r.rows, err = parseSummary(f); err != nil {
		return nil, fmt.Errorf("%s: %w", f.Name(), err)
	}
	return r, nil
}

// treeCPU is the CPU time of a finished process tree: what wait4 reports
// (the root and the children it reaped) or the sum sampled from /proc
// (which also sees descendants nobody reaped), whichever is larger.
func treeCPU(ps *os.ProcessState, mem treeMemory) time.Duration {
	return max(ps.UserTime()+ps.SystemTime(), mem.sampledCPU())
}

// tail returns the last n lines of s.
func tail(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

// parseSummary reads a summary.csv written by bench run: its second
// column is the cell's pipeline, named pipeline (encoder by a bench
// before it was renamed, also read).
func parseSummary(r io.Reader) ([]summaryRow, error) {
	recs, err := csv.NewReader(r).ReadAll()
	if err != nil {
		return nil, err
	}
	want := []string{"dataset", "pipeline", "learner", "params", "reduction", "metric", "mean", "std", "n_folds"}
	old := slices.Clone(want)
	old[1] = "encoder"
	if len(recs) == 0 || (!slices.Equal(recs[0], want) && !slices.Equal(recs[0], old)) {
		return nil, fmt.Errorf("unexpected header, want %s", strings.Join(want, ","))
	}
	var rows []summaryRow
	for i, rec := range recs[1:] {
		row := summaryRow{dataset: rec[0], encoder: rec[1], learner: rec[2], params: rec[3], reduction: rec[4], metric: rec[5]}
		var e1, e2, e3 error
		row.mean, e1 = strconv.ParseFloat(rec[6], 64)
		if rec[7] != "" {
			row.std, e2 = strconv.ParseFloat(rec[7], 64)
		}
		row.folds, e3 = strconv.Atoi(rec[8])
		if e1 != nil || e2 != nil || e3 != nil {
			return nil, fmt.Errorf("line %d: bad number in %q", i+2, rec)
		}
		rows = append(rows, row)
	}
	return rows, nil
}

// cellKey identifies a cell of the summary.
type cellKey struct{ dataset, encoder, learner, params, reduction string }

// writeCells prints one Markdown row per cell with the given metrics.
func writeCells(w io.Writer, rows []summaryRow, metrics []string) {
	var keys []cellKey
	vals := map[cellKey]map[string]summaryRow{}
	for _, r := range rows {
		k := cellKey{r.dataset, r.encoder, r.learner, r.params, r.reduction}
		if vals[k] == nil {
			vals[k] = map[string]summaryRow{}
			keys = append(keys, k)
		}
		vals[k][r.metric] = r
	}
	fmt.Fprintf(w, "| dataset | encoding | learner | params | reduction | folds |")
	for _, m := range metrics {
		fmt.Fprintf(w, " %s |", m)
	}
	fmt.Fprintf(w, "\n| --- | --- | --- | --- | --- | ---: |%s\n", strings.Repeat(" ---: |", len(metrics)))
	for _, k := range keys {
		folds := 0
		for _, r := range vals[k] {
			folds = r.folds
		}
		fmt.Fprintf(w, "| %s | %s | %s | %s | %s | %d |", k.dataset, k.encoder, k.learner, k.params, k.reduction, folds)
		for _, m := range metrics {
			r, ok := vals[k][m]
			switch {
			case !ok:
				fmt.Fprintf(w, " – |")
			case m == "fit_seconds" || m == "predict_seconds":
				fmt.Fprintf(w, " %.2f s ± %.2f |", r.mean, r.std)
			default:
				fmt.Fprintf(w, " %.4f ± %.4f |", r.mean, r.std)
			}
		}
		fmt.Fprintln(w)
	}
}

// benchMissing reports whether bin/bench is missing, saying so in the
// report.
func benchMissing(o *options, w io.Writer, title string) bool {
	if _, err := os.Stat(o.bench); err != nil {
		fmt.Fprintf(w, "## %s\n\nSkipped: `%s` not found — run `make build` first.\n\n", title, o.bench)
		return true
	}
	return false
}

// sectionInput returns the path of the data file a section of bin/bench
// runs needs, or "" after writing why the section is skipped (no bin/bench,
// or no such file).
func sectionInput(o *options, w io.Writer, title, name string) string {
	if benchMissing(o, w, title) {
		return ""
	}
	path, err := o.dataFile(name)
	if err != nil {
		fmt.Fprintf(w, "## %s\n\nSkipped: %v.\n\n", title, err)
		return ""
	}
	return path
}

// gridSection runs experiments/bench/letter.hcl through the plugins.
func gridSection(ctx context.Context, o *options, w io.Writer, stderr io.Writer) error {
	const title = "letter: the whole grid through the plugins"
	dataFile := sectionInput(o, w, title, "letter.csv")
	if dataFile == "" {
		return nil
	}
	file, err := experimentFile(o, "letter.hcl", dataFile)
	if err != nil {
		return err
	}
	r, err := runBench(ctx, o, file, filepath.Join(o.tmp, "grid_letter"), stderr)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "## %s\n\n", title)
	fmt.Fprintf(w, "`bin/bench run --quiet -j 2 experiments/bench/letter.hcl` (standardize, C = 1, one-vs-all, 10-fold stratified CV; the plugin processes, uploads, encoding per fold, prediction and metrics included): **%s wall** (bench: `%s`).\n\n", fmtDur(r.wall), r.summary)
	writeCells(w, r.rows, []string{"accuracy", "fit_seconds"})
	fmt.Fprintf(w, "\n`fit_seconds` is the mean ± std over folds of the time to fit the 26 problems of one fold inside the plugin, which trains a batch in parallel over the fold's share of the CPUs: two folds run at once (`-j 2`), so on 2 CPUs each on one (a fold that starts with no other left to run beside it, on both).\n\n")
	return nil
}

// diabetesSection runs experiments/bench/diabetes130.hcl and reports time
// and memory.
func diabetesSection(ctx context.Context, o *options, w io.Writer, stderr io.Writer) error {
	const title = "diabetes130: one-hot vs hashing, time and memory"
	dataFile, err := o.dataFile("diabetes130.csv.gz")
	if err != nil {
		fmt.Fprintf(w, "## %s\n\nSkipped: %v.\n\n", title, err)
		return nil
	}
	if benchMissing(o, w, title) {
		return nil
	}
	file, err := experimentFile(o, "diabetes130.hcl", dataFile)
	if err != nil {
		return err
	}
	r, err := runBench(ctx, o, file, filepath.Join(o.tmp, "grid_diabetes130"), stderr)
	if err != nil {
		return err
	}
	fmt.Fprintf(stderr, "peerbench: diabetes130: encoding in-process for the design sizes\n")
	sizes, err := diabetesDesigns(dataFile)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "## %s\n\n", title)
	fmt.Fprintf(w, "`bin/bench run --quiet -j 2 experiments/bench/diabetes130.hcl` (impute → standardize → onehot or hash with 1024 buckets, logreg C = 1 + ova, 5-fold stratified CV): **%s wall** (bench: `%s`).\n\n", fmtDur(r.wall), r.summary)
	writeCells(w, r.rows, []string{"accuracy", "macro_f1", "fit_seconds"})
	fmt.Fprintf(w, "\n| peak memory | |\n| --- | ---: |\n")
	fmt.Fprintf(w, "| largest single process of the run (kernel `ru_maxrss` of `bench`, which includes its reaped plugin processes) | %s |\n", fmtBytes(r.mem.maxrss))
	fmt.Fprintf(w, "| `bench` itself (its `VmHWM`, last sample) | %s |\n", fmtBytes(r.mem.rootHWM))
	fmt.Fprintf(w, "| largest plugin process (`VmHWM`) | %s |\n", fmtBytes(r.mem.childHWM))
	fmt.Fprintf(w, "| all processes together (peak of the summed `VmRSS`, sampled every 100 ms) | %s |\n", fmtBytes(r.mem.peakSum))
	fmt.Fprintf(w, "\n| design matrix (all %d rows, encoders fitted on all of them) | features | non-zeros | CSR size | dense float64 size |\n| --- | ---: | ---: | ---: | ---: |\n", sizes[0].rows)
	for _, s := range sizes {
		fmt.Fprintf(w, "| %s | %d | %d | %s | %s |\n", s.name, s.cols, s.nnz, fmtBytes(s.csrBytes), fmtBytes(s.denseBytes))
	}
	fmt.Fprintf(w, "\nEach fold's training part is 4/5 of these rows; every matrix travels to the plugin once per fold, in CSR form. ")
	fmt.Fprintf(w, "`ru_maxrss` is exact but is the maximum over processes, not their sum; the `VmHWM`/`VmRSS` figures come from sampling `/proc` (Linux) and may miss short peaks.\n\n")
	return nil
}

// designSize describes an encoded design matrix.
type designSize struct {
	name                 string
	rows, cols, nnz      int
	csrBytes, denseBytes int64
}

// diabetesDesigns encodes diabetes130 as the experiment does (fitted on all
// rows) with one-hot and with hashing and returns the sizes.
func diabetesDesigns(path string) ([]designSize, error) {
	t, err := data.ReadCSV(path, data.Options{Categorical: []string{"admission_type_id", "discharge_disposition_id", "admission_source_id"}})
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", path, err)
	}
	cls, ok := t.Lookup("class")
	if !ok || cls.Kind != data.Categorical {
		return nil, fmt.Errorf("%s: no categorical column \"class\"", path)
	}
	labels := make([]int, t.NumRows)
	train := make([]int, t.NumRows)
	for i, c := range cls.Codes {
		labels[i], train[i] = int(c), i
	}
	ctx := &encode.Context{Train: train, Labels: labels, K: len(cls.Levels), Seed: 1}
	pipelines := []struct {
		name  string
		steps []encode.Step
	}{
		{"onehot", []encode.Step{&encode.Impute{}, &encode.Standardize{}, &encode.OneHot{}}},
		{"hash (1024 buckets)", []encode.Step{&encode.Impute{}, &encode.Standardize{}, &encode.Hash{Buckets: 1024}}},
	}
	var out []designSize
	for _, p := range pipelines {
		f := encode.NewFrame(t, map[string]bool{"class": true})
		for i, s := range p.steps {
			ctx.Last = i == len(p.steps)-1
			if f, err = s.FitTransform(f, ctx); err != nil {
				return nil, fmt.Errorf("encoding %s: %w", p.name, err)
			}
		}
		m, _, err := f.Design()
		if err != nil {
			return nil, fmt.Errorf("encoding %s: %w", p.name, err)
		}
		r, c := m.Dims()
		s := designSize{name: p.name, rows: r, cols: c, denseBytes: int64(r) * int64(c) * 8}
		if m.CSR != nil {
			s.nnz = m.CSR.NNZ()
			s.csrBytes = int64(len(m.CSR.Values))*8 + int64(len(m.CSR.Indices))*4 + int64(len(m.CSR.Indptr))*8
		} else {
			s.nnz = r * c
			s.csrBytes = s.denseBytes
		}
		out = append(out, s)
	}
	return out, nil
}

// fmtBytes prints a byte count in MB (10⁶ bytes) or kB.
func fmtBytes(b int64) string {
	switch {
	case b <= 0:
		return "–"
	case b >= 1e9:
		return fmt.Sprintf("%.2f GB", float64(b)/1e9)
	case b >= 1e6:
		return fmt.Sprintf("%.0f MB", float64(b)/1e6)
	default:
		return fmt.Sprintf("%.0f kB", float64(b)/1e3)
	}
}
