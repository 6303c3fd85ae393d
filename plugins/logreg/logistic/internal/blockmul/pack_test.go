package blockmul

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/polyclass/polyclass/plugins/logreg/logistic/internal/bitstest"
)

// TestPackUnpack: Pack puts column c's row r at r·w+c, Unpack gives the
// columns back, for widths of whole and half 8-lane chunks and row counts
// around multiples of 4, columns longer than rows.
func TestPackUnpack(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	for _, w := range []int{0, 4, 8, 12, 16, 28} {
		for _, rows := range []int{0, 1, 3, 4, 5, 8, 13, 64, 67} {
			cols := make([][]float64, w)
			for c := range cols {
				cols[c] = fill(rng, rows+c%3, 0.05)
			}
			dst := make([]float64, rows*w+1)
			dst[rows*w] = 7 // past the panel: left alone
			Pack(dst, w, cols, rows)
			for r := range rows {
				for c := range w {
					if !bitstest.Same(dst[r*w+c], cols[c][r]) {
						t.Fatalf("w %d rows %d: Pack put %v at row %d lane %d, want %v", w, rows, dst[r*w+c], r, c, cols[c][r])
					}
				}
			}
			if dst[rows*w] != 7 {
				t.Fatalf("w %d rows %d: Pack wrote past the panel", w, rows)
			}
			back := make([][]float64, w)
			for c := range back {
				back[c] = make([]float64, rows+1)
				back[c][rows] = 7
			}
			Unpack(back, dst, w, rows)
			for c := range w {
				bitstest.Equal(t, fmt.Sprintf("w %d rows %d: column %d", w, rows, c), back[c][:rows], cols[c][:rows])
				if back[c][rows] != 7 {
					t.Fatalf("w %d rows %d: Unpack wrote past column %d", w, rows, c)
				}
			}
		}
	}
}

func TestPackPanics(t *testing.T) {
	for name, f := range map[string]func(){
		"width not a multiple of 4": func() { Pack(make([]float64, 8), 2, make([][]float64, 2), 1) },
		"short column":              func() { Pack(make([]float64, 8), 4, [][]float64{{1, 2}, {1, 2}, {1}, {1, 2}}, 2) },
		"columns for another width": func() { Unpack(make([][]float64, 4), make([]float64, 16), 8, 2) },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: no panic", name)
				}
			}()
			f()
		}()
	}
}

func BenchmarkPack(b *testing.B) {
	rng := rand.New(rand.NewPCG(7, 8))
	cols := make([][]float64, benchW)
	for c := range cols {
		cols[c] = fill(rng, benchBlock, 0)
	}
	dst := make([]float64, benchBlock*benchW)
	b.SetBytes(benchBlock * benchW * 8)
	for b.Loop() {
		Pack(dst, benchW, cols, benchBlock)
	}
}
