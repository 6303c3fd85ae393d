package convert

import (
	"encoding/binary"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	pb "github.com/polyclass/polyclass/framework/internal/protov1"
	"github.com/polyclass/polyclass/framework/matrix"
)

// DenseToPB encodes m as little-endian float64 bytes; nil stays nil. When
// m's rows lie one after the other and the processor is little endian,
// the message's bytes are a view of m's memory, not a copy: m must not
// change until the message has been marshalled (a call that sends it has
// returned).
func DenseToPB(m *mat.Dense) *pb.Dense {
	if m == nil {
		return nil
	}
	r, c := m.Dims()
	if r == 0 || c == 0 {
		return &pb.Dense{Rows: int64(r), Cols: int64(c)}
	}
	if buf, ok := matrix.DenseWire(m); ok {
		return &pb.Dense{Rows: int64(r), Cols: int64(c), Data: buf}
	}
	buf := make([]byte, 8*r*c)
	k := 0
	for i := 0; i < r; i++ {
		for _, v := range m.RawRowView(i) {
			binary.LittleEndian.PutUint64(buf[k:], math.Float64bits(v))
			k += 8
		}
	}
	return &pb.Dense{Rows: int64(r), Cols: int64(c), Data: buf}
}

// DenseFromPB decodes a matrix message; nil or empty gives nil. When the
// processor is little endian and the bytes are aligned to 8, the matrix
// is a view of the message's bytes, not a copy (an unmarshalled message
// owns its bytes): the two share memory from then on.
func DenseFromPB(d *pb.Dense) (*mat.Dense, error) {
	if d == nil || d.GetRows() == 0 || d.GetCols() == 0 {
		return nil, nil
	}
	r, c := int(d.GetRows()), int(d.GetCols())
	if int64(len(d.GetData())) != 8*d.GetRows()*d.GetCols() {
		return nil, fmt.Errorf("matrix %d×%d carries %d bytes, want %d", r, c, len(d.GetData()), 8*r*c)
	}
	vals, ok := matrix.Float64sOf(d.GetData())
	if !ok {
		vals = make([]float64, r*c)
		matrix.DecodeFloat64s(vals, d.GetData())
	}
	return mat.NewDense(r, c, vals), nil
}

// Header returns the upload header of e.
func Header(e *matrix.EncodedMatrix) *pb.DatasetHeader {
	return &pb.DatasetHeader{
		Digest: e.Digest, Layout: pb.DatasetHeader_Layout(e.Layout()), Rows: int64(e.Rows), Cols: int64(e.Cols),
		Nnz: int64(e.NNZ), Size: int64(e.Size()),
	}
}

// Ints converts integers to another integer type: row and class indices
// to a message's int64 or int32 fields, and back. Values are assumed to
// fit (indices of matrices that were sent).
func Ints[To, From ~int | ~int32 | ~int64](xs []From) []To {
	out := make([]To, len(xs))
	for i, x := range xs {
		out[i] = To(x)
	}
	return out
}
