package softplus

import "fmt"

// Loss adds b to every margin z[i], sets e[i] = exp(−|y[i]·z[i]|) and
// returns the weighted logistic loss Σᵢ s[i]·log(1 + exp(−y[i]·z[i]))
// (s nil: all weights 1), each term as Eval computes it. y holds the
// labels ±1.
//
// The sum runs in four running sums over i ≡ 0, 1, 2, 3 (mod 4) up to the
// last whole group of four, combined as (S₀ + S₂) + (S₁ + S₃), then the
// remaining terms in order; a weighted term is rounded before it is added.
func Loss(z []float64, b float64, y, s, e []float64) float64 {
	n := len(z)
	if len(y) < n || len(e) < n || s != nil && len(s) < n {
		panic(fmt.Sprintf("softplus.Loss: %d margins, %d labels, %d weights, %d outputs", n, len(y), len(s), len(e)))
	}
	var part [4]float64
	n4 := n &^ 3
	switch {
	case useAsm512 && n >= 8:
		n8 := n &^ 7
		lossAsm8(&z[0], b, &y[0], first(s), &e[0], n8, &part)
		if n4 > n8 {
			var sr []float64
			if s != nil {
				sr = s[n8:]
			}
			lossGo(z[n8:n4], b, y[n8:], sr, e[n8:], &part)
		}
	case useAsm && n4 > 0:
		lossAsm(&z[0], b, &y[0], first(s), &e[0], n4, &part)
	default:
		lossGo(z[:n4], b, y, s, e, &part)
	}
	sum := (part[0] + part[2]) + (part[1] + part[3])
	for i := n4; i < n; i++ {
		z[i] += b
		l, ei := eval(y[i] * z[i])
		e[i] = ei
		if s != nil {
			l = float64(s[i] * l)
		}
		sum += l
	}
	return sum
}

// first returns the address of s[0], or nil for nil row weights (the
// kernels' "all 1").
func first(s []float64) *float64 {
	if s == nil {
		return nil
	}
	return &s[0]
}

// lossGo is the part of Loss for the whole groups of four (len(z) a
// multiple of 4), in Go: it adds term i to part[i mod 4].
func lossGo(z []float64, b float64, y, s, e []float64, part *[4]float64) {
	for i := range z {
		z[i] += b
		l, ei := eval(y[i] * z[i])
		e[i] = ei
		if s != nil {
			l = float64(s[i] * l)
		}
		part[i%4] += l
	}
}

// Grad sets, from the margins z with labels y (±1), row weights s (nil:
// all 1) and e[i] = exp(−|y[i]·z[i]|) as Loss left them, with
// σ = σ(y[i]·z[i]) = 1/(1 + exp(−y[i]·z[i])) and cs = c·s[i]:
//
//	dd[i] = (cs·σ)·(1 − σ)     the Hessian weight of row i
//	r[i]  = ((−cs)·y[i])·(1 − σ) the derivative of the loss by the margin
//
// and returns Σᵢ r[i], summed as Loss sums. σ is 1/(1+e) for a margin
// y·z ≥ 0 and e/(1+e) otherwise, without overflow.
func Grad(dd, r, z, y, s, e []float64, c float64) float64 {
	n := len(z)
	if len(dd) < n || len(r) < n || len(y) < n || len(e) < n || s != nil && len(s) < n {
		panic(fmt.Sprintf("softplus.Grad: %d margins, %d labels, %d weights, %d and %d outputs", n, len(y), len(s), len(dd), len(r)))
	}
	var part [4]float64
	n4 := n &^ 3
	if useAsm {
		if n4 > 0 {
			gradAsm(&dd[0], &r[0], &z[0], &y[0], first(s), &e[0], c, n4, &part)
		}
	} else {
		for i := range n4 {
			part[i%4] += grad1(dd, r, z, y, s, e, c, i)
		}
	}
	sum := (part[0] + part[2]) + (part[1] + part[3])
	for i := n4; i < n; i++ {
		sum += grad1(dd, r, z, y, s, e, c, i)
	}
	return sum
}

// grad1 is Grad for row i: it sets dd[i] and r[i] and returns r[i].
func grad1(dd, r, z, y, s, e []float64, c float64, i int) float64 {
	t := y[i] * z[i]
	sg := 1 / (1 + e[i])
	if !(t >= 0) {
		sg = e[i] / (1 + e[i])
	}
	cs := c
	if s != nil {
		cs = float64(c * s[i])
	}
	om := 1 - sg
	dd[i] = float64(cs*sg) * om
	r[i] = float64(-cs*y[i]) * om
	return r[i]
}

// Sum returns Σᵢ v[i] in the order of Loss's sum: four running sums over
// i ≡ 0, 1, 2, 3 (mod 4), combined as (S₀ + S₂) + (S₁ + S₃), then the
// remaining terms in order.
func Sum(v []float64) float64 {
	n4 := len(v) &^ 3
	var s0, s1, s2, s3 float64
	for i := 0; i < n4; i += 4 {
		s0 += v[i]
		s1 += v[i+1]
		s2 += v[i+2]
		s3 += v[i+3]
	}
	sum := (s0 + s2) + (s1 + s3)
	for _, x := range v[n4:] {
		sum += x
	}
	return sum
}
