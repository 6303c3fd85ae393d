package matrix

import (
	"bytes"
	"encoding/binary"
	"math"
	"testing"
	"unsafe"

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

// TestFloat64Views: DenseWire gives the wire bytes of a matrix whose
// rows lie together as a view of its memory (a strided one is left to the
// encoder), and Float64sOf the floats of the wire bytes as a view of
// theirs, when they start on an 8-byte boundary; a misaligned or ragged
// buffer, or a big-endian processor (native false), is refused and left
// to the copying decoder.
func TestFloat64Views(t *testing.T) {
	f := []float64{1, -2, math.NaN(), math.Inf(-1), math.Copysign(0, -1), 6.5}
	var wire []byte
	for _, v := range f {
		wire = binary.LittleEndian.AppendUint64(wire, math.Float64bits(v))
	}
	if b, ok := DenseWire(mat.NewDense(2, 3, f)); ok != nativeLittle || ok && !bytes.Equal(b, wire) {
		t.Errorf("DenseWire = %x, %v; want %x, %v", b, ok, wire, nativeLittle)
	} else if ok {
		f[1] = 3 // a view: the bytes follow the floats
		if binary.LittleEndian.Uint64(b[8:]) != math.Float64bits(3) {
			t.Error("DenseWire copied the floats")
		}
		f[1] = -2
	}
	if _, ok := DenseWire(mat.NewDense(2, 3, f).Slice(0, 2, 0, 2).(*mat.Dense)); ok {
		t.Error("DenseWire viewed a strided matrix")
	}
	if !nativeLittle {
		return
	}
	buf := make([]float64, len(f)+1) // 8-byte aligned backing for the cases
	mem := unsafe.Slice((*byte)(unsafe.Pointer(&buf[0])), 8*len(buf))
	for _, tc := range []struct {
		name   string
		p      []byte
		native bool
		ok     bool
	}{
		{"aligned", mem[:len(wire)], true, true},
		{"misaligned", mem[1 : 1+len(wire)], true, false},
		{"ragged", mem[:len(wire)-3], true, false},
		{"big endian", mem[:len(wire)], false, false},
		{"empty", mem[:0], true, true},
	} {
		copy(tc.p, wire)
		got, ok := float64sOf(tc.p, tc.native)
		if ok != tc.ok {
			t.Errorf("%s: ok = %v, want %v", tc.name, ok, tc.ok)
			continue
		}
		if !ok || len(tc.p) == 0 {
			if len(got) != 0 {
				t.Errorf("%s: %d floats with ok %v", tc.name, len(got), ok)
			}
			continue
		}
		for i := range f {
			if math.Float64bits(got[i]) != math.Float64bits(f[i]) {
				t.Errorf("%s: float %d = %v, want %v", tc.name, i, got[i], f[i])
			}
		}
		tc.p[8] ^= 0xff // a view: the floats follow the bytes
		if math.Float64bits(got[1]) == math.Float64bits(f[1]) {
			t.Errorf("%s: Float64sOf copied the bytes", tc.name)
		}
	}
}
