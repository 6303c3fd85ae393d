package sdk

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	pb "github.com/polyclass/polyclass/framework/internal/protov1"
	"github.com/polyclass/polyclass/framework/sparse"
)

// EncodedMatrix is a design matrix in its wire form, addressed by the
// SHA-256 digest of its content.
type EncodedMatrix struct {
	Digest          string
	Rows, Cols, NNZ int
	Sparse          bool
	Data            []byte
}

// Size returns the number of data bytes.
func (e *EncodedMatrix) Size() int { return len(e.Data) }

func (e *EncodedMatrix) layout() pb.DatasetHeader_Layout {
	if e.Sparse {
		return pb.DatasetHeader_CSR
	}
	return pb.DatasetHeader_DENSE
}

func (e *EncodedMatrix) header() *pb.DatasetHeader {
	return &pb.DatasetHeader{
		Digest: e.Digest, Layout: e.layout(), Rows: int64(e.Rows), Cols: int64(e.Cols),
		Nnz: int64(e.NNZ), Size: int64(len(e.Data)),
	}
}

// digestOf hashes the layout, the dimensions and the data bytes.
func digestOf(layout pb.DatasetHeader_Layout, rows, cols, nnz int64, data []byte) string {
	h := sha256.New()
	var buf [25]byte
	buf[0] = byte(layout)
	binary.LittleEndian.PutUint64(buf[1:], uint64(rows))
	binary.LittleEndian.PutUint64(buf[9:], uint64(cols))
	binary.LittleEndian.PutUint64(buf[17:], uint64(nnz))
	h.Write(buf[:])
	h.Write(data)
	return hex.EncodeToString(h.Sum(nil))
}

// EncodeMatrix returns the wire form of m with its digest.
func EncodeMatrix(m Matrix) *EncodedMatrix {
	e := &EncodedMatrix{}
	if m.CSR != nil {
		c := m.CSR
		e.Sparse, e.Rows, e.Cols, e.NNZ = true, c.Rows, c.Cols, c.NNZ()
		e.Data = make([]byte, 8*len(c.Indptr)+4*len(c.Indices)+8*len(c.Values))
		k := 0
		for _, v := range c.Indptr {
			binary.LittleEndian.PutUint64(e.Data[k:], uint64(v))
			k += 8
		}
		for _, v := range c.Indices {
			binary.LittleEndian.PutUint32(e.Data[k:], uint32(v))
			k += 4
		}
		for _, v := range c.Values {
			binary.LittleEndian.PutUint64(e.Data[k:], math.Float64bits(v))
			k += 8
		}
	} else if m.Dense != nil {
		e.Rows, e.Cols = m.Dense.Dims()
		e.Data = make([]byte, 8*e.Rows*e.Cols)
		k := 0
		for i := 0; i < e.Rows; i++ {
			for _, v := range m.Dense.RawRowView(i) {
				binary.LittleEndian.PutUint64(e.Data[k:], math.Float64bits(v))
				k += 8
			}
		}
	}
	e.Digest = digestOf(e.layout(), int64(e.Rows), int64(e.Cols), int64(e.NNZ), e.Data)
	return e
}

// decodeMatrix checks an uploaded dataset against its header and digest and
// returns it as a Matrix.
func decodeMatrix(h *pb.DatasetHeader, data []byte) (Matrix, error) {
	if got := digestOf(h.GetLayout(), h.GetRows(), h.GetCols(), h.GetNnz(), data); got != h.GetDigest() {
		return Matrix{}, fmt.Errorf("dataset digest mismatch: header says %s, content hashes to %s", h.GetDigest(), got)
	}
	rows, cols, nnz := int(h.GetRows()), int(h.GetCols()), int(h.GetNnz())
	switch h.GetLayout() {
	case pb.DatasetHeader_DENSE:
		if len(data) != 8*rows*cols {
			return Matrix{}, fmt.Errorf("dense dataset %d×%d needs %d bytes, got %d", rows, cols, 8*rows*cols, len(data))
		}
		if rows == 0 || cols == 0 {
			return Matrix{}, fmt.Errorf("dataset %d×%d is empty", rows, cols)
		}
		vals := make([]float64, rows*cols)
		for i := range vals {
			vals[i] = math.Float64frombits(binary.LittleEndian.Uint64(data[8*i:]))
		}
		return Matrix{Dense: mat.NewDense(rows, cols, vals)}, nil
	case pb.DatasetHeader_CSR:
		want := 8*(rows+1) + 12*nnz
		if len(data) != want {
			return Matrix{}, fmt.Errorf("CSR dataset %d×%d with %d entries needs %d bytes, got %d", rows, cols, nnz, want, len(data))
		}
		c := &sparse.CSR{Rows: rows, Cols: cols, Indptr: make([]int64, rows+1), Indices: make([]int32, nnz), Values: make([]float64, nnz)}
		k := 0
		for i := range c.Indptr {
			c.Indptr[i] = int64(binary.LittleEndian.Uint64(data[k:]))
			k += 8
		}
		for i := range c.Indices {
			c.Indices[i] = int32(binary.LittleEndian.Uint32(data[k:]))
			k += 4
		}
		for i := range c.Values {
			c.Values[i] = math.Float64frombits(binary.LittleEndian.Uint64(data[k:]))
			k += 8
		}
		if err := c.Validate(); err != nil {
			return Matrix{}, fmt.Errorf("CSR dataset: %w", err)
		}
		return Matrix{CSR: c}, nil
	}
	return Matrix{}, fmt.Errorf("unknown dataset layout %v", h.GetLayout())
}

// gatherRows returns the rows of m listed in rows, in that order.
func gatherRows(m Matrix, rows []int) Matrix {
	if m.CSR != nil {
		src := m.CSR
		out := &sparse.CSR{Rows: len(rows), Cols: src.Cols, Indptr: make([]int64, len(rows)+1)}
		for i, r := range rows {
			idx, val := src.Row(r)
			out.Indices = append(out.Indices, idx...)
			out.Values = append(out.Values, val...)
			out.Indptr[i+1] = int64(len(out.Values))
		}
		return Matrix{CSR: out}
	}
	_, c := m.Dense.Dims()
	out := mat.NewDense(max(len(rows), 1), c, nil)
	if len(rows) == 0 {
		return Matrix{Dense: &mat.Dense{}}
	}
	for i, r := range rows {
		copy(out.RawRowView(i), m.Dense.RawRowView(r))
	}
	return Matrix{Dense: out}
}
