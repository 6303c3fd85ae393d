package logistic

import (
	"context"
	"errors"
	"fmt"
	"iter"
)

// BatchProblem is one binary problem of FitBatch: labels ±1 and optional
// nonnegative row weights (nil means all 1), one per row of the shared
// design.
type BatchProblem struct {
	Y, S []float64
}

// FitBatch solves binary problems that share the design x (the K problems
// of a one-vs-rest reduction, say) with the trust-region Newton solver and
// returns one result per problem, in order.
//
// Every problem keeps its own trust region, CG iterations and stopping rule
// and drops out of the batch when it stops; its iterates and result are
// bit for bit those of Fit(x, Y, S, opt), whatever the other problems of
// the batch. The problems advance together: each round collects the next
// product with x of every problem still running (X·v, Xᵀ·v, (X∘X)ᵀ·v or
// the fused Xᵀ·(dd∘(X·v + vb)) of a Hessian-vector product) and computes
// all of them in one pass over x, the products of a kind side by side, one
// lane of a panel per problem (see panelRunner): on a dense design with
// the blockmul kernels,
// on a CSR design with the sparsemul ones. A problem's arithmetic does not
// depend on its lane or its neighbours.
//
// opt.Solver must be SolverNewton (or empty). opt.Seed is unused by it.
// The products run on opt.Workers goroutines, over chunks of rows; the
// solvers' own steps between them on the calling goroutine. ctx is checked
// between rounds.
func FitBatch(ctx context.Context, x Design, probs []BatchProblem, opt Options) ([]*Result, error) {
	if opt.Solver != "" && opt.Solver != SolverNewton {
		return nil, fmt.Errorf("%w: FitBatch supports the %s solver only, not %q", ErrInput, SolverNewton, opt.Solver)
	}
	res, errs, err := solveBatch(ctx, x, probs, opt)
	if err != nil {
		return nil, err
	}
	for k, err := range errs {
		if err != nil {
			errs[k] = fmt.Errorf("problem %d of the batch: %w", k, err)
		}
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	return res, nil
}

// solveBatch runs the problems of a batch together (see FitBatch) and
// returns each problem's result or error; err reports a cancelled ctx.
func solveBatch(ctx context.Context, x Design, probs []BatchProblem, opt Options) (res []*Result, errs []error, err error) {
	res = make([]*Result, len(probs))
	errs = make([]error, len(probs))
	nexts := make([]func() (*product, bool), len(probs))
	explicit := ExplicitHessian(x)
	for k, p := range probs {
		next, stop := iter.Pull(func(yield func(*product) bool) {
			defer recoverStopped()
			res[k], errs[k] = fit(&deferredDesign{x: x, yield: yield, explicit: explicit}, p.Y, p.S, opt)
		})
		defer stop()
		nexts[k] = next
	}
	run := productRunner(x, opt.Workers)
	live := make([]int, len(probs))
	for k := range live {
		live[k] = k
	}
	reqs := make([]*product, 0, len(probs))
	for len(live) > 0 {
		if err := ctx.Err(); err != nil {
			return nil, nil, fmt.Errorf("logistic: batch of %d problems: %w", len(probs), err)
		}
		reqs, live = advance(nexts, live, reqs[:0])
		run(reqs)
	}
	return res, errs, nil
}

// advance resumes the problems in live until each asks for its next
// product; it returns reqs with the requests appended and the problems
// still running (live reused).
func advance(nexts []func() (*product, bool), live []int, reqs []*product) ([]*product, []int) {
	still := live[:0]
	for _, k := range live {
		if r, ok := nexts[k](); ok {
			reqs = append(reqs, r)
			still = append(still, k)
		}
	}
	return reqs, still
}

// productOp names a product with the design.
type productOp uint8

const (
	opMulVec        productOp = iota + 1 // dst = X·src
	opMulVecTrans                        // dst = Xᵀ·src
	opMulVecTransSq                      // dst = (X∘X)ᵀ·src
	opHessVec                            // tmp = dd∘(X·src + vb), dst = Xᵀ·tmp, hb = Σ tmp
	opGram                               // dst = packed upper triangle of Σᵢ dd[i]·x̃ᵢx̃ᵢᵀ (see gram.go)

	numOps = int(opGram) // the number of kinds of product
)

// product is a product a problem of a batch waits for.
type product struct {
	op       productOp
	dst, src []float64
	// tmp, dd and vb are the operands of opHessVec, hb its sum; tmp is
	// scratch the dense kernels leave alone. dd is opGram's operand too.
	tmp, dd []float64
	vb, hb  float64
}

// errStopped unwinds a problem of a batch whose driver stopped early.
var errStopped = errors.New("logistic: batch stopped")

// recoverStopped ends a problem's coroutine quietly when its batch was
// stopped and re-raises any other panic.
func recoverStopped() {
	if r := recover(); r != nil && r != errStopped {
		panic(r)
	}
}

// deferredDesign is the Design a problem of a batch solves on: it hands
// each product to the batch driver (yield) and resumes when the driver has
// computed it. Row access goes to the design directly.
type deferredDesign struct {
	x     Design
	yield func(*product) bool
	req   product
	// explicit is ExplicitHessian(x): the problem forms its explicit
	// Hessian.
	explicit bool
}

func (d *deferredDesign) Dims() (n, c int) { return d.x.Dims() }

func (d *deferredDesign) MulVec(dst, x []float64) { d.await(opMulVec, dst, x) }

func (d *deferredDesign) MulVecTrans(dst, v []float64) { d.await(opMulVecTrans, dst, v) }

func (d *deferredDesign) MulVecTransSq(dst, v []float64) { d.await(opMulVecTransSq, dst, v) }

func (d *deferredDesign) RowDot(i int, w []float64) float64 { return d.x.RowDot(i, w) }

func (d *deferredDesign) AddRow(dst []float64, i int, alpha float64) { d.x.AddRow(dst, i, alpha) }

func (d *deferredDesign) await(op productOp, dst, src []float64) {
	d.req = product{op: op, dst: dst, src: src}
	if !d.yield(&d.req) {
		panic(errStopped)
	}
}
