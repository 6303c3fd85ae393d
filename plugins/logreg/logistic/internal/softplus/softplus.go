package softplus

import (
	"fmt"
	"math"
)

// Eval sets e[i] = exp(−|t[i]|) and l[i] = log(1 + exp(−t[i])) for every i
// (see the package documentation for the method). l may be t itself.
func Eval(l, e, t []float64) {
	if len(l) < len(t) || len(e) < len(t) {
		panic(fmt.Sprintf("softplus.Eval: %d margins, %d and %d outputs", len(t), len(l), len(e)))
	}
	n4 := 0
	if useAsm {
		n4 = len(t) &^ 3
		if n4 > 0 {
			evalAsm(&l[0], &e[0], &t[0], n4)
		}
	}
	for i := n4; i < len(t); i++ {
		l[i], e[i] = eval(t[i])
	}
}

// Constants of the method; asm_amd64.s holds the same bits.
const (
	clampX  = -746.0
	ln2Hi   = 6.93147180369123816490e-01 // 0x3fe62e42fee00000
	ln2Lo   = 1.90821492927058770002e-10 // 0x3dea39ef35793c76
	sqrt2M1 = 4.142135623730950488017e-01
	lp1     = 6.666666666666735130e-01
	lp2     = 3.999999999940941908e-01
	lp3     = 2.857142874366239149e-01
	lp4     = 2.222219843214978396e-01
	lp5     = 1.818357216161805012e-01
	lp6     = 1.531383769920937332e-01
	lp7     = 1.479819860511658591e-01
)

// invFact holds 1/k! for k = 13, 12, …, 0, the Taylor coefficients of
// exp in Horner order.
var invFact = [14]float64{
	1.6059043836821613e-10, 2.08767569878681e-09, 2.505210838544172e-08,
	2.7557319223985888e-07, 2.7557319223985893e-06, 2.4801587301587302e-05,
	0.00019841269841269841, 0.0013888888888888889, 0.0083333333333333332,
	0.041666666666666664, 0.16666666666666666, 0.5, 1, 1,
}

// eval is Eval for one margin, in Go. The conversions keep the compiler
// from fusing a product into a following sum.
func eval(t float64) (l, e float64) {
	e = expNeg(t)
	lp := log1p(e)
	if t >= 0 {
		return lp, e
	}
	return -t + lp, e
}

// expNeg returns exp(−|t|).
func expNeg(t float64) float64 {
	x := -math.Abs(t)
	if x < clampX {
		x = clampX
	}
	k := math.RoundToEven(x * math.Log2E)
	r := math.FMA(-k, ln2Hi, x)
	r = math.FMA(-k, ln2Lo, r)
	p := invFact[0]
	for _, c := range invFact[1:] {
		p = math.FMA(p, r, c)
	}
	ki := int64(k)
	k1 := ki >> 1
	k2 := ki - k1
	return float64(p*math.Float64frombits(uint64(k1+1023)<<52)) * math.Float64frombits(uint64(k2+1023)<<52)
}

// log1p returns log(1 + e) for 0 ≤ e ≤ 1.
func log1p(e float64) float64 {
	f, c, k := e, 0.0, 0.0
	if e >= sqrt2M1 {
		u := 1 + e
		c = (e - (u - 1)) / u
		f = float64(u*0.5) - 1
		k = 1
	}
	hfsq := float64(float64(0.5*f) * f)
	s := f / (2 + f)
	z := float64(s * s)
	q := math.FMA(lp7, z, lp6)
	q = math.FMA(q, z, lp5)
	q = math.FMA(q, z, lp4)
	q = math.FMA(q, z, lp3)
	q = math.FMA(q, z, lp2)
	q = math.FMA(q, z, lp1)
	r := float64(z * q)
	a := float64(s*(hfsq+r)) + (float64(k*ln2Lo) + c)
	return float64(k*ln2Hi) - ((hfsq - a) - f)
}
