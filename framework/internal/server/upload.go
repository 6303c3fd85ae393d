package server

import (
	"encoding/hex"
	"fmt"
	"hash"

	"gonum.org/v1/gonum/mat"

	pb "github.com/polyclass/polyclass/framework/internal/protov1"
	"github.com/polyclass/polyclass/framework/matrix"
	"github.com/polyclass/polyclass/framework/plugin"
	"github.com/polyclass/polyclass/framework/sparse"
)

// matrixDecoder turns the wire bytes of an upload, received in chunks of
// any size, into a Matrix: each chunk is decoded into the matrix's arrays
// as it arrives and hashed, so that no copy of the whole upload is held.
type matrixDecoder struct {
	h      *pb.DatasetHeader
	digest hash.Hash
	size   int // the bytes expected
	got    int // the bytes received

	indptr  []int64   // CSR row pointers
	indices []int32   // CSR column indices
	values  []float64 // CSR values or dense values, row-major

	carry  [8]byte // a word split between chunks
	ncarry int
}

// newMatrixDecoder checks header h and makes room for its matrix.
func newMatrixDecoder(h *pb.DatasetHeader) (*matrixDecoder, error) {
	rows, cols, nnz, size := h.GetRows(), h.GetCols(), h.GetNnz(), h.GetSize()
	if rows < 0 || cols < 0 || nnz < 0 || size < 0 || rows > 1<<40 || cols > 1<<40 || nnz > 1<<40 || size > 1<<40 ||
		(cols > 0 && rows > (1<<40)/cols) {
		return nil, fmt.Errorf("implausible dataset: %d×%d with %d entries in %d bytes", rows, cols, nnz, size)
	}
	d := &matrixDecoder{h: h, digest: matrix.NewDigest(matrix.Layout(h.GetLayout()), rows, cols, nnz), size: int(size)}
	switch h.GetLayout() {
	case pb.DatasetHeader_DENSE:
		if size != 8*rows*cols {
			return nil, fmt.Errorf("dense dataset %d×%d needs %d bytes, got %d", rows, cols, 8*rows*cols, size)
		}
		if rows == 0 || cols == 0 {
			return nil, fmt.Errorf("dataset %d×%d is empty", rows, cols)
		}
		d.values = make([]float64, rows*cols)
	case pb.DatasetHeader_CSR:
		if want := 8*(rows+1) + 12*nnz; size != want {
			return nil, fmt.Errorf("CSR dataset %d×%d with %d entries needs %d bytes, got %d", rows, cols, nnz, want, size)
		}
		d.indptr, d.indices, d.values = make([]int64, rows+1), make([]int32, nnz), make([]float64, nnz)
	default:
		return nil, fmt.Errorf("unknown dataset layout %v", h.GetLayout())
	}
	return d, nil
}

// write decodes the next bytes of the upload.
func (d *matrixDecoder) write(p []byte) error {
	if len(p) > d.size-d.got-d.ncarry {
		return fmt.Errorf("dataset has more than the %d bytes its header gives", d.size)
	}
	d.digest.Write(p)
	for len(p) > 0 {
		ws := d.wordSize()
		if d.ncarry > 0 || len(p) < ws {
			n := copy(d.carry[d.ncarry:ws], p)
			d.ncarry += n
			p = p[n:]
			if d.ncarry == ws {
				d.ncarry = 0
				d.words(d.carry[:ws])
			}
			continue
		}
		n := d.words(p)
		p = p[n:]
	}
	return nil
}

// wordSize is the size of the word at the current position: 4 bytes in
// the CSR column indices, else 8.
func (d *matrixDecoder) wordSize() int {
	if d.indptr != nil {
		start := 8 * len(d.indptr)
		if d.got >= start && d.got < start+4*len(d.indices) {
			return 4
		}
	}
	return 8
}

// words decodes the whole words of p that belong to the current section
// (at least one: p holds a word of the current size) and returns the bytes
// consumed.
func (d *matrixDecoder) words(p []byte) int {
	at := d.got
	var n int
	switch {
	case d.indptr != nil && at < 8*len(d.indptr):
		i := at / 8
		n = min(len(p)/8, len(d.indptr)-i)
		matrix.DecodeInt64s(d.indptr[i:i+n], p)
		n *= 8
	case d.indptr != nil && at < 8*len(d.indptr)+4*len(d.indices):
		i := (at - 8*len(d.indptr)) / 4
		n = min(len(p)/4, len(d.indices)-i)
		matrix.DecodeInt32s(d.indices[i:i+n], p)
		n *= 4
	default:
		i := (at - 8*len(d.indptr) - 4*len(d.indices)) / 8
		n = min(len(p)/8, len(d.values)-i)
		matrix.DecodeFloat64s(d.values[i:i+n], p)
		n *= 8
	}
	d.got += n
	return n
}

// finish checks the bytes received against the header's size and digest
// and returns the matrix.
func (d *matrixDecoder) finish() (plugin.Matrix, error) {
	if d.got+d.ncarry != d.size {
		return plugin.Matrix{}, fmt.Errorf("received %d bytes, header says %d", d.got+d.ncarry, d.size)
	}
	if got := hex.EncodeToString(d.digest.Sum(nil)); got != d.h.GetDigest() {
		return plugin.Matrix{}, fmt.Errorf("dataset digest mismatch: header says %s, content hashes to %s", d.h.GetDigest(), got)
	}
	rows, cols := int(d.h.GetRows()), int(d.h.GetCols())
	if d.indptr == nil {
		return plugin.Matrix{Dense: mat.NewDense(rows, cols, d.values)}, nil
	}
	c := &sparse.CSR{Rows: rows, Cols: cols, Indptr: d.indptr, Indices: d.indices, Values: d.values}
	if err := c.Validate(); err != nil {
		return plugin.Matrix{}, fmt.Errorf("CSR dataset: %w", err)
	}
	return plugin.Matrix{CSR: c}, nil
}

// gatherRows returns the given rows of m as a matrix of their own.
func gatherRows(m plugin.Matrix, rows []int) plugin.Matrix {
	return gatherRowsInto(&rowBuffer{}, m, rows)
}

// rowBuffer is memory that gathered rows are written into, grown as
// needed and reused by the next gather into it.
type rowBuffer struct {
	dense, values []float64
	indptr        []int64
	indices       []int32
}

// resize returns s with length n, in s's memory when it holds n (a nil s
// gives an empty slice, not nil).
func resize[T int32 | int64 | float64](s []T, n int) []T {
	if s == nil || cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
}

// gatherRowsInto returns the given rows of m as a matrix in b's memory,
// which it takes over until the next gather into b.
func gatherRowsInto(b *rowBuffer, m plugin.Matrix, rows []int) plugin.Matrix {
	if m.CSR != nil {
		src := m.CSR
		b.indptr = resize(b.indptr, len(rows)+1)
		b.indptr[0] = 0
		var nnz int64
		for i, r := range rows {
			nnz += src.Indptr[r+1] - src.Indptr[r]
			b.indptr[i+1] = nnz
		}
		b.indices, b.values = resize(b.indices, int(nnz)), resize(b.values, int(nnz))
		for i, r := range rows {
			idx, val := src.Row(r)
			copy(b.indices[b.indptr[i]:], idx)
			copy(b.values[b.indptr[i]:], val)
		}
		return plugin.Matrix{CSR: &sparse.CSR{Rows: len(rows), Cols: src.Cols, Indptr: b.indptr, Indices: b.indices, Values: b.values}}
	}
	if len(rows) == 0 {
		return plugin.Matrix{Dense: &mat.Dense{}}
	}
	_, c := m.Dense.Dims()
	b.dense = resize(b.dense, len(rows)*c)
	out := mat.NewDense(len(rows), c, b.dense)
	for i, r := range rows {
		copy(out.RawRowView(i), m.Dense.RawRowView(r))
	}
	return plugin.Matrix{Dense: out}
}
