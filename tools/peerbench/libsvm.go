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
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
)

// The kernel SVM comparison (target 8): letter's first libsvmTrain rows
// train, the rest test, features scaled to [−1, 1] with the training
// rows' minimum and maximum, RBF C = 16, γ = 4, LIBSVM's default eps and
// cache size.
const (
	libsvmTrain = 15000
	libsvmC     = 16
	libsvmGamma = 4
	libsvmEps   = 1e-3
	libsvmCache = 100 // MB
	// libsvmGoal bounds ours over LIBSVM's train + predict wall time.
	libsvmGoal = 0.8
)

// libsvmResult is the comparison's outcome, medians over the runs.
type libsvmResult struct {
	ours, oursCPU                 time.Duration
	train, predict, peer, peerCPU time.Duration
	oursAcc, peerAcc              float64
	paired                        float64 // median of the runs' wall ratios
	version                       string
}

// writeLetterLIBSVM writes letter's training and test rows in LIBSVM's
// format, scaled as svm-scale -l -1 -u 1 scales with the training rows'
// range, numbers written so that they read back exactly; classes are
// numbered by sorted name from 1.
func writeLetterLIBSVM(data, train, test string) error {
	d, err := readClassRows(data)
	if err != nil {
		return err
	}
	if len(d.x) <= libsvmTrain {
		return fmt.Errorf("%s: %d rows, want more than %d", data, len(d.x), libsvmTrain)
	}
	lo, hi := columnRange(d.x[:libsvmTrain])
	if err := d.writeLIBSVM(train, 0, libsvmTrain, lo, hi); err != nil {
		return err
	}
	return d.writeLIBSVM(test, libsvmTrain, len(d.x), lo, hi)
}

// classRows are the rows of a CSV data file whose columns are numbers
// but for its class column ("class").
type classRows struct {
	x     [][]float64
	class []string // each row's class
	names []string // the classes, sorted
}

// readClassRows reads a CSV data file of numbers and a class column.
func readClassRows(data string) (*classRows, error) {
	f, err := openData(data)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", data, err)
	}
	if len(recs) < 2 {
		return nil, fmt.Errorf("%s: no data rows", data)
	}
	head, recs := recs[0], recs[1:]
	target := slices.Index(head, "class")
	if target < 0 {
		return nil, fmt.Errorf("%s: no column \"class\"", data)
	}
	d := &classRows{x: make([][]float64, len(recs))}
	for i, r := range recs {
		d.class = append(d.class, r[target])
		for j, v := range r {
			if j == target {
				continue
			}
			f, err := strconv.ParseFloat(v, 64)
			if err != nil {
				return nil, fmt.Errorf("%s row %d column %s: %w", data, i+1, head[j], err)
			}
			d.x[i] = append(d.x[i], f)
		}
	}
	d.names = slices.Clone(d.class)
	slices.Sort(d.names)
	d.names = slices.Compact(d.names)
	return d, nil
}

// columnRange returns each column's minimum and maximum over rows x.
func columnRange(x [][]float64) (lo, hi []float64) {
	lo, hi = slices.Clone(x[0]), slices.Clone(x[0])
	for _, r := range x {
		for j, v := range r {
			lo[j], hi[j] = min(lo[j], v), max(hi[j], v)
		}
	}
	return lo, hi
}

// writeLIBSVM writes rows from to to in LIBSVM's format to path, each
// feature scaled to [−1, 1] by lo and hi as svm-scale scales it (zeros
// and constant columns left out), the class numbered by sorted name
// from 1.
func (d *classRows) writeLIBSVM(path string, from, to int, lo, hi []float64) error {
	var b bytes.Buffer
	for i := from; i < to; i++ {
		label, _ := slices.BinarySearch(d.names, d.class[i])
		b.WriteString(strconv.Itoa(label + 1))
		for j, v := range d.x[i] {
			s := 0.0
			if hi[j] != lo[j] {
				s = -1.0 + (1.0 - -1.0)*(v-lo[j])/(hi[j]-lo[j])
			}
			if s != 0 {
				fmt.Fprintf(&b, " %d:%s", j+1, strconv.FormatFloat(s, 'g', -1, 64))
			}
		}
		b.WriteByte('\n')
	}
	return os.WriteFile(path, b.Bytes(), 0o644)
}

// libsvmExperiment is the bench side: the svm plugin's rbf kernel under
// one-vs-one with LIBSVM's vote.
func libsvmExperiment(train, test string) string {
	return fmt.Sprintf(`experiment "kernel_svm" { seed = 1 }
dataset "letter" {
  path      = %q
  test_path = %q
  target    = "label"
}
learner "svm" { params = { kernel = "rbf", C = %d, gamma = %d, tol = %g, cache_size = %d } }
reduction "ovo" {
  scheme = "ovo"
  ties   = "libsvm"
}
metrics = ["accuracy"]
output { formats = ["csv"] }
`, train, test, libsvmC, libsvmGamma, libsvmEps, libsvmCache)
}

// timeTool runs a command to its end and returns its wall and CPU time
// and its standard output.
func timeTool(ctx context.Context, name string, args ...string) (wall, cpu time.Duration, out string, err error) {
	cmd := exec.CommandContext(ctx, name, args...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	if err := cmd.Run(); err != nil {
		return 0, 0, "", fmt.Errorf("%s %s: %w\n%s", name, strings.Join(args, " "), err, tail(stderr.String(), 10))
	}
	wall = time.Since(start)
	return wall, cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime(), stdout.String(), nil
}

// svmPredictAccuracy reads svm-predict's "Accuracy = 97.98% (4899/5000)".
var svmPredictAccuracy = regexp.MustCompile(`Accuracy = [0-9.]+% \((\d+)/(\d+)\)`)

// libsvmSection compares the kernel SVM with LIBSVM on letter.
func libsvmSection(ctx context.Context, o *options, w io.Writer, stderr io.Writer) error {
	const title = "Kernel SVM: letter RBF one-vs-one against LIBSVM's `svm-train` + `svm-predict`"
	if benchMissing(o, w, title) {
		return nil
	}
	trainTool, ok1 := lookTool("svm-train")
	predictTool, ok2 := lookTool("svm-predict")
	if !ok1 || !ok2 {
		fmt.Fprintf(w, "## %s\n\nSkipped: `svm-train` or `svm-predict` is not installed (`apt-get install libsvm-tools`).\n\n", title)
		return nil
	}
	data, err := o.dataFile("letter.csv")
	if err != nil {
		fmt.Fprintf(w, "## %s\n\nSkipped: %v.\n\n", title, err)
		return nil
	}
	train, test := filepath.Join(o.tmp, "letter.svm"), filepath.Join(o.tmp, "letter_test.svm")
	if err := writeLetterLIBSVM(data, train, test); err != nil {
		return err
	}
	file := filepath.Join(o.tmp, "kernel_svm.hcl")
	if err := os.WriteFile(file, []byte(libsvmExperiment(train, test)), 0o644); err != nil {
		return fmt.Errorf("writing %s: %w", file, err)
	}
	model, out := filepath.Join(o.tmp, "letter.model"), filepath.Join(o.tmp, "letter.predict")
	trainArgs := []string{"-c", strconv.Itoa(libsvmC), "-g", strconv.Itoa(libsvmGamma), "-e", strconv.FormatFloat(libsvmEps, 'g', -1, 64), "-m", strconv.Itoa(libsvmCache), train, model}
	var r libsvmResult
	var ours, oursCPU, trains, predicts, peers, peerCPU []time.Duration
	var ratios []float64
	for i := range o.longRuns {
		var b *benchRun
		var t, p, tc, pc time.Duration
		var pout string
		peerFirst := i%2 == 1 // alternate which side goes first
		for _, side := range []bool{peerFirst, !peerFirst} {
			if side {
				fmt.Fprintf(stderr, "peerbench: libsvm run %d of %d: svm-train, svm-predict\n", i+1, o.longRuns)
				if t, tc, _, err = timeTool(ctx, trainTool, trainArgs...); err != nil {
					return err
				}
				if p, pc, pout, err = timeTool(ctx, predictTool, test, model, out); err != nil {
					return err
				}
				continue
			}
			fmt.Fprintf(stderr, "peerbench: libsvm run %d of %d: bench\n", i+1, o.longRuns)
			if b, err = runBench(ctx, o, file, filepath.Join(o.tmp, fmt.Sprintf("kernel_svm_%d", i)), stderr); err != nil {
				return err
			}
		}
		m := svmPredictAccuracy.FindStringSubmatch(pout)
		if m == nil {
			return fmt.Errorf("svm-predict printed no accuracy: %q", pout)
		}
		right, _ := strconv.Atoi(m[1])
		all, _ := strconv.Atoi(m[2])
		r.peerAcc = float64(right) / float64(all)
		for _, row := range b.rows {
			if row.metric == "accuracy" {
				r.oursAcc = row.mean
			}
		}
		ours, oursCPU = append(ours, b.wall), append(oursCPU, b.cpu)
		trains, predicts = append(trains, t), append(predicts, p)
		peers, peerCPU = append(peers, t+p), append(peerCPU, tc+pc)
		ratios = append(ratios, b.wall.Seconds()/(t+p).Seconds())
	}
	r.ours, r.oursCPU = median(ours), median(oursCPU)
	r.train, r.predict, r.peer, r.peerCPU = median(trains), median(predicts), median(peers), median(peerCPU)
	r.paired = median(ratios)
	if v, err := exec.CommandContext(ctx, "dpkg-query", "-W", "-f", "${Version}", "libsvm-tools").Output(); err == nil {
		r.version = string(v)
	}
	writeKernelSVM(w, title, o.longRuns, &r)
	o.addGoal(goalResult{goal: 8, what: fmt.Sprintf("letter RBF one-vs-one: `bench run` vs `svm-train` + `svm-predict` (wall, median of %d paired ratios; accuracy %.4f vs %.4f)", o.longRuns, r.oursAcc, r.peerAcc),
		ours: r.ours.Seconds(), peer: r.peer.Seconds(), unit: unitSeconds, target: libsvmGoal, paired: r.paired})
	return nil
}

// writeKernelSVM prints the comparison.
func writeKernelSVM(w io.Writer, title string, runs int, r *libsvmResult) {
	fmt.Fprintf(w, "## %s\n\n", title)
	fmt.Fprintf(w, "Target 8. letter's first %d rows train and the other %d test, features scaled to [−1, 1] with the training rows' range, written once in LIBSVM's format that both sides read. "+
		"LIBSVM: `svm-train -c %d -g %d -e %g -m %d` then `svm-predict` (its one-vs-one and vote). Ours: `bench run -j %d` of the svm plugin's `kernel = \"rbf\"` with the same C, γ, `tol` (eps) and `cache_size` under `ovo` with `ties = \"libsvm\"` (svm-predict's vote), the whole process: start-up, reading both files, the plugins, the tables. "+
		"The sides run alternately, each first in every other run; wall time and CPU (user + system of the process tree), medians of %d runs, and the ratio the target reads is the median of the runs' ratios. LIBSVM runs on one core; bench trains the one-vs-one problems and predicts the test rows on two goroutines.\n\n",
		libsvmTrain, 20000-libsvmTrain, libsvmC, libsvmGamma, libsvmEps, libsvmCache, benchJobs, runs)
	fmt.Fprintf(w, "| | ours `bench run` | LIBSVM train | LIBSVM predict | LIBSVM total | ratio |\n| --- | ---: | ---: | ---: | ---: | ---: |\n")
	fmt.Fprintf(w, "| wall | %s | %s | %s | %s | **%.2f** |\n", fmtDur(r.ours), fmtDur(r.train), fmtDur(r.predict), fmtDur(r.peer), r.paired)
	fmt.Fprintf(w, "| CPU | %s | | | %s | %s |\n\n", fmtDur(r.oursCPU), fmtDur(r.peerCPU), ratio(r.oursCPU, r.peerCPU))
	fmt.Fprintf(w, "Accuracy: ours %.4f, LIBSVM %.4f. LIBSVM: Debian libsvm-tools %s.\n\n", r.oursAcc, r.peerAcc, r.version)
}
