package matrix

import (
	"bytes"
	"encoding/binary"
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/polyclass/polyclass/framework/sparse"
)

// wireOf writes the wire bytes of m word by word, as the format defines
// them, for the tests to compare with.
func wireOf(m Matrix) []byte {
	var b []byte
	if c := m.CSR; c != nil {
		for _, v := range c.Indptr {
			b = binary.LittleEndian.AppendUint64(b, uint64(v))
		}
		for _, v := range c.Indices {
			b = binary.LittleEndian.AppendUint32(b, uint32(v))
		}
		for _, v := range c.Values {
			b = binary.LittleEndian.AppendUint64(b, math.Float64bits(v))
		}
		return b
	}
	r, _ := m.Dense.Dims()
	for i := range r {
		for _, v := range m.Dense.RawRowView(i) {
			b = binary.LittleEndian.AppendUint64(b, math.Float64bits(v))
		}
	}
	return b
}

// wordMatrices are matrices whose words test the byte order: a CSR matrix
// with negative and NaN values, a dense one, a strided dense view.
func wordMatrices() map[string]Matrix {
	big := mat.NewDense(3, 5, []float64{1, -2, math.NaN(), 4, 5, 6, 7, 8, 9, 10, math.Inf(-1), 12, 13, 14, 15})
	return map[string]Matrix{
		"csr": {CSR: &sparse.CSR{Rows: 2, Cols: 3, Indptr: []int64{0, 2, 3}, Indices: []int32{0, 2, 1},
			Values: []float64{math.Copysign(0, -1), math.NaN(), -1.5}}},
		"dense":   {Dense: big},
		"strided": {Dense: big.Slice(0, 3, 1, 4).(*mat.Dense)},
	}
}

// TestWireWords: the chunks of a matrix are its wire bytes, through the
// views of its memory, in bulk and word by word.
func TestWireWords(t *testing.T) {
	for name, m := range wordMatrices() {
		want := wireOf(m)
		var got []byte
		if err := m.chunks(len(want), func(p []byte) error { got = append(got, p...); return nil }, true); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s: chunks give %x, want %x", name, got, want)
		}
		for _, native := range []bool{false, true} {
			if native && !nativeLittle {
				continue
			}
			var got []byte
			cw := &chunkWriter{w: func(p []byte) error { got = append(got, p...); return nil }, buf: make([]byte, 0, ChunkSize)}
			if c := m.CSR; c != nil {
				putWordsAs(cw, c.Indptr, native)
				putWordsAs(cw, c.Indices, native)
				putWordsAs(cw, c.Values, native)
			} else {
				r, _ := m.Dense.Dims()
				for i := range r {
					putWordsAs(cw, m.Dense.RawRowView(i), native)
				}
			}
			cw.flush()
			if !bytes.Equal(got, want) {
				t.Errorf("%s (native %v): putWords gives %x, want %x", name, native, got, want)
			}
		}
	}
}

// TestDecodeWords: the decoders read the wire's little-endian words back,
// in bulk and word by word.
func TestDecodeWords(t *testing.T) {
	f := []float64{1, -2, math.NaN(), math.Inf(1), math.Copysign(0, -1)}
	i64 := []int64{0, 1, -1, math.MaxInt64}
	i32 := []int32{0, 7, -7, math.MinInt32}
	var pf, p64, p32 []byte
	for _, v := range f {
		pf = binary.LittleEndian.AppendUint64(pf, math.Float64bits(v))
	}
	for _, v := range i64 {
		p64 = binary.LittleEndian.AppendUint64(p64, uint64(v))
	}
	for _, v := range i32 {
		p32 = binary.LittleEndian.AppendUint32(p32, uint32(v))
	}
	for _, native := range []bool{false, true} {
		if native && !nativeLittle {
			continue
		}
		gf, g64, g32 := make([]float64, len(f)), make([]int64, len(i64)), make([]int32, len(i32))
		decodeWords(gf, pf, native)
		decodeWords(g64, p64, native)
		decodeWords(g32, p32, native)
		for i := range f {
			if math.Float64bits(gf[i]) != math.Float64bits(f[i]) {
				t.Errorf("native %v: float %d = %v, want %v", native, i, gf[i], f[i])
			}
		}
		for i := range i64 {
			if g64[i] != i64[i] || i < len(i32) && g32[i] != i32[i] {
				t.Errorf("native %v: word %d = %d, %d, want %d, %d", native, i, g64[i], g32[i], i64[i], i32[i])
			}
		}
	}
}
