package server

import (
	"bytes"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/polyclass/polyclass/framework/internal/convert"
	"github.com/polyclass/polyclass/framework/matrix"
	"github.com/polyclass/polyclass/framework/plugin"
	"github.com/polyclass/polyclass/framework/sparse"
)

// diabetesLike returns a CSR matrix shaped as the one-hot design of
// diabetes130 (101766 rows × 2518 features, 47 entries a row): 58 MB.
func diabetesLike() *sparse.CSR {
	const rows, cols, perRow = 101766, 2518, 47
	c := &sparse.CSR{Rows: rows, Cols: cols, Indptr: make([]int64, rows+1),
		Indices: make([]int32, 0, rows*perRow), Values: make([]float64, 0, rows*perRow)}
	for i := 0; i < rows; i++ {
		for k := 0; k < perRow; k++ {
			c.Indices = append(c.Indices, int32(k*(cols/perRow)+(i*7+k)%(cols/perRow)))
			c.Values = append(c.Values, float64(i%13)-6)
		}
		c.Indptr[i+1] = int64(len(c.Values))
	}
	return c
}

// BenchmarkGatherRowsCSR measures the copy of a fold's training rows
// (4 of every 5) out of a diabetes130-sized CSR matrix.
func BenchmarkGatherRowsCSR(b *testing.B) {
	m := plugin.Matrix{CSR: diabetesLike()}
	var rows []int
	for i := 0; i < m.CSR.Rows; i++ {
		if i%5 != 0 {
			rows = append(rows, i)
		}
	}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		gatherRows(m, rows)
	}
}

// TestStreamMatrixMatchesEncodeMatrix: a streamed matrix has the digest,
// size and wire bytes of the encoded one, dense and CSR, and its chunks
// decode back to the matrix whatever their sizes.
func TestStreamMatrixMatchesEncodeMatrix(t *testing.T) {
	csr := &sparse.CSR{Rows: 3, Cols: 5, Indptr: []int64{0, 1, 1, 3}, Indices: []int32{0, 0, 4}, Values: []float64{7, 9, 1}}
	dense := mat.NewDense(3, 2, []float64{1, -2, 3.5, 0, 5, 6})
	big := diabetesLike()
	big.Rows, big.Indptr = 3000, big.Indptr[:3001]
	big.Indices, big.Values = big.Indices[:big.Indptr[3000]], big.Values[:big.Indptr[3000]]
	for _, m := range []plugin.Matrix{{CSR: csr}, {Dense: dense}, {CSR: big}} {
		e, s := matrix.EncodeMatrix(m), matrix.StreamMatrix(m)
		if s.Data != nil || s.Digest != e.Digest || s.Size() != e.Size() || s.Rows != e.Rows || s.Cols != e.Cols || s.NNZ != e.NNZ || s.Sparse != e.Sparse {
			t.Fatalf("streamed %+v, encoded %+v", s, e)
		}
		var wire []byte
		var sizes []int
		if err := s.EachChunk(func(p []byte) error {
			wire, sizes = append(wire, p...), append(sizes, len(p))
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(wire, e.Data) {
			t.Fatalf("streamed bytes differ (chunks %v)", sizes)
		}
		for _, step := range []int{1, 3, 5, 7, 8, 1000, len(wire)} {
			d, err := newMatrixDecoder(convert.Header(s))
			if err != nil {
				t.Fatal(err)
			}
			for p := wire; len(p) > 0; {
				n := min(step, len(p))
				if err := d.write(p[:n]); err != nil {
					t.Fatal(err)
				}
				p = p[n:]
			}
			got, err := d.finish()
			if err != nil {
				t.Fatalf("chunks of %d: %v", step, err)
			}
			if !bytes.Equal(matrix.EncodeMatrix(got).Data, wire) {
				t.Fatalf("chunks of %d: decoded matrix differs", step)
			}
		}
	}
}

// TestDecoderRejectsBadUploads: a header that does not match its size, too
// many bytes, too few, and bytes that do not hash to the digest.
func TestDecoderRejectsBadUploads(t *testing.T) {
	e := matrix.EncodeMatrix(plugin.Matrix{Dense: mat.NewDense(2, 2, []float64{1, 2, 3, 4})})
	h := convert.Header(e)
	h.Size++
	if _, err := newMatrixDecoder(h); err == nil || !strings.Contains(err.Error(), "needs 32 bytes") {
		t.Errorf("wrong size: %v", err)
	}
	d, _ := newMatrixDecoder(convert.Header(e))
	if err := d.write(append(append([]byte(nil), e.Data...), 0)); err == nil {
		t.Error("a byte too many accepted")
	}
	d, _ = newMatrixDecoder(convert.Header(e))
	d.write(e.Data[:31])
	if _, err := d.finish(); err == nil || !strings.Contains(err.Error(), "received 31 bytes") {
		t.Errorf("a byte too few: %v", err)
	}
	bad := append([]byte(nil), e.Data...)
	bad[3] ^= 1
	d, _ = newMatrixDecoder(convert.Header(e))
	d.write(bad)
	if _, err := d.finish(); err == nil || !strings.Contains(err.Error(), "digest mismatch") {
		t.Errorf("tampered bytes: %v", err)
	}
	h = convert.Header(e)
	h.Rows, h.Cols = 1<<40, 1<<40
	if _, err := newMatrixDecoder(h); err == nil {
		t.Error("an implausible header accepted")
	}
}

// TestGatherRowsIntoReusedBuffer: gathering into one buffer again and
// again, the rows growing and shrinking, gives each time what a fresh
// gather gives, for a CSR and a dense matrix.
func TestGatherRowsIntoReusedBuffer(t *testing.T) {
	// [[1 0 2] [0 0 0] [0 3 0] [4 5 6]]
	csr := &sparse.CSR{Rows: 4, Cols: 3, Indptr: []int64{0, 2, 2, 3, 6}, Indices: []int32{0, 2, 1, 0, 1, 2}, Values: []float64{1, 2, 3, 4, 5, 6}}
	dense := mat.NewDense(4, 3, []float64{1, 0, 2, 0, 0, 0, 0, 3, 0, 4, 5, 6})
	for name, m := range map[string]plugin.Matrix{"csr": {CSR: csr}, "dense": {Dense: dense}} {
		b := &rowBuffer{}
		for _, rows := range [][]int{{3, 0}, {1}, {0, 1, 2, 3, 3}, {2}, {}, {3, 3}} {
			got, want := gatherRowsInto(b, m, rows), gatherRows(m, rows)
			gd, wd := got.AsDense().Dense, want.AsDense().Dense
			if r, _ := wd.Dims(); r > 0 && !mat.Equal(gd, wd) || r == 0 && !gd.IsEmpty() {
				t.Errorf("%s rows %v: got\n%v\nwant\n%v", name, rows, mat.Formatted(gd), mat.Formatted(wd))
			}
			if got.CSR != nil {
				if err := got.CSR.Validate(); err != nil {
					t.Errorf("%s rows %v: %v", name, rows, err)
				}
			}
		}
	}
}
