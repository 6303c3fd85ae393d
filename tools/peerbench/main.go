// Command peerbench times polyclass against its peers and prints the results
// as Markdown, starting with one summary line per performance target (ours,
// peer, ratio, bound, met?); `make bench` runs it with
// -o docs/performance.md, which writes the report there. It is a module of
// its own: it reaches polyclass through its public packages (the engine,
// the host, the SDK's interfaces and each plugin's public constructor) and
// the built binaries of bin/, never through internal packages or a
// plugin's solver code. Its sections:
//
//  1. letter, one-vs-rest (26 binary problems, C = 1): the logreg learner
//     (trust-region Newton, LIBLINEAR's -s 0 stopping rule, eps 0.01) and
//     the svm learner (dual coordinate descent, hinge and squared hinge,
//     and Crammer–Singer, eps 0.1) fitted in this process, next to
//     `liblinear-train -s 0` / `-s 3` / `-s 1` / `-s 4` on the same data
//     and scikit-learn's LogisticRegression and LinearSVC;
//  2. the whole letter grid through the real plugins (bin/bench run
//     experiments/bench/letter.hcl): wall time and mean fit time per fold;
//  3. diabetes130 with one-hot and hashed encodings through logreg + ova
//     (experiments/bench/diabetes130.hcl): wall time and peak memory;
//  4. the Python plugin tax: scikit-learn's LogisticRegression on letter
//     through the sklearn plugin vs a plain Python loop (sklearn_tax.py);
//  5. plugintax: the plugin tax of the Go plugins: the whole letter grid
//     (experiments/bench/letter_tax.hcl: logreg and svm × ova and ovo)
//     with the plugin processes and with the same plugins linked in
//     (plugintax.go), each run a fresh process of peerbench's hidden
//     tax-grid command, alternately: wall and CPU time, and the protocol
//     calls per fold;
//  6. profile: the letter grid with `bench run --profile DIR` and without,
//     the profiles written, and how to read them: the last profiled run's
//     timeline.txt and `go tool pprof -top` of its bench and svm CPU
//     profiles (profile.go);
//  7. e2e: letter (standardize) and diabetes130 (impute → standardize →
//     one-hot) with logreg + ova, covertype_50k (standardize → one-hot)
//     with knn and with naive_bayes, and a synthetic 200-class data set
//     (make_classification, standardize) with logreg + ovo, through
//     `bench run -j 2` against scikit-learn's
//     cross_validate(make_pipeline(...), n_jobs=2) (sklearn_e2e.py) on the
//     same folds, alternately: wall, CPU and the peak summed RSS of each
//     process tree;
//  8. scaling: covertype_50k resampled with replacement to 25k, 100k and
//     400k rows, one-hot + logreg + ova, 5 folds: time and memory per row;
//     then, on each size encoded once, the one-vs-rest fits in this
//     process and `liblinear-train -s 0` side by side: time per problem
//     and row, and LIBLINEAR's Newton and CG steps;
//  9. libsvm: the kernel SVM against LIBSVM on letter (libsvm.go);
//  10. share: Hsu & Lin's letter over a 5 × 5 block of (C, γ), one-vs-one
//     + DAG + one-vs-all, with `bench run --no-share` and sharing one fit
//     per distinct problem: fits requested and made, wall time (share.go);
//  11. tuning: Hsu & Lin's letter over their 225 (C, γ), one-vs-one, tuned
//     by 3-fold inner cross-validation: the exhaustive grid and successive
//     halving, each a bench run: the chosen pair's test accuracy and the
//     CPU time of each (tuning.go; -tuning-rows N cuts the training rows);
//  12. cores: the letter grid (standardize + logreg, 5 C × ova, ovo, 10
//     stratified folds, 3 repeats) and one-vs-one on 200 classes, each
//     with every process pinned to one core (`taskset -c 0 bench run -j
//     1`) and on both (`taskset -c 0,1 bench run -j 2`): wall and CPU, the
//     speed-up; and, from `bench run --profile`'s timeline, the speed-up
//     Amdahl's law gives at 16 workers, an estimate (cores.go; -cores-rows
//     N cuts the rows);
//  13. irisgrid: Hsu & Lin's iris grid (hsu_lin.hcl's iris, 225 (C, γ) ×
//     ovo, DAG, ova) through `bench run -j 2`, and LIBSVM's own grid
//     search over the same pairs, `svm-train -v 10` two at a time
//     (irisgrid.go);
//  14. together: Crammer–Singer and Weston–Watkins with the RBF kernel
//     on Hsu & Lin's letter split at (C, γ) = (16, 4), one-vs-one beside:
//     train + predict time and test accuracy (together.go;
//     -together-rows N cuts the training rows).
//
// `make bench` builds it into bin/peerbench (go build in tools/peerbench)
// and runs it from the repository root (else give -root). Usage:
//
//	peerbench [-n 5] [-long 3] [-scaling 25000,100000,400000] [-scaling-runs 3] [-tax-pairs 9]
//	          [-data DIR] [-root DIR] [-bench PATH] [-liblinear PATH] [-python PATH]
//	          [-tuning-rows N] [-cores-rows N] [-together-rows N]
//	          [-only letter,grid,diabetes,tax,plugintax,profile,e2e,scaling,libsvm,share,tuning,cores,irisgrid,together] [-o FILE]
//
// A peer that is not installed (liblinear-train, python3 with scikit-learn)
// is reported as skipped; a missing bin/bench asks for `make build`.
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	err := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	if err != nil {
		fmt.Fprintln(os.Stderr, "peerbench:", err)
		os.Exit(1)
	}
}
