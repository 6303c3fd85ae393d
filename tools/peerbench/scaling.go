package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/polyclass/polyclass/framework/data"
	"github.com/polyclass/polyclass/framework/encode"
	"github.com/polyclass/polyclass/framework/matrix"
	"github.com/polyclass/polyclass/framework/param"
)

// scalingExperiment is the experiment of target 6: covertype resampled to
// ROWS rows, standardized numeric columns, one-hot of wilderness_area and
// soil_type (integer ELU codes), logreg (C = 1) + ova, 5 stratified folds.
const scalingExperiment = `experiment "scaling_%[1]d" { seed = 1 }

dataset "covertype_%[1]d" {
  path        = %[2]s
  categorical = ["soil_type"]
}

encoder "std" { type = "standardize" }
encoder "onehot" { type = "onehot" }
pipeline "std_onehot" { steps = ["std", "onehot"] }

learner "logreg" { params = { C = 1 } }
reduction "ova" { scheme = "ova" }

cv {
  folds      = 5
  stratified = true
}

metrics = ["accuracy", "fit_seconds"]
output { formats = ["csv"] }
`

// resample writes n rows drawn with replacement (seeded by n) from the
// rows of a CSV file, after its header line.
func resample(src, dst string, n int) error {
	f, err := openData(src)
	if err != nil {
		return err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 1<<16), 1<<24)
	var lines []string
	for sc.Scan() {
		lines = append(lines, sc.Text())
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("reading %s: %w", src, err)
	}
	if len(lines) < 2 {
		return fmt.Errorf("%s: no data rows", src)
	}
	head, rows := lines[0], lines[1:]
	rng := rand.New(rand.NewPCG(1, uint64(n)))
	return writeFile(dst, func(w io.Writer) error {
		bw := bufio.NewWriter(w)
		bw.WriteString(head + "\n")
		for range n {
			bw.WriteString(rows[rng.IntN(len(rows))])
			bw.WriteByte('\n')
		}
		return bw.Flush()
	})
}

// scalingPoint is the median measurement at one size.
type scalingPoint struct {
	rows int
	wall time.Duration
	cpu  time.Duration
	mem  int64
	acc  float64
	fit  float64 // mean seconds to fit the 7 problems of one fold, in the plugin
}

// scalingSection runs target 6: the covertype experiment at each -scaling
// size, the sizes in turn within each of -scaling-runs rounds.
func scalingSection(ctx context.Context, o *options, w io.Writer, stderr io.Writer) error {
	const title = "Linear scaling: covertype resampled to growing sizes"
	src := sectionInput(o, w, title, "covertype_50k.csv.gz")
	if src == "" {
		return nil
	}
	files := make([]string, len(o.scaling))
	for i, n := range o.scaling {
		data := filepath.Join(o.tmp, fmt.Sprintf("covertype_%d.csv", n))
		fmt.Fprintf(stderr, "peerbench: scaling: writing %s\n", data)
		if err := resample(src, data, n); err != nil {
			return err
		}
		files[i] = filepath.Join(o.tmp, fmt.Sprintf("scaling_%d.hcl", n))
		if err := os.WriteFile(files[i], fmt.Appendf(nil, scalingExperiment, n, strconv.Quote(data)), 0o644); err != nil {
			return fmt.Errorf("writing %s: %w", files[i], err)
		}
	}
	walls := make([][]time.Duration, len(o.scaling))
	cpus := make([][]time.Duration, len(o.scaling))
	mems := make([][]int64, len(o.scaling))
	points := make([]scalingPoint, len(o.scaling))
	for run := range o.scaleRuns {
		for i, n := range o.scaling {
			fmt.Fprintf(stderr, "peerbench: scaling: %d rows, run %d of %d\n", n, run+1, o.scaleRuns)
			r, err := runBench(ctx, o, files[i], filepath.Join(o.tmp, fmt.Sprintf("scaling_%d_%d", n, run)), stderr)
			if err != nil {
				return fmt.Errorf("%d rows: %w", n, err)
			}
			walls[i], mems[i], cpus[i] = append(walls[i], r.wall), append(mems[i], r.mem.peakSum), append(cpus[i], r.cpu)
			for _, row := range r.rows {
				switch row.metric {
				case "accuracy":
					points[i].acc = row.mean
				case "fit_seconds":
					points[i].fit = row.mean
				}
			}
		}
	}
	for i, n := range o.scaling {
		points[i].rows, points[i].wall, points[i].mem = n, median(walls[i]), median(mems[i])
		points[i].cpu = median(cpus[i])
	}
	writeScaling(w, title, filepath.Base(src), o.scaleRuns, points)
	data := make([]string, len(o.scaling))
	for i, n := range o.scaling {
		data[i] = filepath.Join(o.tmp, fmt.Sprintf("covertype_%d.csv", n))
	}
	solvers, err := solverScaling(ctx, o, data, stderr)
	if err != nil {
		return err
	}
	writeSolverScaling(w, solvers)
	writeScalingBudget(w, points, solvers)
	if len(points) >= 2 {
		first, last := points[0], points[len(points)-1]
		rows := float64(last.rows) / float64(first.rows)
		o.addGoal(goalResult{goal: 6, what: fmt.Sprintf("covertype %s vs %s rows: wall time", kRows(last.rows), kRows(first.rows)),
			ours: last.wall.Seconds(), peer: first.wall.Seconds(), unit: unitSeconds, target: scalingBound(rows)})
		o.addGoal(goalResult{goal: 6, what: fmt.Sprintf("covertype %s vs %s rows: peak summed RSS (at most linear)", kRows(last.rows), kRows(first.rows)),
			ours: float64(last.mem), peer: float64(first.mem), unit: unitBytes, target: rows})
	}
	return nil
}

// writeScaling prints the table of target 6.
func writeScaling(w io.Writer, title, src string, runs int, points []scalingPoint) {
	fmt.Fprintf(w, "## %s\n\n", title)
	fmt.Fprintf(w, "Target 6. `%s` (50 000 rows, 10 numeric columns, `wilderness_area` and `soil_type` categorical, 7 classes) resampled with replacement (seeded) to each size; "+
		"`bin/bench run -j 2`: standardize → one-hot of the two categorical columns, logreg C = 1 + ova, 5 stratified folds. "+
		"Wall time of the whole run, median of %d (the sizes in turn in each round); CPU is the user + system time of bench and its plugins; peak of the summed `VmRSS` of bench and its plugins. Ratios are against the smallest size; \"fit per fold\" is bench's `fit_seconds`, the mean time to fit one fold's problems inside the plugin.\n\n", src, runs)
	fmt.Fprintf(w, "| rows | wall | time per row | CPU (user + sys) | CPU per row | peak RSS | RSS per row | time ratio | CPU ratio | memory ratio | rows ratio | fit per fold | accuracy |\n| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n")
	for _, p := range points {
		first := points[0]
		fmt.Fprintf(w, "| %d | %s | %.1f µs | %s | %.1f µs | %s | %.0f B | %s | %s | %s | %.0f | %s | %.4f |\n", p.rows, fmtDur(p.wall), p.wall.Seconds()*1e6/float64(p.rows),
			fmtDur(p.cpu), p.cpu.Seconds()*1e6/float64(p.rows), fmtBytes(p.mem), float64(p.mem)/float64(p.rows),
			ratio(p.wall, first.wall), ratio(p.cpu, first.cpu), ratioInt(p.mem, first.mem), float64(p.rows)/float64(first.rows), fmtSeconds(p.fit), p.acc)
	}
	fmt.Fprintln(w)
}

// kRows prints a row count as "25k".
func kRows(n int) string {
	if n%1000 == 0 {
		return strconv.Itoa(n/1000) + "k"
	}
	return strconv.Itoa(n)
}

// parseSizes reads a comma-separated list of row counts.
func parseSizes(s string) ([]int, error) {
	var out []int
	for _, f := range strings.Split(s, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 10 {
			return nil, fmt.Errorf("bad row count %q in -scaling (want numbers ≥ 10)", f)
		}
		out = append(out, n)
	}
	return out, nil
}

// scalingTol is the stopping tolerance of the solver-level evidence: the
// logreg learner's default tol, which the scaling experiment runs with
// (LIBLINEAR's -e 0.0001).
const scalingTol = 1e-4

// scalingSolver is the solver-level evidence of target 6 at one size: the
// 7 one-vs-rest problems of the resampled data, encoded once over all rows
// (standardize, one-hot), fitted in this process by the logreg learner and
// by `liblinear-train -s 0` on the same design.
type scalingSolver struct {
	rows     int
	ours     time.Duration // the 7 fits on one goroutine
	perRow   float64       // ns per problem and row, ours
	llIters  float64       // Newton steps tried per problem, LIBLINEAR
	llCG     float64       // CG steps (Hessian products) per problem, LIBLINEAR
	llTrain  time.Duration // raw − reading time (-e 1e9)
	llPerRow float64       // ns per problem and row, LIBLINEAR's training
	haveLL   bool
	d, nnzPR int  // columns, nonzeros per row
	csr      bool // the design is CSR (else dense), as bench gives it
}

// encodeCovertype reads a covertype CSV and returns its design as the
// scaling experiment encodes it (soil_type categorical; standardize, then
// one-hot; fitted on all rows), dense or CSR as bench gives it to the
// learner (see encode.SparseDensity), and the class index of every row.
func encodeCovertype(path string) (matrix.Matrix, []int, error) {
	t, err := data.ReadCSV(path, data.Options{Categorical: []string{"soil_type", "class"}})
	if err != nil {
		return matrix.Matrix{}, nil, fmt.Errorf("reading %s: %w", path, err)
	}
	cls, ok := t.Lookup("class")
	if !ok || cls.Kind != data.Categorical {
		return matrix.Matrix{}, nil, fmt.Errorf("%s: no categorical column \"class\"", path)
	}
	y := make([]int, t.NumRows)
	train := make([]int, t.NumRows)
	for i, c := range cls.Codes {
		y[i], train[i] = int(c), i
	}
	ctx := &encode.Context{Train: train, Labels: y, K: len(cls.Levels), Seed: 1}
	f := encode.NewFrame(t, map[string]bool{"class": true})
	steps := []encode.Step{&encode.Standardize{}, &encode.OneHot{}}
	for i, s := range steps {
		ctx.Last = i == len(steps)-1
		if f, err = s.FitTransform(f, ctx); err != nil {
			return matrix.Matrix{}, nil, fmt.Errorf("encoding %s: %w", path, err)
		}
	}
	m, _, err := f.Design()
	if err != nil {
		return matrix.Matrix{}, nil, fmt.Errorf("encoding %s: %w", path, err)
	}
	return m, y, nil
}

// oursScaling fits the one-vs-rest problems of (x, y) with the logreg
// learner (C = 1, tol scalingTol, the scaling runs' settings), one after
// the other on one goroutine, timed.
func oursScaling(ctx context.Context, x matrix.Matrix, y []int, s *scalingSolver) error {
	k := slices.Max(y) + 1
	labels := ovrLabels(y, k)
	lr := logregFitter(param.Params{"C": param.Number(1), "tol": param.Number(scalingTol)})
	start := time.Now()
	for c := range labels {
		if err := lr.fitBinary(ctx, x, labels[c], uint64(c)); err != nil {
			return fmt.Errorf("class %d: %w", c, err)
		}
	}
	s.ours = time.Since(start)
	s.perRow = float64(s.ours.Nanoseconds()) / (float64(len(labels)) * float64(s.rows))
	return nil
}

// liblinearScaling runs `liblinear-train -s 0 -c 1 -e 0.0001 -B 1` on the
// LIBSVM file of (x, y), and with -e 1e9 for the reading time, and counts
// its Newton steps and CG steps from its "iter … CG n" lines (one per step
// tried).
func liblinearScaling(ctx context.Context, ll, file string, k int, s *scalingSolver) error {
	model := file + ".model"
	raw, out, err := timeLIBLINEAR(ctx, ll, strconv.FormatFloat(scalingTol, 'f', -1, 64), file, model)
	if err != nil {
		return err
	}
	base, _, err := timeLIBLINEAR(ctx, ll, "1e9", file, model)
	if err != nil {
		return err
	}
	iters, cg := parseTRONLog(out)
	s.llIters, s.llCG = float64(iters)/float64(k), float64(cg)/float64(k)
	s.llTrain = max(raw-base, 0)
	s.llPerRow = float64(s.llTrain.Nanoseconds()) / (float64(k) * float64(s.rows))
	s.haveLL = true
	return nil
}

// timeLIBLINEAR runs liblinear-train -s 0 with eps and returns its wall
// time and output.
func timeLIBLINEAR(ctx context.Context, ll, eps, file, model string) (time.Duration, []byte, error) {
	cmd := exec.CommandContext(ctx, ll, "-s", "0", "-c", "1", "-e", eps, "-B", "1", file, model)
	start := time.Now()
	out, err := cmd.CombinedOutput()
	if err != nil {
		return 0, nil, fmt.Errorf("%s: %w\n%s", ll, err, out)
	}
	return time.Since(start), out, nil
}

// parseTRONLog adds up the Newton steps tried (the "iter" lines) and the
// CG steps ("CG n" at their end) of LIBLINEAR's TRON log.
func parseTRONLog(out []byte) (iters, cg int) {
	for line := range strings.Lines(string(out)) {
		f := strings.Fields(line)
		if len(f) < 2 || f[0] != "iter" || f[len(f)-2] != "CG" {
			continue
		}
		if n, err := strconv.Atoi(f[len(f)-1]); err == nil {
			iters, cg = iters+1, cg+n
		}
	}
	return iters, cg
}

// solverScaling measures the solver-level evidence at each size on the
// resampled files, ours and LIBLINEAR (when installed) alternately.
func solverScaling(ctx context.Context, o *options, data []string, stderr io.Writer) ([]scalingSolver, error) {
	ll, haveLL := lookTool(o.liblinear)
	out := make([]scalingSolver, len(data))
	for i, path := range data {
		fmt.Fprintf(stderr, "peerbench: scaling: solvers on %s\n", path)
		x, y, err := encodeCovertype(path)
		if err != nil {
			return nil, err
		}
		s := &out[i]
		s.rows, s.d = x.Dims()
		s.nnzPR, s.csr = nonzerosPerRow(x), x.CSR != nil
		if err := oursScaling(ctx, x, y, s); err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		if !haveLL {
			continue
		}
		file := path + ".svm"
		if err := writeFile(file, func(w io.Writer) error { return writeLIBSVM(w, x.AsDense().Dense, y) }); err != nil {
			return nil, err
		}
		if err := liblinearScaling(ctx, ll, file, slices.Max(y)+1, s); err != nil {
			return nil, err
		}
		os.Remove(file)
	}
	return out, nil
}

// nonzerosPerRow returns the nonzeros of x's first row.
func nonzerosPerRow(x matrix.Matrix) int {
	if x.CSR != nil {
		idx, _ := x.CSR.Row(0)
		return len(idx)
	}
	n := 0
	for _, v := range x.Dense.RawRowView(0) {
		if v != 0 {
			n++
		}
	}
	return n
}

// designForm says in words how bench gives the scaling design to the
// plugin.
func designForm(csr bool) string {
	if csr {
		return "a CSR matrix as bench gives the plugin, its density being under the design threshold (`encode.SparseDensity`, 0.3, scikit-learn's `sparse_threshold`)"
	}
	return "a dense matrix as bench gives the plugin, which the solver multiplies in sparse form"
}

// designOfSizes describes the designs of the sizes: once when every size
// has the same columns, nonzeros a row and form, else size by size.
func designOfSizes(ss []scalingSolver) string {
	one := func(s scalingSolver) string {
		return fmt.Sprintf("%d columns, %d nonzeros a row, %s", s.d, s.nnzPR, designForm(s.csr))
	}
	same := true
	for _, s := range ss[1:] {
		same = same && s.d == ss[0].d && s.nnzPR == ss[0].nnzPR && s.csr == ss[0].csr
	}
	if same {
		return one(ss[0])
	}
	parts := make([]string, len(ss))
	for i, s := range ss {
		parts[i] = fmt.Sprintf("%d rows: %s", s.rows, one(s))
	}
	return strings.Join(parts, "; ")
}

// writeSolverScaling prints the solver-level table of target 6.
func writeSolverScaling(w io.Writer, ss []scalingSolver) {
	if len(ss) == 0 {
		return
	}
	fmt.Fprintf(w, "Where the growth comes from: the 7 one-vs-rest problems of each resampled file, encoded once over all its rows (%s), "+
		"fitted in this process by the logreg learner (C = 1, tol 10⁻⁴ as the scaling runs, one problem after the other, one goroutine, once) and by `liblinear-train -s 0 -c 1 -e 0.0001 -B 1` (the same stopping rule; its bias is penalised) on the same design in LIBSVM format (once; training time = that run − the same with `-e 1e9`, i.e. without reading the file). "+
		"Rows drawn with replacement repeat each of the 50 000 distinct rows n/50 000 times on average, which weighs the loss like a larger C: LIBLINEAR's Newton steps and CG steps (Hessian-vector products) per problem count how much harder the problem gets. "+
		"\"per problem·row\" is the training time divided by the 7 problems and the rows: flat if the time grew as the rows alone.\n\n", designOfSizes(ss))
	fmt.Fprintf(w, "| rows | ours: 7 fits | ours per problem·row | LIBLINEAR steps / problem | LIBLINEAR CG (Hv) / problem | LIBLINEAR training | LIBLINEAR per problem·row | time ratio ours | time ratio LIBLINEAR |\n| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n")
	first := ss[0]
	for _, s := range ss {
		ll, llRatio := "– | – | – | –", "–"
		if s.haveLL {
			ll = fmt.Sprintf("%.1f | %.1f | %s | %.1f ns", s.llIters, s.llCG, fmtDur(s.llTrain), s.llPerRow)
			llRatio = ratio(s.llTrain, first.llTrain)
		}
		fmt.Fprintf(w, "| %d | %s | %.1f ns | %s | %s | %s |\n",
			s.rows, fmtDur(s.ours), s.perRow, ll, ratio(s.ours, first.ours), llRatio)
	}
	fmt.Fprintln(w)
}

// scalingBound is target 6's bound on the growth of the whole run's wall
// time for rows times the rows: 17× for 16×.
func scalingBound(rows float64) float64 { return 17 * rows / 16 }

// writeScalingBudget sets the growth of the whole run and of bench's fits
// against target 6's bound, next to the growth of the solvers' own fits in
// this process (ours and, when measured, LIBLINEAR's).
func writeScalingBudget(w io.Writer, points []scalingPoint, ss []scalingSolver) {
	if len(points) < 2 || len(ss) < 2 || points[0].fit <= 0 || ss[0].ours <= 0 {
		return
	}
	p0, p1 := points[0], points[len(points)-1]
	s0, s1 := ss[0], ss[len(ss)-1]
	rows, solverRows := float64(p1.rows)/float64(p0.rows), float64(s1.rows)/float64(s0.rows)
	fmt.Fprintf(w, "Against the bound: for %.0f× the rows the target allows the whole run %.2f×; it grew %s×, and bench's fit per fold %.1f× (%s → %s). "+
		"From %d to %d rows (%.0f×) the 7 fits in this process grew %s×",
		rows, scalingBound(rows), ratio(p1.wall, p0.wall), p1.fit/p0.fit, fmtSeconds(p0.fit), fmtSeconds(p1.fit),
		s0.rows, s1.rows, solverRows, ratio(s1.ours, s0.ours))
	if s0.haveLL && s1.haveLL {
		fmt.Fprintf(w, " and LIBLINEAR's training %s× (its CG steps per problem %.1f → %.1f)", ratio(s1.llTrain, s0.llTrain), s0.llCG, s1.llCG)
	}
	fmt.Fprintf(w, ".\n\n")
}
