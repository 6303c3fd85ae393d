//go:build noasm || !amd64

package softplus

// useAsm is false: there is no assembly kernel for this architecture, or
// the noasm build tag leaves it out (the Go kernel gives the same bits).
const useAsm = false

// useAsm512 is false, as useAsm.
const useAsm512 = false

func evalAsm(l, e, t *float64, n int) { panic("softplus: no assembly") }

func lossAsm(z *float64, b float64, y, s, e *float64, n int, part *[4]float64) {
	panic("softplus: no assembly")
}

func lossAsm8(z *float64, b float64, y, s, e *float64, n int, part *[4]float64) {
	panic("softplus: no assembly")
}

func gradAsm(dd, r, z, y, s, e *float64, c float64, n int, part *[4]float64) {
	panic("softplus: no assembly")
}
