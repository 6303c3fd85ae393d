package codes

import (
	"fmt"
	"math"
	"strings"

	"gonum.org/v1/gonum/mat"
)

// Decoder turns one row of L binary scores into K class scores (higher is
// better: a negative distance, a vote count or a coverage count) and a
// predicted class.
type Decoder interface {
	// Name is the decoder's name as accepted by NewDecoder.
	Name() string
	// Dims returns the number of classes K and of binary problems L.
	Dims() (K, L int)
	// Decode writes the K class scores of the score row s (length L) into
	// dst (length K) and returns the predicted class and whether it was
	// tied. Ties go to the lowest class index (the sequential decoder
	// follows its decision list instead; see its documentation). Decode
	// panics if the lengths are wrong; s must not contain NaN.
	Decode(dst, s []float64) (class int, tie bool)
}

// Decoder names accepted by NewDecoder (formulas in the package doc).
const (
	// Hamming decodes by Hamming distance to the codewords.
	Hamming = "hamming"
	// Vote counts (pairwise) votes.
	Vote = "vote"
	// LossExp is loss-based decoding with L(z) = e^{−z}.
	LossExp = "loss:exp"
	// LossHinge is loss-based decoding with L(z) = max(0, 1−z).
	LossHinge = "loss:hinge"
	// LossLogit is loss-based decoding with L(z) = log(1 + e^{−z}).
	LossLogit = "loss:logistic"
	// LossSquared is loss-based decoding with L(z) = (1−z)².
	LossSquared = "loss:squared"
	// LossZeroOne is loss-based decoding with L(z) = (1 − sign z)/2.
	LossZeroOne = "loss:zero_one"
	// LossLinear is loss-based decoding with L(z) = −z.
	LossLinear = "loss:linear"
	// Coverage sums training-coverage counts of the positive classifiers.
	Coverage = "coverage"
	// Sequential walks a decision list built by Ordered.
	Sequential = "sequential"
	// DAG walks DAGSVM's decision DAG of a one-vs-one matrix.
	DAG = "dag"
)

// DecoderNames returns the valid decoder names in a fixed order.
func DecoderNames() []string {
	return []string{Hamming, Vote, LossExp, LossHinge, LossLogit, LossSquared,
		LossZeroOne, LossLinear, Coverage, Sequential, DAG}
}

// NewDecoder returns the decoder called name for the code matrix m.
// counts is the L × K coverage table built by CoverageCounts; it is
// required by "coverage" and ignored by the others. "sequential" requires m
// to be a decision-list matrix as built by Ordered, "dag" a one-vs-one
// matrix as built by OVO. An unknown name yields an error listing the
// valid names.
func NewDecoder(name string, m *Matrix, counts *mat.Dense) (Decoder, error) {
	if m == nil || m.k < 1 || m.l < 1 {
		return nil, fmt.Errorf("decoder %s: empty code matrix", name)
	}
	switch name {
	case Hamming, Vote:
		d := &signDecoder{m: m, vote: name == Vote, zeros: make([]float64, m.k), start: make([]int, 2*m.k+1)}
		for k := 0; k < m.k; k++ {
			for i, v := range m.data[k*m.l : (k+1)*m.l] {
				switch v {
				case 0:
					d.zeros[k]++
				case 1:
					d.cols = append(d.cols, i)
				}
			}
			d.start[2*k+1] = len(d.cols)
			for i, v := range m.data[k*m.l : (k+1)*m.l] {
				if v == -1 {
					d.cols = append(d.cols, i)
				}
			}
			d.start[2*k+2] = len(d.cols)
		}
		return d, nil
	case LossExp, LossHinge, LossLogit, LossSquared, LossZeroOne, LossLinear:
		f, _ := lossFunc(name)
		return &lossDecoder{name: name, m: m, loss: f, atZero: f(0)}, nil
	case Coverage:
		if counts == nil {
			return nil, fmt.Errorf("decoder %s: needs the coverage counts table (CoverageCounts)", name)
		}
		if r, c := counts.Dims(); r != m.l || c != m.k {
			return nil, fmt.Errorf("decoder %s: counts table is %d×%d, want L×K = %d×%d", name, r, c, m.l, m.k)
		}
		return &coverageDecoder{k: m.k, l: m.l, counts: mat.DenseCopyOf(counts)}, nil
	case Sequential:
		order, err := DecisionOrder(m)
		if err != nil {
			return nil, fmt.Errorf("decoder %s: %w", name, err)
		}
		return &sequentialDecoder{order: order}, nil
	case DAG:
		col, err := pairColumns(m)
		if err != nil {
			return nil, fmt.Errorf("decoder %s: %w", name, err)
		}
		return &dagDecoder{k: m.k, l: m.l, col: col}, nil
	}
	return nil, fmt.Errorf("unknown decoder %q (valid: %s)", name, strings.Join(DecoderNames(), ", "))
}

// DecisionOrder recovers the class order of a decision-list matrix built by
// Ordered, or reports why m is not one.
func DecisionOrder(m *Matrix) ([]int, error) {
	K, L := m.k, m.l
	if L != K-1 {
		return nil, fmt.Errorf("decision list: %d columns for %d classes, want %d", L, K, K-1)
	}
	decided := make([]bool, K)
	order := make([]int, 0, K)
	for t := 0; t < L; t++ {
		pos := -1
		for k := 0; k < K; k++ {
			v := m.data[k*L+t]
			switch {
			case decided[k] && v != 0:
				return nil, fmt.Errorf("decision list: class %d, already decided, is %+d in column %d (want 0)", k, v, t)
			case !decided[k] && v == 1 && pos >= 0:
				return nil, fmt.Errorf("decision list: column %d has more than one +1 (classes %d and %d)", t, pos, k)
			case !decided[k] && v == 1:
				pos = k
			case !decided[k] && v != -1:
				return nil, fmt.Errorf("decision list: class %d is 0 in column %d but not yet decided (want -1)", k, t)
			}
		}
		if pos < 0 {
			return nil, fmt.Errorf("decision list: column %d has no +1", t)
		}
		decided[pos] = true
		order = append(order, pos)
	}
	for k, d := range decided {
		if !d {
			order = append(order, k)
		}
	}
	return order, nil
}

// sign returns −1, 0 or +1; sign(0) = 0, i.e. an output of exactly zero
// abstains (and so does NaN). It compiles without branches (SETcc): the
// signs of scores are unpredictable.
func sign(s float64) int {
	p, n := 0, 0
	if s > 0 {
		p = 1
	}
	if s < 0 {
		n = 1
	}
	return p - n
}

// argmax returns the first index of the maximum of v and whether another
// index attains it.
func argmax(v []float64) (int, bool) {
	best, tie := 0, false
	for k := 1; k < len(v); k++ {
		switch {
		case v[k] > v[best]:
			best, tie = k, false
		case v[k] == v[best]:
			tie = true
		}
	}
	return best, tie
}

func checkLens(name string, dst, s []float64, K, L int) {
	if len(dst) != K || len(s) != L {
		panic(fmt.Sprintf("codes: decoder %s: dst has %d entries (want %d), s has %d (want %d)", name, len(dst), K, len(s), L))
	}
}

// signDecoder is Hamming decoding (score = −distance) or vote counting.
type signDecoder struct {
	m     *Matrix
	vote  bool
	zeros []float64 // number of 0 entries per row
	// Row k has its +1 entries in the columns cols[start[2k]:start[2k+1]]
	// and its −1 entries in cols[start[2k+1]:start[2k+2]].
	start []int
	cols  []int
}

func (d *signDecoder) Name() string {
	if d.vote {
		return Vote
	}
	return Hamming
}

func (d *signDecoder) Dims() (int, int) { return d.m.k, d.m.l }

// Decode sums sign(sᵢ)·c_{ki} over the non-zero entries of each row only
// (a 0 entry adds nothing to the integer dot product).
func (d *signDecoder) Decode(dst, s []float64) (int, bool) {
	K, L := d.m.k, d.m.l
	checkLens(d.Name(), dst, s, K, L)
	for k := 0; k < K; k++ {
		dot := 0
		for _, i := range d.cols[d.start[2*k]:d.start[2*k+1]] {
			dot += sign(s[i])
		}
		for _, i := range d.cols[d.start[2*k+1]:d.start[2*k+2]] {
			dot -= sign(s[i])
		}
		if d.vote {
			// Σ (1 + wᵢcᵢ)/2 − zeros/2
			dst[k] = (float64(L+dot) - d.zeros[k]) / 2
		} else {
			// −Σ (1 − wᵢcᵢ)/2
			dst[k] = -float64(L-dot) / 2
		}
	}
	return argmax(dst)
}

// lossFunc returns the margin loss L(z) of a loss-decoder name.
func lossFunc(name string) (func(z float64) float64, bool) {
	switch name {
	case LossExp:
		return func(z float64) float64 { return math.Exp(-z) }, true
	case LossHinge:
		return func(z float64) float64 { return math.Max(0, 1-z) }, true
	case LossLogit:
		return func(z float64) float64 {
			// log(1 + e^{−z}) without overflow.
			if z > 0 {
				return math.Log1p(math.Exp(-z))
			}
			return -z + math.Log1p(math.Exp(z))
		}, true
	case LossSquared:
		return func(z float64) float64 { return (1 - z) * (1 - z) }, true
	case LossZeroOne:
		return func(z float64) float64 { return float64(1-sign(z)) / 2 }, true
	case LossLinear:
		return func(z float64) float64 { return -z }, true
	}
	return nil, false
}

// Loss returns the margin loss L(z) of a "loss:…" decoder name.
func Loss(name string) (func(z float64) float64, error) {
	f, ok := lossFunc(name)
	if !ok {
		return nil, fmt.Errorf("unknown loss decoder %q (valid: %s, %s, %s, %s, %s, %s)", name,
			LossExp, LossHinge, LossLogit, LossSquared, LossZeroOne, LossLinear)
	}
	return f, nil
}

// lossDecoder is loss-based decoding: score_k = −Σᵢ L(sᵢ·c_{ki}).
type lossDecoder struct {
	name   string
	m      *Matrix
	loss   func(float64) float64
	atZero float64
}

func (d *lossDecoder) Name() string     { return d.name }
func (d *lossDecoder) Dims() (int, int) { return d.m.k, d.m.l }

func (d *lossDecoder) Decode(dst, s []float64) (int, bool) {
	K, L := d.m.k, d.m.l
	checkLens(d.name, dst, s, K, L)
	for k := 0; k < K; k++ {
		var sum float64
		for i, c := range d.m.data[k*L : (k+1)*L] {
			if c == 0 {
				sum += d.atZero // L(0), also for infinite sᵢ
			} else {
				sum += d.loss(s[i] * float64(c))
			}
		}
		dst[k] = -sum
	}
	return argmax(dst)
}

// coverageDecoder scores class k by Σ_{i: sᵢ>0} counts[i][k].
type coverageDecoder struct {
	k, l   int
	counts *mat.Dense
}

func (d *coverageDecoder) Name() string     { return Coverage }
func (d *coverageDecoder) Dims() (int, int) { return d.k, d.l }

func (d *coverageDecoder) Decode(dst, s []float64) (int, bool) {
	checkLens(Coverage, dst, s, d.k, d.l)
	clear(dst)
	for i, v := range s {
		if v > 0 {
			for k, c := range d.counts.RawRowView(i) {
				dst[k] += c
			}
		}
	}
	return argmax(dst)
}

// CoverageCounts builds the L × K coverage table of the "coverage"
// decoder from training scores (n × L, one column per binary problem) and
// their labels in 0..K−1: entry (i, k) counts the training rows of class k
// for which problem i's score is positive (> 0).
func CoverageCounts(scores *mat.Dense, labels []int, K int) (*mat.Dense, error) {
	n, L := scores.Dims()
	if len(labels) != n {
		return nil, fmt.Errorf("coverage counts: %d labels for %d score rows", len(labels), n)
	}
	if K < 1 {
		return nil, fmt.Errorf("coverage counts: need at least 1 class, got %d", K)
	}
	P := mat.NewDense(L, K, nil)
	for r, y := range labels {
		if y < 0 || y >= K {
			return nil, fmt.Errorf("coverage counts: label %d of row %d is outside 0..%d", y, r, K-1)
		}
		for i, v := range scores.RawRowView(r) {
			if v > 0 {
				P.Set(i, y, P.At(i, y)+1)
			}
		}
	}
	return P, nil
}

// sequentialDecoder walks a decision list.
type sequentialDecoder struct {
	order []int // order[t] is the +1 class of column t; order[K−1] the last
}

func (d *sequentialDecoder) Name() string     { return Sequential }
func (d *sequentialDecoder) Dims() (int, int) { return len(d.order), len(d.order) - 1 }

// Decode walks the list: the first column t with sₜ > 0 predicts order[t];
// if none does, the last class order[K−1] is predicted. The class score of
// order[t] is its margin min(−s₀, …, −s_{t−1}, sₜ) (without sₜ for the last
// class): the predicted class is the only one with a positive score when
// no output on the walked path is exactly 0, and always has a maximal
// score. tie is true when the walk passed an output of exactly 0 (an
// abstention treated as "not positive").
func (d *sequentialDecoder) Decode(dst, s []float64) (int, bool) {
	K := len(d.order)
	checkLens(Sequential, dst, s, K, K-1)
	prefix := math.Inf(1) // min(−s₀, …, −s_{t−1})
	pred, tie := -1, false
	for t, c := range d.order {
		if t == K-1 {
			dst[c] = prefix
			if pred < 0 {
				pred = c
			}
			break
		}
		dst[c] = math.Min(prefix, s[t])
		if pred < 0 {
			if s[t] == 0 {
				tie = true
			}
			if s[t] > 0 {
				pred = c
			}
		}
		prefix = math.Min(prefix, -s[t])
	}
	return pred, tie
}

// DecodeAll decodes every row of the n × L score matrix: it writes the
// class scores into dst, which must be n × K or empty (it is then resized),
// and returns the predicted classes and the number of tied rows. It fails
// if the dimensions disagree or a score is NaN.
func DecodeAll(dec Decoder, dst, scores *mat.Dense) ([]int, int, error) {
	K, L := dec.Dims()
	n, c := scores.Dims()
	if c != L {
		return nil, 0, fmt.Errorf("decode %s: scores have %d columns, the code has %d problems", dec.Name(), c, L)
	}
	if dst.IsEmpty() {
		dst.ReuseAs(n, K)
	} else if r, cc := dst.Dims(); r != n || cc != K {
		return nil, 0, fmt.Errorf("decode %s: dst is %d×%d, want %d×%d", dec.Name(), r, cc, n, K)
	}
	pred := make([]int, n)
	ties := 0
	for r := 0; r < n; r++ {
		row := scores.RawRowView(r)
		for i, v := range row {
			if math.IsNaN(v) {
				return nil, 0, fmt.Errorf("decode %s: score (%d,%d) is NaN", dec.Name(), r, i)
			}
		}
		var tie bool
		pred[r], tie = dec.Decode(dst.RawRowView(r), row)
		if tie {
			ties++
		}
	}
	return pred, ties, nil
}

// Softmax writes the row-wise softmax of the class scores src into dst
// (which must have src's shape or be empty): dst[r][k] =
// exp(src[r][k]) / Σⱼ exp(src[r][j]), computed stably. A row whose maximum
// is −∞ becomes uniform; a row with +∞ entries shares the mass equally
// among them. dst may be src.
func Softmax(dst, src *mat.Dense) {
	n, K := src.Dims()
	if dst != src {
		if dst.IsEmpty() {
			dst.ReuseAs(n, K)
		} else if r, c := dst.Dims(); r != n || c != K {
			panic(mat.ErrShape)
		}
	}
	for r := 0; r < n; r++ {
		in, out := src.RawRowView(r), dst.RawRowView(r)
		SoftmaxRow(out, in)
	}
}

// SoftmaxRow writes the softmax of one row of class scores s into dst (of
// s's length), as Softmax does for each row of a matrix.
func SoftmaxRow(dst, s []float64) {
	m := math.Inf(-1)
	for _, v := range s {
		m = math.Max(m, v)
	}
	switch {
	case math.IsInf(m, -1):
		for k := range dst {
			dst[k] = 1 / float64(len(dst))
		}
		return
	case math.IsInf(m, 1):
		var c float64
		for _, v := range s {
			if math.IsInf(v, 1) {
				c++
			}
		}
		for k, v := range s {
			dst[k] = 0
			if math.IsInf(v, 1) {
				dst[k] = 1 / c
			}
		}
		return
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
