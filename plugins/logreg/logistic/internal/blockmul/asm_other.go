//go:build noasm || !amd64

package blockmul

// useAsm is false: there are no assembly kernels for this architecture,
// or the noasm build tag leaves them out (the Go kernels give the same
// bits).
const useAsm = false

func mulAsm(t, x *float64, stride, rows, d int, v *float64, w int) { panic("blockmul: no assembly") }

func mulScaleAsm(t, x *float64, stride, rows, d int, v *float64, w int, dd, vb, hb *float64) {
	panic("blockmul: no assembly")
}

func addTransAsm(h, x *float64, stride, rows, d int, t *float64, w int) {
	panic("blockmul: no assembly")
}

func addTransSqAsm(h, x *float64, stride, rows, d int, t *float64, w int) {
	panic("blockmul: no assembly")
}

func mul1Asm(t, x *float64, stride, rows, d int, v *float64) { panic("blockmul: no assembly") }

func mulScale1Asm(t, x *float64, stride, rows, d int, v, dd *float64, vb float64, hb *float64) {
	panic("blockmul: no assembly")
}

func addTrans1Asm(h, x *float64, stride, rows, d int, t *float64) { panic("blockmul: no assembly") }

func addTransSq1Asm(h, x *float64, stride, rows, d int, t *float64) {
	panic("blockmul: no assembly")
}

func packAsm(dst *float64, w int, cols *[]float64, rows int) { panic("blockmul: no assembly") }

func unpackAsm(cols *[]float64, src *float64, w int, rows int) { panic("blockmul: no assembly") }

func gramAsm(h, x *float64, stride, rows, d int, t *float64, w int) { panic("blockmul: no assembly") }

func gram1Asm(h, x *float64, stride, rows, d int, t *float64) { panic("blockmul: no assembly") }
