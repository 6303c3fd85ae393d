//go:build !amd64

package softplus

// useAsm is false: there is no assembly kernel for this architecture.
const useAsm = false

func evalAsm(l, e, t *float64, n int) { panic("softplus: no assembly") }
