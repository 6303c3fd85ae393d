package reftest

import (
	"testing"

	"gonum.org/v1/gonum/mat"
)

// ExtremeKinds are the changes ExtremeIris knows, the extreme feature
// values of issue 55 under which every native solver must end within its
// iteration bound.
var ExtremeKinds = []string{"1e160", "1e308", "-1e308", "minmax1e308"}

// ExtremeIris returns iris (150×4, classes 0..2) with the change named by
// kind: "1e160", "1e308" and "-1e308" set the sepal length of row 3 to
// that value (an unencoded outlier); "minmax1e308" scales every feature
// to [0, 1e308], as a minmax encoder with upper = 1e308 does.
func ExtremeIris(tb testing.TB, kind string) (*mat.Dense, []int) {
	tb.Helper()
	ds := Load(tb, "iris")
	x := mat.DenseCopyOf(ds.X)
	n, d := x.Dims()
	switch kind {
	case "1e160":
		x.Set(3, 0, 1e160)
	case "1e308":
		x.Set(3, 0, 1e308)
	case "-1e308":
		x.Set(3, 0, -1e308)
	case "minmax1e308":
		for j := range d {
			col := mat.Col(nil, j, x)
			lo, hi := col[0], col[0]
			for _, v := range col {
				lo, hi = min(lo, v), max(hi, v)
			}
			for i := range n {
				x.Set(i, j, (col[i]-lo)/(hi-lo)*1e308)
			}
		}
	default:
		tb.Fatalf("ExtremeIris: unknown kind %q", kind)
	}
	return x, ds.Y
}
