// Package reducer implements the reducers plugin: it turns a K-class task
// into the binary problems of a ternary code matrix (or hands it to a native
// multiclass learner) and decodes the learners' scores into classes.
package reducer

import (
	"context"
	"encoding/json"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/polyclass/polyclass/framework/sdk"
)

// Version is the plugin version reported in Info and the manifest.
const Version = "0.1.0"

// Reducer serves the reduction schemes. The zero value is ready to use.
type Reducer struct{}

// New returns a Reducer.
func New() *Reducer { return &Reducer{} }

// Info describes the schemes.
func (*Reducer) Info() sdk.ReducerInfo {
	return sdk.ReducerInfo{
		Name: "reducers", Version: Version,
		Description: "reductions of multiclass tasks to binary problems",
		Schemes: []sdk.Scheme{
			{
				Name:        "ova",
				Description: "one-vs-all: K problems, class k = +1 and the rest −1; predict the argmax of the scores",
			},
			{
				Name:            "none",
				Description:     "no reduction: one native multiclass problem",
				NeedsMulticlass: true,
			},
		},
	}
}

// state is what Decode needs from Plan.
type state struct {
	K      int    `json:"k"`
	L      int    `json:"l"`
	Code   []int8 `json:"code,omitempty"`
	Native bool   `json:"native,omitempty"`
}

// Plan returns the problems of a scheme.
func (*Reducer) Plan(_ context.Context, req sdk.PlanRequest) (sdk.Plan, error) {
	K := req.NumClasses
	if K < 2 {
		return sdk.Plan{}, fmt.Errorf("need at least 2 classes, got %d", K)
	}
	for i, y := range req.Labels {
		if y < 0 || y >= K {
			return sdk.Plan{}, fmt.Errorf("label %d of training row %d is outside 0..%d", y, i, K-1)
		}
	}
	switch req.Scheme {
	case "none":
		t := make([]float64, len(req.Labels))
		for i, y := range req.Labels {
			t[i] = float64(y + 1)
		}
		st, err := json.Marshal(state{K: K, L: K, Native: true})
		if err != nil {
			return sdk.Plan{}, err
		}
		return sdk.Plan{
			Problems: []sdk.Problem{{Kind: sdk.Multiclass, Targets: t, NumClasses: K, Seed: req.Seed}},
			State:    st,
		}, nil
	case "ova":
		code := sdk.CodeMatrix{Rows: K, Cols: K, Entries: make([]int8, K*K)}
		for i := 0; i < K; i++ {
			for j := 0; j < K; j++ {
				code.Entries[i*K+j] = -1
				if i == j {
					code.Entries[i*K+j] = 1
				}
			}
		}
		return codePlan(req, code)
	}
	return sdk.Plan{}, fmt.Errorf("unknown scheme %q", req.Scheme)
}

// codePlan turns a code matrix into one binary problem per column.
func codePlan(req sdk.PlanRequest, code sdk.CodeMatrix) (sdk.Plan, error) {
	problems := make([]sdk.Problem, code.Cols)
	for j := range problems {
		t := make([]float64, len(req.Labels))
		for i, y := range req.Labels {
			t[i] = float64(code.At(y, j))
		}
		problems[j] = sdk.Problem{Kind: sdk.Binary, Targets: t, Seed: mixSeed(req.Seed, uint64(j))}
	}
	st, err := json.Marshal(state{K: code.Rows, L: code.Cols, Code: code.Entries})
	if err != nil {
		return sdk.Plan{}, err
	}
	return sdk.Plan{
		Problems: problems, Code: &code, State: st,
		Diagnostics: map[string]float64{"L": float64(code.Cols)},
	}, nil
}

// mixSeed derives the seed of problem j from the fold's seed (splitmix64).
func mixSeed(seed, j uint64) uint64 {
	z := seed + (j+1)*0x9e3779b97f4a7c15
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// Decode turns scores into classes.
func (*Reducer) Decode(_ context.Context, req sdk.DecodeRequest) (sdk.Decoding, error) {
	var st state
	if err := json.Unmarshal(req.State, &st); err != nil {
		return sdk.Decoding{}, fmt.Errorf("state: %w", err)
	}
	n, L := req.Scores.Dims()
	if L != st.L {
		return sdk.Decoding{}, fmt.Errorf("scores have %d columns, the plan has %d problems", L, st.L)
	}
	// Native and one-vs-all: class k's score is column k.
	d := sdk.Decoding{Predicted: make([]int, n), ClassScores: mat.NewDense(n, st.K, nil)}
	for i := 0; i < n; i++ {
		row := req.Scores.RawRowView(i)
		best := 0
		tie := false
		for k := 1; k < st.K; k++ {
			switch {
			case row[k] > row[best]:
				best, tie = k, false
			case row[k] == row[best]:
				tie = true
			}
		}
		d.Predicted[i] = best
		if tie {
			d.Ties++
		}
		out := d.ClassScores.RawRowView(i)
		if req.Probabilities != nil {
			probRow(out, req.Probabilities.RawRowView(i))
		} else {
			softmax(out, row)
		}
	}
	return d, nil
}

// probRow normalises per-class probabilities to sum to one.
func probRow(dst, p []float64) {
	var s float64
	for _, v := range p {
		s += v
	}
	for k, v := range p {
		if s > 0 {
			dst[k] = v / s
		} else {
			dst[k] = 1 / float64(len(p))
		}
	}
}

// softmax writes the softmax of s into dst.
func softmax(dst, s []float64) {
	m := math.Inf(-1)
	for _, v := range s {
		m = math.Max(m, v)
	}
	var sum float64
	for k, v := range s {
		dst[k] = math.Exp(v - m)
		sum += dst[k]
	}
	for k := range dst {
		dst[k] /= sum
	}
}
