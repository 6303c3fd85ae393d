package linsvm

import (
	"fmt"
	"math"
	"math/rand/v2"
)

// DefaultEpochs is the number of passes PerceptronOptions.Epochs = 0 selects.
const DefaultEpochs = 100

// PerceptronOptions configures Perceptron and Pocket.
type PerceptronOptions struct {
	// Epochs is the maximum number of passes over the data; 0 means
	// DefaultEpochs.
	Epochs int
	// Bias is the value of the constant feature appended to every row;
	// Bias ≤ 0 means no bias. (The perceptron is scale invariant, so any
	// positive value only changes how fast the intercept moves.)
	Bias float64
	// Seed seeds the random visiting order drawn at every epoch.
	Seed uint64
}

// PerceptronResult is a fitted perceptron.
type PerceptronResult struct {
	// W holds the d feature weights.
	W []float64
	// B is the intercept; the predicted label of x is +1 when W·x + B > 0
	// and −1 otherwise.
	B float64
	// Errors is the number of training rows with yᵢ(W·xᵢ + B) ≤ 0.
	Errors int
	// Updates is the number of perceptron updates made.
	Updates int
	// Epochs is the number of passes run.
	Epochs int
	// Converged reports whether a whole pass made no update (the data are
	// then separated by W, B).
	Converged bool
}

// Perceptron runs Rosenblatt's perceptron learning algorithm (PLA) on x
// with labels y ∈ {−1,+1}: starting from zero, every row visited with
// yᵢ(w·xᵢ + b) ≤ 0 triggers w += yᵢxᵢ, b += yᵢ·Bias. Each epoch visits the
// rows in a fresh seeded random order; it stops after a pass without an
// update or after Epochs passes, and returns the final weights.
func Perceptron(x Rows, y []float64, opt PerceptronOptions) (*PerceptronResult, error) {
	return pla(x, y, opt, false)
}

// Pocket runs the perceptron like Perceptron but keeps "in its pocket" the
// weights with the fewest training errors seen so far (evaluated after
// every update; ties keep the earlier weights) and returns those.
func Pocket(x Rows, y []float64, opt PerceptronOptions) (*PerceptronResult, error) {
	return pla(x, y, opt, true)
}

func pla(x Rows, y []float64, opt PerceptronOptions, pocket bool) (*PerceptronResult, error) {
	n, d := x.Dims()
	if len(y) != n {
		return nil, fmt.Errorf("%w: %d labels for %d rows", ErrInput, len(y), n)
	}
	for i, v := range y {
		if v != 1 && v != -1 {
			return nil, fmt.Errorf("%w: label %v at row %d is not ±1", ErrInput, v, i)
		}
	}
	epochs := opt.Epochs
	if epochs == 0 {
		epochs = DefaultEpochs
	}
	if epochs < 0 {
		return nil, fmt.Errorf("%w: Epochs = %d, want ≥ 0", ErrInput, epochs)
	}
	bias := opt.Bias
	if math.IsNaN(bias) || math.IsInf(bias, 1) {
		return nil, fmt.Errorf("%w: Bias = %v, want a finite value", ErrInput, bias)
	}
	bias = max(bias, 0)

	w := make([]float64, d+1) // w[d] is the bias-feature weight
	var best []float64
	bestErr := n // zero weights misclassify every row (y·0 ≤ 0)
	if pocket {
		best = make([]float64, d+1)
	}
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	rng := rand.New(rand.NewPCG(opt.Seed, permSeq))
	res := &PerceptronResult{}
	for res.Epochs < epochs {
		res.Epochs++
		rng.Shuffle(n, func(i, j int) { order[i], order[j] = order[j], order[i] })
		updated := false
		for _, i := range order {
			idx, val := x.Row(i)
			yi := y[i]
			if yi*(rowDot(idx, val, w)+w[d]*bias) > 0 {
				continue
			}
			rowAxpy(yi, idx, val, w)
			w[d] += yi * bias
			res.Updates++
			updated = true
			if pocket {
				if e := countErrors(x, y, w, bias, bestErr); e < bestErr {
					bestErr = e
					copy(best, w)
				}
			}
		}
		if !updated {
			res.Converged = true
			break
		}
	}
	if pocket {
		w = best
	}
	res.W = w[:d:d]
	res.B = w[d] * bias
	res.Errors = countErrors(x, y, w, bias, n+1)
	return res, nil
}

// countErrors counts rows with yᵢ(w·x̃ᵢ) ≤ 0, stopping early once the count
// reaches limit (the result is then ≥ limit).
func countErrors(x Rows, y, w []float64, bias float64, limit int) int {
	d := len(w) - 1
	e := 0
	for i, yi := range y {
		idx, val := x.Row(i)
		if yi*(rowDot(idx, val, w)+w[d]*bias) <= 0 {
			e++
			if e >= limit {
				break
			}
		}
	}
	return e
}
