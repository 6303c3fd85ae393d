package outcome

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"

	"gonum.org/v1/gonum/mat"
)

// predictionsJSON is the form of Predictions in a cell file. Matrices are
// row-major with their shape; numbers are written in the shortest form
// that reads back exactly, so tables and predictions files made from a
// cell file equal those made from the run itself.
type predictionsJSON struct {
	Rows      []int       `json:"rows"`
	True      []int       `json:"true,omitempty"`
	Predicted []int       `json:"predicted,omitempty"`
	TrueSet   *matrixJSON `json:"true_set,omitempty"`
	PredSet   *matrixJSON `json:"pred_set,omitempty"`
	Scores    *matrixJSON `json:"scores,omitempty"`
}

// matrixJSON is a dense matrix: its shape and its entries row by row.
type matrixJSON struct {
	Rows int        `json:"rows"`
	Cols int        `json:"cols"`
	Data jsonFloats `json:"data"`
}

// jsonFloats writes NaN and ±Inf as the strings "NaN", "+Inf" and "-Inf",
// which JSON numbers cannot hold, and every other value as a number.
type jsonFloats []float64

// MarshalJSON implements json.Marshaler.
func (v jsonFloats) MarshalJSON() ([]byte, error) {
	b := make([]byte, 0, 2+len(v)*20)
	b = append(b, '[')
	for i, x := range v {
		if i > 0 {
			b = append(b, ',')
		}
		switch {
		case math.IsNaN(x):
			b = append(b, `"NaN"`...)
		case math.IsInf(x, 0):
			b = strconv.AppendQuote(b, strconv.FormatFloat(x, 'g', -1, 64))
		default:
			b = strconv.AppendFloat(b, x, 'g', -1, 64)
		}
	}
	return append(b, ']'), nil
}

// UnmarshalJSON implements json.Unmarshaler.
func (v *jsonFloats) UnmarshalJSON(b []byte) error {
	var raw []json.RawMessage
	if err := json.Unmarshal(b, &raw); err != nil {
		return err
	}
	out := make([]float64, len(raw))
	for i, r := range raw {
		if len(r) > 0 && r[0] == '"' {
			var s string
			if err := json.Unmarshal(r, &s); err != nil {
				return err
			}
			switch s {
			case "NaN":
				out[i] = math.NaN()
			case "+Inf":
				out[i] = math.Inf(1)
			case "-Inf":
				out[i] = math.Inf(-1)
			default:
				return fmt.Errorf("entry %d: %q is not a number, NaN, +Inf or -Inf", i, s)
			}
			continue
		}
		if err := json.Unmarshal(r, &out[i]); err != nil {
			return fmt.Errorf("entry %d: %w", i, err)
		}
	}
	*v = out
	return nil
}

func toMatrixJSON(m *mat.Dense) *matrixJSON {
	if m == nil {
		return nil
	}
	r, c := m.Dims()
	out := &matrixJSON{Rows: r, Cols: c, Data: make(jsonFloats, 0, r*c)}
	for i := range r {
		out.Data = append(out.Data, m.RawRowView(i)...)
	}
	return out
}

func (m *matrixJSON) dense(name string) (*mat.Dense, error) {
	if m == nil {
		return nil, nil
	}
	if m.Rows <= 0 || m.Cols <= 0 || len(m.Data) != m.Rows*m.Cols {
		return nil, fmt.Errorf("%s: %d entries for a %d×%d matrix", name, len(m.Data), m.Rows, m.Cols)
	}
	return mat.NewDense(m.Rows, m.Cols, m.Data), nil
}

// MarshalJSON implements json.Marshaler.
func (p *Predictions) MarshalJSON() ([]byte, error) {
	return json.Marshal(predictionsJSON{Rows: p.Rows, True: p.True, Predicted: p.Predicted,
		TrueSet: toMatrixJSON(p.TrueSet), PredSet: toMatrixJSON(p.PredSet), Scores: toMatrixJSON(p.Scores)})
}

// UnmarshalJSON implements json.Unmarshaler. It checks the shapes that do
// not depend on the cell (see Check for those that do).
func (p *Predictions) UnmarshalJSON(b []byte) error {
	var j predictionsJSON
	if err := json.Unmarshal(b, &j); err != nil {
		return err
	}
	out := Predictions{Rows: j.Rows, True: j.True, Predicted: j.Predicted}
	var err error
	if out.TrueSet, err = j.TrueSet.dense("true_set"); err != nil {
		return err
	}
	if out.PredSet, err = j.PredSet.dense("pred_set"); err != nil {
		return err
	}
	if out.Scores, err = j.Scores.dense("scores"); err != nil {
		return err
	}
	*p = out
	return nil
}

// Check reports predictions that do not fit a fold of n test rows and k
// classes: one row index, true and predicted class (in [0, k)) or label
// sets (n×k) per test row, and scores, when present, n×k.
func (p *Predictions) Check(n, k int) error {
	if len(p.Rows) != n {
		return fmt.Errorf("%d prediction rows for %d test rows", len(p.Rows), n)
	}
	for _, r := range p.Rows {
		if r < 0 {
			return fmt.Errorf("negative row index %d", r)
		}
	}
	shape := func(name string, m *mat.Dense) error {
		if m == nil {
			return nil
		}
		if r, c := m.Dims(); r != n || c != k {
			return fmt.Errorf("%s is %d×%d, not %d×%d", name, r, c, n, k)
		}
		return nil
	}
	if (p.TrueSet == nil) != (p.PredSet == nil) {
		return fmt.Errorf("true_set and pred_set must come together")
	}
	if p.TrueSet == nil {
		if len(p.True) != n || len(p.Predicted) != n {
			return fmt.Errorf("%d true and %d predicted classes for %d test rows", len(p.True), len(p.Predicted), n)
		}
		for i := range n {
			if p.True[i] < 0 || p.True[i] >= k || p.Predicted[i] < 0 || p.Predicted[i] >= k {
				return fmt.Errorf("row %d: true class %d, predicted %d, not in [0, %d)", i, p.True[i], p.Predicted[i], k)
			}
		}
	} else if len(p.True) != 0 || len(p.Predicted) != 0 {
		return fmt.Errorf("both classes and label sets")
	}
	for _, m := range []struct {
		name string
		m    *mat.Dense
	}{{"true_set", p.TrueSet}, {"pred_set", p.PredSet}, {"scores", p.Scores}} {
		if err := shape(m.name, m.m); err != nil {
			return err
		}
	}
	return nil
}
