package engine

import (
	"gonum.org/v1/gonum/mat"

	"github.com/polyclass/polyclass/framework/curves"
	"github.com/polyclass/polyclass/framework/outcome"
)

// pool keeps a scored fold's predictions (whether or not the run keeps
// them in its results) until its cell finishes: the cell's threshold views
// pool the out-of-fold scores of every fold and repeat. They hold what
// Options.KeepPredictions would keep, for the cells in progress only.
func (s *scheduler) pool(t task, p *outcome.Predictions) {
	if p == nil {
		return
	}
	s.pooledMu.Lock()
	defer s.pooledMu.Unlock()
	if s.pooled == nil {
		s.pooled = map[int]map[int]*outcome.Predictions{}
	}
	i := t.cell.Index
	if s.pooled[i] == nil {
		s.pooled[i] = map[int]*outcome.Predictions{}
	}
	s.pooled[i][t.repeat*t.cell.Dataset.NumFolds+t.fold] = p
}

// dropPooled lets cell i's pooled predictions go.
func (s *scheduler) dropPooled(i int) {
	s.pooledMu.Lock()
	defer s.pooledMu.Unlock()
	delete(s.pooled, i)
}

// views computes the threshold views of cell i, whose folds have all
// finished, from their pooled predictions in fold order (see
// curves.Compute): nil when a fold has no class scores. The scores are
// probabilities (a reliability diagram) unless a fold's are a softmax of
// the decoder's class scores.
func (s *scheduler) views(i int, c *Cell) *curves.Set {
	s.pooledMu.Lock()
	byslot := s.pooled[i]
	s.pooledMu.Unlock()
	r := s.results[i]
	k := c.Dataset.K()
	folds := make([]curves.Fold, 0, len(r.Folds))
	probabilities := !c.Dataset.MultiLabel
	for slot := range r.Folds {
		p := byslot[slot]
		if p == nil || p.Scores == nil {
			return nil
		}
		f := curves.Fold{Scores: rowMajor(p.Scores, k), True: p.True}
		if p.TrueSet != nil {
			f.TrueSet, f.PredSet = rowMajor(p.TrueSet, k), rowMajor(p.PredSet, k)
		}
		folds = append(folds, f)
		probabilities = probabilities && !r.Folds[slot].SoftmaxScores
	}
	return curves.Compute(k, folds, probabilities)
}

// rowMajor returns the rows × k values of m row by row, without a copy
// when m's rows lie next to each other.
func rowMajor(m *mat.Dense, k int) []float64 {
	if m == nil {
		return nil
	}
	raw := m.RawMatrix()
	if raw.Stride == k || raw.Rows <= 1 {
		return raw.Data[:raw.Rows*k]
	}
	out := make([]float64, 0, raw.Rows*k)
	for i := range raw.Rows {
		out = append(out, m.RawRowView(i)...)
	}
	return out
}
