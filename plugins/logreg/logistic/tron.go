package logistic

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/floats"
)

// Trust-region constants of LIBLINEAR's TRON (Lin, Weng & Keerthi 2008).
const (
	tronEta0, tronEta1, tronEta2       = 1e-4, 0.25, 0.75
	tronSigma1, tronSigma2, tronSigma3 = 0.25, 0.5, 4.0
	tronEpsCG                          = 0.1  // relative CG residual tolerance
	tronAlphaPCG                       = 0.01 // preconditioner mixing weight
	// tronMaxRejects bounds the trial steps rejected in a row. Each
	// rejection at least halves the trust region, so on finite values 200
	// of them shrink it by 2⁻²⁰⁰ and the solver has stalled; the bound
	// makes every fit end after at most (MaxIter+1)·(tronMaxRejects+1)
	// trial steps, whatever its arithmetic does.
	tronMaxRejects = 200
)

// tron minimises p from theta in place with LIBLINEAR's trust-region
// Newton method and diagonal-preconditioned CG, stopping once ∇f meets
// thresh. On entry f = f(theta), g = ∇f(theta) and p holds the state of
// those two calls; on return theta is the last iterate, g its gradient and
// p the state of its grad call. It returns the number of accepted steps
// and f(theta). A non-finite value (a gradient, the Hessian's diagonal, a
// step, a trust region, a predicted reduction or a NaN objective) ends it
// with an error wrapping ErrNonFinite; an overflowing objective (+Inf)
// only rejects its step.
func tron(p *binProblem, theta, g []float64, f float64, thresh stopRule, maxIter int) (int, float64, error) {
	np := len(theta)
	ws := make([]float64, 7*np)
	s, r, m, wNew := ws[:np], ws[np:2*np], ws[2*np:3*np], ws[3*np:4*np]
	cgD, cgHd, cgZ := ws[4*np:5*np], ws[5*np:6*np], ws[6*np:7*np]

	if err := finiteAt(0, "objective", []float64{f}, "gradient", g); err != nil {
		return 0, f, err
	}
	if thresh.met(g) {
		return 0, f, nil
	}
	tronPrecond(p, m)
	delta := mNorm(g, m)
	deltaAdjusted := false
	iter := 1
	rejects := 0
	for iter <= maxIter && rejects <= tronMaxRejects {
		if err := finiteAt(iter, "Hessian diagonal", m, "trust region", []float64{delta}); err != nil {
			return iter - 1, f, err
		}
		reach := trpcg(p, delta, g, m, s, r, cgD, cgHd, cgZ)
		copy(wNew, theta)
		floats.Add(wNew, s)
		gs := floats.Dot(g, s)
		prered := -0.5 * (gs - floats.Dot(s, r))
		if err := finiteAt(iter, "Newton step", s, "predicted reduction", []float64{prered}); err != nil {
			return iter - 1, f, err
		}
		fnew := p.fun(wNew)
		if math.IsNaN(fnew) {
			return iter - 1, f, fmt.Errorf("%w: newton iteration %d: the objective at the trial point is NaN", ErrNonFinite, iter)
		}
		actred := f - fnew

		sMnorm := mNorm(s, m)
		if iter == 1 && !deltaAdjusted {
			delta = math.Min(delta, sMnorm)
			deltaAdjusted = true
		}
		var alpha float64
		if fnew-f-gs <= 0 {
			alpha = tronSigma3
		} else {
			alpha = math.Max(tronSigma1, -0.5*(gs/(fnew-f-gs)))
		}
		switch {
		case actred < tronEta0*prered:
			delta = math.Min(alpha*sMnorm, tronSigma2*delta)
		case actred < tronEta1*prered:
			delta = math.Max(tronSigma1*delta, math.Min(alpha*sMnorm, tronSigma2*delta))
		case actred < tronEta2*prered:
			delta = math.Max(tronSigma1*delta, math.Min(alpha*sMnorm, tronSigma3*delta))
		case reach:
			delta = tronSigma3 * delta
		default:
			delta = math.Max(delta, math.Min(alpha*sMnorm, tronSigma3*delta))
		}
		rejects++
		if actred > tronEta0*prered {
			rejects = 0
			iter++
			copy(theta, wNew)
			f = fnew
			p.grad(theta, g)
			if err := finiteAt(iter-1, "objective", []float64{f}, "gradient", g); err != nil {
				return iter - 1, f, err
			}
			if thresh.met(g) {
				break // the preconditioner of θ would go unused
			}
			tronPrecond(p, m)
		}
		if prered <= 0 {
			break
		}
		if math.Abs(actred) <= 1e-12*math.Abs(f) && math.Abs(prered) <= 1e-12*math.Abs(f) {
			break
		}
	}
	return iter - 1, f, nil
}

// finiteAt returns an error wrapping ErrNonFinite naming the first of the
// two named vectors with a non-finite entry at newton iteration iter, or
// nil when both are finite.
func finiteAt(iter int, name1 string, v1 []float64, name2 string, v2 []float64) error {
	for _, v := range []struct {
		name string
		x    []float64
	}{{name1, v1}, {name2, v2}} {
		if j, ok := firstNonFinite(v.x); !ok {
			return fmt.Errorf("%w: newton iteration %d: %s entry %d is %v", ErrNonFinite, iter, v.name, j, v.x[j])
		}
	}
	return nil
}

// firstNonFinite returns the index of v's first NaN or infinite entry
// and false, or 0 and true when every entry is finite.
func firstNonFinite(v []float64) (int, bool) {
	for j, x := range v {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return j, false
		}
	}
	return 0, true
}

// tronPrecond sets m to LIBLINEAR's mixed diagonal preconditioner
// (1−α)·1 + α·diag(∇²f).
func tronPrecond(p *binProblem, m []float64) {
	p.precond(m)
	for i := range m {
		m[i] = (1 - tronAlphaPCG) + tronAlphaPCG*m[i]
	}
}

// mNorm returns ‖u‖_M = √(uᵀ·diag(m)·u), m ≥ 0, as LIBLINEAR computes it
// (the square root of the sum in order), or, where that sum overflows
// (features near 1e100 make the gradient near 1e100 and the Hessian's
// diagonal near 1e200), as the scaled Euclidean norm of u_i·√m_i, which
// does not: a trust region that is finite wherever the norm is.
func mNorm(u, m []float64) float64 {
	if s := uTMv(u, m, u); !math.IsInf(s, 1) {
		return math.Sqrt(s)
	}
	a := make([]float64, len(u))
	for i, v := range u {
		a[i] = v * math.Sqrt(m[i])
	}
	return floats.Norm(a, 2)
}

// uTMv returns Σ uᵢ·mᵢ·vᵢ.
func uTMv(u, m, v []float64) float64 {
	var s float64
	for i := range u {
		s += u[i] * m[i] * v[i]
	}
	return s
}

// trpcg approximately solves ∇²f·s = −g within the trust region
// ‖s‖_M ≤ delta by preconditioned CG. On return r = −g − ∇²f·s. It reports
// whether the step reached the trust-region boundary.
func trpcg(p *binProblem, delta float64, g, m, s, r, d, hd, z []float64) bool {
	for i := range g {
		s[i] = 0
		r[i] = -g[i]
		z[i] = r[i] / m[i]
		d[i] = z[i]
	}
	zTr := floats.Dot(z, r)
	cgtol := tronEpsCG * math.Sqrt(zTr)
	maxCG := max(len(g), 5)
	for it := 0; it < maxCG; it++ {
		if math.Sqrt(zTr) <= cgtol {
			break
		}
		p.hv(d, hd)
		alpha := zTr / floats.Dot(d, hd)
		floats.AddScaled(s, alpha, d)
		if math.Sqrt(uTMv(s, m, s)) > delta {
			// Step back and move to the boundary along d.
			floats.AddScaled(s, -alpha, d)
			sTMd := uTMv(s, m, d)
			sTMs := uTMv(s, m, s)
			dTMd := uTMv(d, m, d)
			dsq := delta * delta
			rad := math.Sqrt(sTMd*sTMd + dTMd*(dsq-sTMs))
			if sTMd >= 0 {
				alpha = (dsq - sTMs) / (sTMd + rad)
			} else {
				alpha = (rad - sTMd) / dTMd
			}
			floats.AddScaled(s, alpha, d)
			floats.AddScaled(r, -alpha, hd)
			return true
		}
		floats.AddScaled(r, -alpha, hd)
		for i := range z {
			z[i] = r[i] / m[i]
		}
		zNew := floats.Dot(z, r)
		beta := zNew / zTr
		for i := range d {
			d[i] = z[i] + beta*d[i]
		}
		zTr = zNew
	}
	return false
}
