package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// scalingExperiment is the experiment of goal 6: covertype resampled to
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

// scalingSection runs goal 6: the covertype experiment at each -scaling
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
		points[i].rows, points[i].wall, points[i].mem = n, median(walls[i]), medianInt(mems[i])
		points[i].cpu = median(cpus[i])
	}
	writeScaling(w, title, filepath.Base(src), o.scaleRuns, points)
	if len(points) >= 2 {
		first, last := points[0], points[len(points)-1]
		rows := float64(last.rows) / float64(first.rows)
		o.addGoal(goalResult{goal: 6, what: fmt.Sprintf("covertype %s vs %s rows: wall time", kRows(last.rows), kRows(first.rows)),
			ours: last.wall.Seconds(), peer: first.wall.Seconds(), unit: unitSeconds, target: 17 * rows / 16})
		o.addGoal(goalResult{goal: 6, what: fmt.Sprintf("covertype %s vs %s rows: peak summed RSS (at most linear)", kRows(last.rows), kRows(first.rows)),
			ours: float64(last.mem), peer: float64(first.mem), unit: unitBytes, target: rows})
	}
	return nil
}

// writeScaling prints the table of goal 6.
func writeScaling(w io.Writer, title, src string, runs int, points []scalingPoint) {
	fmt.Fprintf(w, "## %s\n\n", title)
	fmt.Fprintf(w, "Goal 6. `%s` (50 000 rows, 10 numeric columns, `wilderness_area` and `soil_type` categorical, 7 classes) resampled with replacement (seeded) to each size; "+
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
