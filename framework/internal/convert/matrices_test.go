package convert

import (
	"encoding/binary"
	"math"
	"testing"
	"unsafe"

	"gonum.org/v1/gonum/mat"
	"google.golang.org/protobuf/proto"

	pb "github.com/polyclass/polyclass/framework/internal/protov1"
	"github.com/polyclass/polyclass/framework/matrix"
)

// TestLayoutsMatchTheProtocol: package matrix hashes its layouts, which
// must be the protocol's DatasetHeader layouts.
func TestLayoutsMatchTheProtocol(t *testing.T) {
	if pb.DatasetHeader_DENSE != pb.DatasetHeader_Layout(matrix.LayoutDense) || pb.DatasetHeader_CSR != pb.DatasetHeader_Layout(matrix.LayoutCSR) {
		t.Errorf("layouts dense %d, CSR %d; protocol %d, %d", matrix.LayoutDense, matrix.LayoutCSR, pb.DatasetHeader_DENSE, pb.DatasetHeader_CSR)
	}
}

// TestDenseRoundTrip: a matrix survives DenseToPB, marshalling and
// DenseFromPB bit for bit, whether its rows lie together (the message is a
// view of them) or not (a strided view, one row of one, copied), and the
// matrix given back by DenseFromPB is a view of the unmarshalled bytes.
func TestDenseRoundTrip(t *testing.T) {
	big := mat.NewDense(3, 4, []float64{1, -2, math.NaN(), 4, math.Inf(1), 6, 7, math.Copysign(0, -1), 9, 10, 11, 12})
	for name, m := range map[string]*mat.Dense{
		"contiguous": big,
		"strided":    big.Slice(0, 3, 1, 3).(*mat.Dense),
		"one row":    big.Slice(1, 2, 1, 4).(*mat.Dense),
		"one column": big.Slice(0, 3, 2, 3).(*mat.Dense),
	} {
		var back pb.Dense
		throughWire(t, DenseToPB(m), &back)
		got, err := DenseFromPB(&back)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		r, c := m.Dims()
		if gr, gc := got.Dims(); gr != r || gc != c {
			t.Fatalf("%s: %d×%d back, want %d×%d", name, gr, gc, r, c)
		}
		for i := range r {
			for j := range c {
				if math.Float64bits(got.At(i, j)) != math.Float64bits(m.At(i, j)) {
					t.Errorf("%s: [%d,%d] = %v, want %v", name, i, j, got.At(i, j), m.At(i, j))
				}
			}
		}
		if raw := got.RawMatrix(); raw.Stride != c {
			t.Errorf("%s: stride %d back, want %d", name, raw.Stride, c)
		}
		if uintptr(unsafe.Pointer(&back.Data[0]))%8 == 0 && &got.RawMatrix().Data[0] != (*float64)(unsafe.Pointer(&back.Data[0])) {
			t.Errorf("%s: DenseFromPB copied aligned bytes", name)
		}
	}
	if d := DenseToPB(&mat.Dense{}); d.GetRows() != 0 || len(d.GetData()) != 0 {
		t.Errorf("empty matrix gives %v", d)
	}
	if got, err := DenseFromPB(&pb.Dense{Rows: 2, Cols: 1, Data: make([]byte, 15)}); err == nil {
		t.Errorf("15 bytes for 2×1 gave %v, want an error", got)
	}
}

// TestDenseToPBViewsContiguousRows: the message of a matrix whose rows lie
// together shares the matrix's memory (no copy until marshalling), which
// is why its doc asks for the matrix to stay unchanged until then.
func TestDenseToPBViewsContiguousRows(t *testing.T) {
	m := mat.NewDense(2, 2, []float64{1, 2, 3, 4})
	msg := DenseToPB(m)
	m.Set(1, 1, 5)
	if got := math.Float64frombits(binary.LittleEndian.Uint64(msg.Data[24:])); got != 5 && nativeLittle() {
		t.Errorf("message holds %v after the matrix changed to 5: a copy", got)
	}
}

// throughWire marshals in and unmarshals the bytes into out, as a message
// crosses the wire.
func throughWire(t *testing.T, in, out proto.Message) {
	t.Helper()
	b, err := proto.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	if err := proto.Unmarshal(b, out); err != nil {
		t.Fatal(err)
	}
}

// nativeLittle reports whether this processor is little endian.
func nativeLittle() bool { return binary.NativeEndian.Uint16([]byte{1, 0}) == 1 }

// BenchmarkDenseToPB is the encoding of a one-vs-one fold's score matrix
// on letter (2000 test rows × 325 problems, 5.2 MB) for a Predict answer or
// a Decode request.
func BenchmarkDenseToPB(b *testing.B) {
	m := mat.NewDense(2000, 325, nil)
	b.SetBytes(8 * 2000 * 325)
	b.ReportAllocs()
	for b.Loop() {
		DenseToPB(m)
	}
}

// BenchmarkDenseFromPB decodes the same matrix from its message.
func BenchmarkDenseFromPB(b *testing.B) {
	msg := DenseToPB(mat.NewDense(2000, 325, nil))
	msg.Data = append([]byte(nil), msg.Data...) // as unmarshalled: bytes of its own
	b.SetBytes(8 * 2000 * 325)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := DenseFromPB(msg); err != nil {
			b.Fatal(err)
		}
	}
}
