package convert

// The reference implementation of grouping.constant as it was before its
// bounds check was hoisted, a test that holds the current code to it on
// the letter one-vs-one plan, and benchmarks of both.

import (
	"math"
	"slices"
	"testing"

	"github.com/polyclass/polyclass/framework/problem"
)

// refConstant is grouping.constant before the optimisation: t[i] bounds
// checked in the loop over the rows.
func refConstant(gr *grouping, t []float64) ([]int8, bool) {
	col := make([]int8, len(gr.reps))
	val := make([]uint64, len(gr.reps))
	for g, r := range gr.reps {
		v, ok := ternary(t[r])
		if !ok {
			return nil, false
		}
		col[g], val[g] = v, math.Float64bits(t[r])
	}
	for i, g := range gr.groups {
		if math.Float64bits(t[i]) != val[g] {
			return nil, false
		}
	}
	return col, true
}

// letterGrouping returns the grouping of the letter one-vs-one plan of
// one fold (325 problems over 18000 rows, 26 groups) and its problems.
func letterGrouping(t testing.TB) (*grouping, []problem.Problem) {
	t.Helper()
	ps := letterOneVsOne(18000)
	gr := &grouping{groups: make([]int32, 18000), reps: []int{0}}
	for _, p := range ps {
		if !gr.add(p.Targets) {
			t.Fatal("no compact form")
		}
	}
	return gr, ps
}

func TestConstantMatchesReference(t *testing.T) {
	gr, ps := letterGrouping(t)
	var cases [][]float64
	for _, p := range ps {
		cases = append(cases, p.Targets)
	}
	// Not constant on a group (the last row, a middle row), a −0, a 2,
	// and a row count that differs from the groups' (longer).
	for _, i := range []int{17999, 9000} {
		v := slices.Clone(ps[0].Targets)
		v[i] = -v[i] + 1
		cases = append(cases, v)
	}
	negZero := slices.Clone(ps[5].Targets)
	negZero[0] = math.Copysign(0, -1)
	two := slices.Clone(ps[7].Targets)
	two[100] = 2
	cases = append(cases, negZero, two, append(slices.Clone(ps[3].Targets), 1))
	for c, v := range cases {
		got, ok := gr.constant(v)
		want, wantOK := refConstant(gr, v)
		if ok != wantOK || !slices.Equal(got, want) {
			t.Errorf("case %d: constant = %v, %v; reference %v, %v", c, got, ok, want, wantOK)
		}
	}
}

// BenchmarkConstant: every problem of the letter one-vs-one plan of one
// fold (325 problems × 18000 rows) checked against its 26 class groups,
// the reference and the current code.
func BenchmarkConstant(b *testing.B) {
	gr, ps := letterGrouping(b)
	for _, impl := range []struct {
		name string
		f    func(*grouping, []float64) ([]int8, bool)
	}{{"reference", refConstant}, {"optimised", (*grouping).constant}} {
		b.Run(impl.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				for _, p := range ps {
					if _, ok := impl.f(gr, p.Targets); !ok {
						b.Fatal("not constant")
					}
				}
			}
		})
	}
}
