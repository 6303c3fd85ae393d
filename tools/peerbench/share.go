package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// The share section (target 11): Hsu & Lin's letter comparison
// (experiments/hsu_lin.hcl: letter's first 15000 rows train, the last 5000
// test, every feature scaled to [−1, 1] with the training rows' range,
// RBF kernel SVM with a 2048 MB kernel cache) over a 5 × 5 block of their
// (C, γ) grid, C = 2^2 … 2^6 and γ = 2^0 … 2^4 (LIBSVM's best pair for
// letter, C = 16 and γ = 4, at its centre), under one-vs-one with
// LIBSVM's vote, DAG and one-vs-all: 75 cells. One-vs-one and DAG train
// the same 325 pairwise problems for each (C, γ), so a run that shares
// fits makes 325 + 26 of the 676 fits its cells request. The run with
// `bench run --no-share` (every cell fits its own problems, as bench did
// before fits were shared) and the run that shares are timed one after
// the other; their accuracies must be the same.
var (
	shareC     = []int{2, 3, 4, 5, 6} // log2 C
	shareGamma = []int{0, 1, 2, 3, 4} // log2 γ
)

// shareCache is the svm learner's kernel cache of the share section, in
// MB: hsu_lin.hcl's.
const shareCache = 2048

// shareRun is one run of the share section.
type shareRun struct {
	name            string
	run             *benchRun
	requested, made int
}

// benchFits reads "fits: N requested, M made" in bench run's summary line.
var benchFits = regexp.MustCompile(`fits: (\d+) requested, (\d+) made`)

// parseFits returns the fits requested and made that a summary line of
// bench run reports.
func parseFits(summary string) (requested, made int, err error) {
	m := benchFits.FindStringSubmatch(summary)
	if m == nil {
		return 0, 0, fmt.Errorf("bench run's summary %q says nothing of fits (a bench older than shared fits?)", summary)
	}
	requested, _ = strconv.Atoi(m[1])
	made, _ = strconv.Atoi(m[2])
	return requested, made, nil
}

// shareExperiment is the section's experiment on hsu_lin.hcl's letter
// files: its training rows (train) and test rows (test), scaled as
// hsu_lin.hcl scales them.
func shareExperiment(train, test string) string {
	pow := func(exps []int) string {
		var s []string
		for _, e := range exps {
			s = append(s, fmt.Sprintf("pow(2, %d)", e))
		}
		return "[" + strings.Join(s, ", ") + "]"
	}
	return fmt.Sprintf(`experiment "share" { seed = 1 }
dataset "letter" {
  path      = %q
  test_path = %q
}
encoder "scale" {
  type  = "minmax"
  lower = -1
  upper = 1
}
learner "svm" {
  params = {
    kernel     = "rbf"
    C          = %s
    gamma      = %s
    cache_size = %d
  }
}
reduction "ovo" {
  scheme = "ovo"
  ties   = "libsvm"
}
reduction "dag" {
  scheme = "ovo"
  decode = "dag"
}
reduction "ova" { scheme = "ova" }
metrics = ["accuracy"]
output { formats = ["csv"] }
`, train, test, pow(shareC), pow(shareGamma), shareCache)
}

// shareSection times the letter block with and without shared fits.
func shareSection(ctx context.Context, o *options, w io.Writer, stderr io.Writer) error {
	const title = "Shared fits: Hsu & Lin's letter, 5 × 5 (C, γ), one-vs-one + DAG + one-vs-all"
	if benchMissing(o, w, title) {
		return nil
	}
	var files []string
	for _, name := range []string{"letter_train.csv.gz", "letter_test.csv"} {
		f, err := o.dataFile(name)
		if err != nil {
			fmt.Fprintf(w, "## %s\n\nSkipped: %v (`scripts/hsu_lin_data.sh` makes it).\n\n", title, err)
			return nil
		}
		files = append(files, f)
	}
	file := filepath.Join(o.tmp, "share.hcl")
	if err := os.WriteFile(file, []byte(shareExperiment(files[0], files[1])), 0o644); err != nil {
		return fmt.Errorf("writing %s: %w", file, err)
	}
	runs := []*shareRun{{name: "before: `--no-share`"}, {name: "after: shared"}}
	var err error
	for i, r := range runs {
		var flags []string
		if i == 0 {
			flags = []string{"--no-share"}
		}
		fmt.Fprintf(stderr, "peerbench: share: %s\n", r.name)
		if r.run, err = runBench(ctx, o, file, filepath.Join(o.tmp, fmt.Sprintf("share_%d", i)), stderr, flags...); err != nil {
			return err
		}
		if r.requested, r.made, err = parseFits(r.run.summary); err != nil {
			return err
		}
	}
	same := sameAccuracies(runs[0].run.rows, runs[1].run.rows)
	writeShare(w, title, runs, same)
	before, after := runs[0], runs[1]
	pairs := len(shareC) * len(shareGamma)
	o.addGoal(goalResult{goal: 11, what: fmt.Sprintf("letter 5 × 5 (C, γ), ovo + dag + ova: fits made, shared vs `--no-share` (%d requested)", after.requested),
		ours: float64(after.made), peer: float64(before.made), unit: unitPlain, target: float64(pairs*(325+26)) / float64(pairs*(2*325+26))})
	o.addGoal(goalResult{goal: 11, what: fmt.Sprintf("letter 5 × 5 (C, γ), ovo + dag + ova: wall, shared vs `--no-share` (accuracies the same: %s)", yesNo(same)),
		ours: after.run.wall.Seconds(), peer: before.run.wall.Seconds(), unit: unitSeconds, target: 1})
	return nil
}

// sameAccuracies reports whether two runs' summaries hold the same cells
// with the same accuracies.
func sameAccuracies(a, b []summaryRow) bool {
	acc := func(rows []summaryRow) []string {
		var out []string
		for _, r := range rows {
			if r.metric == "accuracy" {
				out = append(out, fmt.Sprintf("%s|%s|%s|%s|%s|%v", r.dataset, r.encoder, r.learner, r.params, r.reduction, r.mean))
			}
		}
		slices.Sort(out)
		return out
	}
	x, y := acc(a), acc(b)
	return len(x) > 0 && slices.Equal(x, y)
}

// yesNo prints a bool.
func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

// writeShare prints the section.
func writeShare(w io.Writer, title string, runs []*shareRun, same bool) {
	fmt.Fprintf(w, "## %s\n\n", title)
	fmt.Fprintf(w, "Hsu & Lin's letter (`experiments/hsu_lin.hcl`: the first 15000 rows train, the last 5000 test, scaled to [−1, 1]; RBF SVM, kernel cache %d MB) at C = 2^%d … 2^%d and γ = 2^%d … 2^%d, under one-vs-one (LIBSVM's vote), DAG and one-vs-all, through `bench run -j %d`: once with `--no-share` (each cell fits its own problems, as before fits were shared), then sharing one fit per distinct problem. One run of each; the accuracies of the two runs are the same: %s.\n\n",
		shareCache, shareC[0], shareC[len(shareC)-1], shareGamma[0], shareGamma[len(shareGamma)-1], benchJobs, yesNo(same))
	fmt.Fprintf(w, "| run | fits requested | fits made | wall | CPU | peak RSS (summed) |\n| --- | ---: | ---: | ---: | ---: | ---: |\n")
	for _, r := range runs {
		fmt.Fprintf(w, "| %s | %d | %d | %s | %s | %s |\n", r.name, r.requested, r.made, fmtDur(r.run.wall), fmtDur(r.run.cpu), fmtBytes(r.run.mem.peakSum))
	}
	if len(runs) == 2 && runs[0].run.wall > 0 {
		fmt.Fprintf(w, "\nShared against `--no-share`: %.2f× the fits, %.2f× the wall time.\n", float64(runs[1].made)/float64(max(runs[0].made, 1)), runs[1].run.wall.Seconds()/runs[0].run.wall.Seconds())
	}
	fmt.Fprintln(w)
}
