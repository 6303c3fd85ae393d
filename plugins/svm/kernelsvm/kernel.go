package kernelsvm

import (
	"errors"
	"fmt"
	"math"
)

// Kernel types accepted by Kernel.Type.
const (
	Linear  = "linear"
	RBF     = "rbf"
	Poly    = "poly"
	Sigmoid = "sigmoid"
)

// Kernel is a kernel function with LIBSVM's parameters:
//
//	linear:  K(x, z) = x·z
//	rbf:     K(x, z) = exp(−γ‖x − z‖²)
//	poly:    K(x, z) = (γ·x·z + coef0)^degree
//	sigmoid: K(x, z) = tanh(γ·x·z + coef0)
//
// Gamma must be positive for rbf, poly and sigmoid and Degree at least 1
// for poly (LIBSVM also accepts degree 0, a constant kernel; so does this
// package). The zero Kernel is not valid: Type is required.
type Kernel struct {
	Type   string
	Gamma  float64
	Degree int
	Coef0  float64
}

// Check reports whether the kernel's type and parameters are valid.
func (k Kernel) Check() error {
	switch k.Type {
	case Linear:
		return nil
	case RBF, Poly, Sigmoid:
		if !(k.Gamma > 0) || math.IsInf(k.Gamma, 0) {
			return fmt.Errorf("kernel %s: gamma = %v, want a finite value > 0", k.Type, k.Gamma)
		}
		if k.Type == Poly && k.Degree < 0 {
			return fmt.Errorf("kernel poly: degree = %d, want ≥ 0", k.Degree)
		}
		if math.IsNaN(k.Coef0) || math.IsInf(k.Coef0, 0) {
			return fmt.Errorf("kernel %s: coef0 = %v, want a finite value", k.Type, k.Coef0)
		}
		return nil
	case "":
		return errors.New("kernel: no type (want linear, rbf, poly or sigmoid)")
	}
	return fmt.Errorf("kernel: unknown type %q (want linear, rbf, poly or sigmoid)", k.Type)
}

// powi is LIBSVM's integer power by repeated squaring, which its poly
// kernel uses instead of pow: the same products in the same order.
func powi(base float64, times int) float64 {
	tmp, ret := base, 1.0
	for t := times; t > 0; t /= 2 {
		if t%2 == 1 {
			ret *= tmp
		}
		tmp *= tmp
	}
	return ret
}

// fromDot returns the kernel value of two rows from their dot product and
// squared norms, as LIBSVM's training kernel (Kernel::kernel_*) computes
// it: the rbf value is exp(−γ·(‖x‖² + ‖z‖² − 2·x·z)).
func (k *Kernel) fromDot(dot, sqx, sqz float64) float64 {
	switch k.Type {
	case RBF:
		return math.Exp(-k.Gamma * (sqx + sqz - 2*dot))
	case Poly:
		return powi(k.Gamma*dot+k.Coef0, k.Degree)
	case Sigmoid:
		return math.Tanh(k.Gamma*dot + k.Coef0)
	}
	return dot
}

// value returns K(a, b) of two rows as LIBSVM's Kernel::k_function, the
// form svm-predict uses: the rbf kernel from the summed squared
// differences rather than the norms.
func (k *Kernel) value(ia []int32, va []float64, ib []int32, vb []float64) float64 {
	switch k.Type {
	case RBF:
		return math.Exp(-k.Gamma * distRows(ia, va, ib, vb))
	case Poly:
		return powi(k.Gamma*dotRows(ia, va, ib, vb)+k.Coef0, k.Degree)
	case Sigmoid:
		return math.Tanh(k.Gamma*dotRows(ia, va, ib, vb) + k.Coef0)
	}
	return dotRows(ia, va, ib, vb)
}

// predictKernel evaluates k_function between rows of one design.
type predictKernel struct {
	k Kernel
	x *Data
}

func (p predictKernel) between(i, j int) float64 {
	ia, va := p.x.row(i)
	ib, vb := p.x.row(j)
	return p.k.value(ia, va, ib, vb)
}
