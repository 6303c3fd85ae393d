package main

import (
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

//go:embed sklearn_tax.py
var taxScript string

// taxExperiment is the bench side of the plugin tax: the estimator of
// sklearn_tax.py's loop through the sklearn plugin under the host's ova.
const taxExperiment = `experiment "plugin_tax" { seed = 1 }
dataset "letter" {
  path       = %s
  folds_file = %s
}
encoder "std" { type = "standardize" }
learner "sklearn" {
  params = { estimator = "sklearn.linear_model.LogisticRegression", solver = "lbfgs", C = 1, max_iter = 1000 }
}
reduction "ova" { scheme = "ova" }
metrics = ["accuracy"]
output { formats = ["csv"] }
`

// taxSection times the same scikit-learn model cross-validated on letter
// through the sklearn plugin (`bench run -j 1`) and in a plain Python loop,
// alternately, and reports the ratio of the medians: what the plugin
// protocol costs a Python learner.
func taxSection(ctx context.Context, o *options, w io.Writer, stderr io.Writer) error {
	const title = "The Python plugin tax: scikit-learn through the plugin vs a plain loop"
	dataFile := sectionInput(o, w, title, "letter.csv")
	if dataFile == "" {
		return nil
	}
	py, ok := lookTool(o.python)
	plugin := filepath.Join(filepath.Dir(o.bench), "bench-plugin-sklearn")
	if ok {
		ok = exec.CommandContext(ctx, py, "-c", "import grpc, google.protobuf, sklearn").Run() == nil
	}
	if _, err := os.Stat(plugin); !ok || err != nil {
		fmt.Fprintf(w, "## %s\n\nSkipped: needs %s and `%s` with grpc and scikit-learn (`apt-get install python3-grpcio python3-protobuf python3-sklearn`).\n\n", title, plugin, o.python)
		return nil
	}
	script := filepath.Join(o.tmp, "sklearn_tax.py")
	if err := os.WriteFile(script, []byte(taxScript), 0o644); err != nil {
		return fmt.Errorf("writing %s: %w", script, err)
	}
	folds := filepath.Join(o.tmp, "letter.folds.csv")
	if _, err := timeCommand(ctx, py, script, "folds", dataFile, folds); err != nil {
		return err
	}
	file := filepath.Join(o.tmp, "plugin_tax.hcl")
	src := fmt.Sprintf(taxExperiment, strconv.Quote(dataFile), strconv.Quote(folds))
	if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
		return fmt.Errorf("writing %s: %w", file, err)
	}
	var viaPlugin, plain []time.Duration
	var pluginAcc, loopAcc float64
	for i := range o.runs {
		fmt.Fprintf(stderr, "peerbench: plugin tax, run %d of %d\n", i+1, o.runs)
		out := filepath.Join(o.tmp, fmt.Sprintf("tax_%d", i))
		start := time.Now()
		if _, err := timeCommand(ctx, o.bench, "run", "--quiet", "-j", "1", "-o", out, file); err != nil {
			return err
		}
		viaPlugin = append(viaPlugin, time.Since(start))
		f, err := os.Open(filepath.Join(out, "summary.csv"))
		if err != nil {
			return fmt.Errorf("reading the results: %w", err)
		}
		rows, err := parseSummary(f)
		f.Close()
		if err != nil || len(rows) != 1 {
			return fmt.Errorf("%s: want one accuracy row (%v)", f.Name(), err)
		}
		pluginAcc = rows[0].mean

		start = time.Now()
		b, err := exec.CommandContext(ctx, py, script, "loop", dataFile, folds).Output()
		if err != nil {
			return fmt.Errorf("%s %s loop: %w", py, script, err)
		}
		plain = append(plain, time.Since(start))
		var res struct{ Accuracy float64 }
		if err := json.Unmarshal(b, &res); err != nil {
			return fmt.Errorf("sklearn_tax.py output %q: %w", strings.TrimSpace(string(b)), err)
		}
		loopAcc = res.Accuracy
	}
	mp, ml := median(viaPlugin), median(plain)
	fmt.Fprintf(w, "## %s\n\n", title)
	fmt.Fprintf(w, "letter (20000 × 16, 26 classes), the same 10 stratified folds, standardised per fold, `LogisticRegression(C=1, solver='lbfgs', max_iter=1000)` one-vs-rest (26 problems per fold); wall time of the whole command, median of %d, run alternately:\n\n", o.runs)
	fmt.Fprintf(w, "| | wall | mean accuracy |\n| --- | ---: | ---: |\n")
	fmt.Fprintf(w, "| `bench run -j 1` with the `sklearn` plugin and `ova` | %s | %.4f |\n", fmtDur(mp), pluginAcc)
	fmt.Fprintf(w, "| plain Python loop (`cmd/peerbench/sklearn_tax.py loop`) | %s | %.4f |\n", fmtDur(ml), loopAcc)
	fmt.Fprintf(w, "| **plugin tax (ratio)** | **%s** | |\n\n", ratio(mp, ml))
	return nil
}
