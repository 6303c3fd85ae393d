package kernelsvm

import "math"

// expNeg returns exp(g·t), the rbf kernel's exponential with g = −γ.
func expNeg(g, t float64) float64 { return math.Exp(g * t) }
