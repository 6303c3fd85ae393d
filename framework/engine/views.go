package engine

import (
	"gonum.org/v1/gonum/mat"

	"github.com/polyclass/polyclass/framework/curves"
	"github.com/polyclass/polyclass/framework/outcome"
)

// pool keeps a scored fold's predictions until its cell finishes, as the
// fold of its cell's threshold views: the views pool the out-of-fold
// scores of every fold and repeat. The fold's share of their work (its
// scores of each class sorted, curves.Prepare) is done here, on the fold's
// worker, so that the cell's last fold leaves only the merging. A fold
// without class scores is kept as nil: its cell has no views.
func (s *scheduler) pool(t task, p *outcome.Predictions) {
	if p == nil {
		return
	}
	var f *curves.Fold
	if p.Scores != nil {
		k := t.cell.Dataset.K()
		v := curves.Fold{Scores: rowMajor(p.Scores, k), True: p.True}
		if p.TrueSet != nil {
			v.TrueSet, v.PredSet = rowMajor(p.TrueSet, k), rowMajor(p.PredSet, k)
		}
		v = curves.Prepare(k, v)
		f = &v
	}
	s.pooledMu.Lock()
	defer s.pooledMu.Unlock()
	if s.pooled == nil {
		s.pooled = map[int]map[int]*curves.Fold{}
	}
	i := t.cell.Index
	if s.pooled[i] == nil {
		s.pooled[i] = map[int]*curves.Fold{}
	}
	s.pooled[i][t.repeat*t.cell.Dataset.NumFolds+t.fold] = f
}

// dropPooled lets cell i's pooled predictions go.
func (s *scheduler) dropPooled(i int) {
	s.pooledMu.Lock()
	defer s.pooledMu.Unlock()
	delete(s.pooled, i)
}

// views computes the threshold views of cell i, whose folds have all
// finished, from their pooled folds in fold order (see
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
		f := byslot[slot]
		if f == nil {
			return nil
		}
		folds = append(folds, *f)
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
