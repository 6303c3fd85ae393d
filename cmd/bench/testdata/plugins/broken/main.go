// Command broken is a nearest-centroid learner with one deliberate defect,
// chosen by the name it is built under, for the tests of bench plugin
// check:
//
//	bench-plugin-wrongshape  a binary model claims 2 outputs
//	bench-plugin-nocancel    Fit on 5000 rows or more computes for 30 s
//	                         without looking at its context
//	bench-plugin-csrcrash    Fit reads CSR input as dense and crashes
//	bench-plugin-hangcheck   CheckParams never returns and ignores its
//	                         context (bench validate's and bench run's
//	                         check of the parameters, before any cell)
//	bench-plugin-spinfit     Fit never returns and ignores its context
//	                         (it sleeps rather than burns CPU: the tests
//	                         share the machine)
//	bench-plugin-hostilefit  Fit writes hostileText to stderr and fails
//	                         with it as its error
//
// Built under any other name it has no defect.
package main

import (
	"context"
	"errors"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"strings"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/polyclass/polyclass/framework/sdk"
)

type learner struct{ defect string }

// hostileText is what the hostilefit defect writes and fails with: an
// escape sequence that colours, one that sets the terminal's title (ended
// by BEL), a right-to-left override, a carriage return that overwrites
// the line, and one that clears the screen (campaign 8 N12).
const hostileText = "bad \x1b[31mRED\x1b]0;pwned-title\x07 rev\u202eesrever \rOVERWRITE\x1b[2J"

func (learner) Info() sdk.LearnerInfo {
	return sdk.LearnerInfo{
		Name: "broken", Version: "0.1.0",
		Capabilities: sdk.Capabilities{Binary: true, Scores: true, Sparse: true},
		Params:       []sdk.ParamSpec{{Name: "shift", Type: sdk.NumberParam, Default: sdk.Number(0)}},
	}
}

// row returns row i of x, dense or CSR.
func row(x sdk.Matrix, i int) []float64 {
	if x.CSR == nil {
		return x.Dense.RawRowView(i)
	}
	out := make([]float64, x.CSR.Cols)
	idx, val := x.CSR.Row(i)
	for k, j := range idx {
		out[j] = val[k]
	}
	return out
}

// CheckParams has no objection, or with the hangcheck defect says so on
// stderr and never returns (sdk.ParamChecker).
func (l learner) CheckParams(context.Context, sdk.Params) ([]sdk.Component, error) {
	if l.defect == "hangcheck" {
		fmt.Fprintln(os.Stderr, "broken: stuck in CheckParams")
		select {}
	}
	return nil, nil
}

func (l learner) Fit(ctx context.Context, in sdk.FitInput, p sdk.Params) (sdk.Model, error) {
	n, d := in.X.Dims()
	if l.defect == "csrcrash" {
		_ = in.X.Dense.At(0, 0) // nil for CSR input
	}
	if l.defect == "hostilefit" {
		fmt.Fprintln(os.Stderr, hostileText)
		return nil, errors.New(hostileText)
	}
	for l.defect == "spinfit" {
		time.Sleep(time.Second) // a solver that never ends nor looks at ctx
	}
	if l.defect == "nocancel" && n >= 5000 {
		for start := time.Now(); time.Since(start) < 30*time.Second; {
			// a solver that never looks at ctx
		}
	}
	pos, neg := make([]float64, d), make([]float64, d)
	var np, nn float64
	for i := 0; i < n; i++ {
		if i%256 == 0 && ctx.Err() != nil {
			return nil, ctx.Err()
		}
		c, w := neg, &nn
		if in.Targets[i] > 0 {
			c, w = pos, &np
		}
		for j, v := range row(in.X, i) {
			c[j] += v
		}
		*w++
	}
	if np == 0 || nn == 0 {
		return nil, errors.New("centroid needs rows of both classes")
	}
	m := model{w: make([]float64, d), b: p.Float("shift"), outputs: 1}
	for j := range m.w {
		pm, nm := pos[j]/np, neg[j]/nn
		m.w[j] = pm - nm
		m.b -= m.w[j] * (pm + nm) / 2
	}
	if l.defect == "wrongshape" {
		m.outputs = 2
	}
	return m, nil
}

type model struct {
	w       []float64
	b       float64
	outputs int
}

func (m model) Outputs() int { return m.outputs }

func (m model) Predict(_ context.Context, x sdk.Matrix, scores, _ *mat.Dense) error {
	r, _ := x.Dims()
	for i := 0; i < r; i++ {
		s := m.b
		for j, v := range row(x, i) {
			s += m.w[j] * v
		}
		for k := 0; k < m.outputs; k++ {
			scores.Set(i, k, s)
		}
	}
	return nil
}

func main() {
	defect := strings.TrimPrefix(filepath.Base(os.Args[0]), "bench-plugin-")
	if err := sdk.Serve(context.Background(), sdk.WithLearner(learner{defect: defect})); err != nil {
		log.Fatal(err)
	}
}
