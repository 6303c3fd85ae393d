package engine

import (
	"sync/atomic"
	"time"
)

// phase is a step of a fold's work, timed by the run's phaseClock.
type phase int

// The phases of a fold, in the order a fold goes through them.
const (
	phaseEncode  phase = iota // the pipeline's design matrix (design)
	phaseUpload               // sending a matrix to the learner
	phasePlan                 // the reducer's plan
	phaseFit                  // the learner's fits
	phaseWait                 // waiting for fits another fold makes (fitTable)
	phasePredict              // the learner's predictions
	phaseDecode               // the reducer's decoding
	phaseScore                // the metrics of a fold
	phaseViews                // a finished cell's threshold views
	phaseCount
)

// phaseNames name the phases in Stats.Phases.
var phaseNames = [phaseCount]string{"encode", "upload", "plan", "fit", "wait for shared fits", "predict", "decode", "score", "views"}

// phaseClock sums the time the run's workers spend in each phase. A nil
// clock times nothing.
type phaseClock struct {
	ns [phaseCount]atomic.Int64
}

// since adds the time since start to phase p.
func (c *phaseClock) since(p phase, start time.Time) {
	if c != nil {
		c.ns[p].Add(int64(time.Since(start)))
	}
}

// PhaseTime is the time a run's workers spent in one phase of their folds,
// summed over the workers: a phase that two workers run side by side for
// a second counts two.
type PhaseTime struct {
	Name    string
	Seconds float64
}

// phases returns the clock's sums, in phase order.
func (c *phaseClock) phases() []PhaseTime {
	out := make([]PhaseTime, phaseCount)
	for p := range phaseCount {
		out[p] = PhaseTime{Name: phaseNames[p], Seconds: time.Duration(c.ns[p].Load()).Seconds()}
	}
	return out
}
