package sdk

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"hash"
	"math"

	"gonum.org/v1/gonum/mat"

	pb "github.com/polyclass/polyclass/framework/internal/protov1"
	"github.com/polyclass/polyclass/framework/sparse"
)

// EncodedMatrix is a design matrix in its wire form, addressed by the
// SHA-256 digest of its content.
//
// The wire form is the CSR arrays (row pointers as uint64, column indices
// as uint32, values as float64 bits) or the dense row-major values, little
// endian. EncodeMatrix holds it in Data; StreamMatrix holds the matrix
// instead and makes the bytes again, a chunk at a time, when they are sent.
type EncodedMatrix struct {
	Digest          string
	Rows, Cols, NNZ int
	Sparse          bool
	// Data holds the wire bytes (EncodeMatrix), or is nil when the matrix
	// is streamed (StreamMatrix).
	Data []byte

	src  Matrix // the matrix streamed, when Data is nil
	size int    // the number of wire bytes
}

// Size returns the number of data bytes.
func (e *EncodedMatrix) Size() int {
	if e.Data != nil {
		return len(e.Data)
	}
	return e.size
}

func (e *EncodedMatrix) layout() pb.DatasetHeader_Layout {
	if e.Sparse {
		return pb.DatasetHeader_CSR
	}
	return pb.DatasetHeader_DENSE
}

func (e *EncodedMatrix) header() *pb.DatasetHeader {
	return &pb.DatasetHeader{
		Digest: e.Digest, Layout: e.layout(), Rows: int64(e.Rows), Cols: int64(e.Cols),
		Nnz: int64(e.NNZ), Size: int64(e.Size()),
	}
}

// newDigest starts the hash of a dataset: layout and dimensions; the data
// bytes follow.
func newDigest(layout pb.DatasetHeader_Layout, rows, cols, nnz int64) hash.Hash {
	h := sha256.New()
	var buf [25]byte
	buf[0] = byte(layout)
	binary.LittleEndian.PutUint64(buf[1:], uint64(rows))
	binary.LittleEndian.PutUint64(buf[9:], uint64(cols))
	binary.LittleEndian.PutUint64(buf[17:], uint64(nnz))
	h.Write(buf[:])
	return h
}

// digestOf hashes the layout, the dimensions and the data bytes.
func digestOf(layout pb.DatasetHeader_Layout, rows, cols, nnz int64, data []byte) string {
	h := newDigest(layout, rows, cols, nnz)
	h.Write(data)
	return hex.EncodeToString(h.Sum(nil))
}

// shape returns the encoded matrix of m without its data and digest.
func shape(m Matrix) *EncodedMatrix {
	e := &EncodedMatrix{src: m}
	if c := m.CSR; c != nil {
		e.Sparse, e.Rows, e.Cols, e.NNZ = true, c.Rows, c.Cols, c.NNZ()
		e.size = 8*len(c.Indptr) + 4*len(c.Indices) + 8*len(c.Values)
	} else if m.Dense != nil {
		e.Rows, e.Cols = m.Dense.Dims()
		e.size = 8 * e.Rows * e.Cols
	}
	return e
}

// EncodeMatrix returns the wire form of m with its digest.
func EncodeMatrix(m Matrix) *EncodedMatrix {
	e := shape(m)
	e.Data = make([]byte, 0, e.size)
	_ = e.src.chunks(e.size, func(p []byte) error {
		e.Data = append(e.Data, p...)
		return nil
	}, false)
	e.src = Matrix{}
	e.Digest = digestOf(e.layout(), int64(e.Rows), int64(e.Cols), int64(e.NNZ), e.Data)
	return e
}

// StreamMatrix returns the wire form of m with its digest, without holding
// the wire bytes: they are made again from m, a chunk at a time, whenever
// the matrix is sent, so that a matrix being uploaded takes no second copy
// of its size. m must not change while the EncodedMatrix is in use.
func StreamMatrix(m Matrix) *EncodedMatrix {
	e := shape(m)
	h := newDigest(e.layout(), int64(e.Rows), int64(e.Cols), int64(e.NNZ))
	_ = m.chunks(e.size, func(p []byte) error {
		h.Write(p)
		return nil
	}, false)
	e.Digest = hex.EncodeToString(h.Sum(nil))
	return e
}

// eachChunk calls send with the wire bytes in order, in chunks of at most
// ChunkSize bytes; each chunk is a new slice, which send may keep.
func (e *EncodedMatrix) eachChunk(send func([]byte) error) error {
	if e.Data == nil {
		return e.src.chunks(e.size, send, true)
	}
	for data := e.Data; len(data) > 0; {
		n := min(len(data), ChunkSize)
		if err := send(data[:n]); err != nil {
			return err
		}
		data = data[n:]
	}
	return nil
}

// chunks writes the wire form of m (size bytes) to w in chunks of at most
// ChunkSize bytes, each in a new buffer when fresh, else in one buffer
// reused. It returns the first error of w.
func (m Matrix) chunks(size int, w func([]byte) error, fresh bool) error {
	cw := &chunkWriter{w: w, fresh: fresh, buf: make([]byte, 0, min(size, ChunkSize))}
	if c := m.CSR; c != nil {
		for _, v := range c.Indptr {
			cw.put8(uint64(v))
		}
		for _, v := range c.Indices {
			cw.put4(uint32(v))
		}
		for _, v := range c.Values {
			cw.put8(math.Float64bits(v))
		}
	} else if m.Dense != nil {
		r, _ := m.Dense.Dims()
		for i := 0; i < r; i++ {
			for _, v := range m.Dense.RawRowView(i) {
				cw.put8(math.Float64bits(v))
			}
		}
	}
	cw.flush()
	return cw.err
}

// chunkWriter gathers little-endian words into chunks of ChunkSize bytes.
type chunkWriter struct {
	w     func([]byte) error
	fresh bool
	buf   []byte
	err   error
}

func (cw *chunkWriter) put8(v uint64) {
	if len(cw.buf)+8 > ChunkSize {
		cw.flush()
	}
	cw.buf = binary.LittleEndian.AppendUint64(cw.buf, v)
}

func (cw *chunkWriter) put4(v uint32) {
	if len(cw.buf)+4 > ChunkSize {
		cw.flush()
	}
	cw.buf = binary.LittleEndian.AppendUint32(cw.buf, v)
}

// flush passes the gathered bytes on, unless an earlier call failed.
func (cw *chunkWriter) flush() {
	if len(cw.buf) == 0 {
		return
	}
	if cw.err == nil {
		cw.err = cw.w(cw.buf)
	}
	if cw.fresh && cw.err == nil {
		cw.buf = make([]byte, 0, ChunkSize)
	} else {
		cw.buf = cw.buf[:0]
	}
}

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
	d := &matrixDecoder{h: h, digest: newDigest(h.GetLayout(), rows, cols, nnz), size: int(size)}
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
		for k := range n {
			d.indptr[i+k] = int64(binary.LittleEndian.Uint64(p[8*k:]))
		}
		n *= 8
	case d.indptr != nil && at < 8*len(d.indptr)+4*len(d.indices):
		i := (at - 8*len(d.indptr)) / 4
		n = min(len(p)/4, len(d.indices)-i)
		for k := range n {
			d.indices[i+k] = int32(binary.LittleEndian.Uint32(p[4*k:]))
		}
		n *= 4
	default:
		i := (at - 8*len(d.indptr) - 4*len(d.indices)) / 8
		n = min(len(p)/8, len(d.values)-i)
		for k := range n {
			d.values[i+k] = math.Float64frombits(binary.LittleEndian.Uint64(p[8*k:]))
		}
		n *= 8
	}
	d.got += n
	return n
}

// finish checks the bytes received against the header's size and digest
// and returns the matrix.
func (d *matrixDecoder) finish() (Matrix, error) {
	if d.got+d.ncarry != d.size {
		return Matrix{}, fmt.Errorf("received %d bytes, header says %d", d.got+d.ncarry, d.size)
	}
	if got := hex.EncodeToString(d.digest.Sum(nil)); got != d.h.GetDigest() {
		return Matrix{}, fmt.Errorf("dataset digest mismatch: header says %s, content hashes to %s", d.h.GetDigest(), got)
	}
	rows, cols := int(d.h.GetRows()), int(d.h.GetCols())
	if d.indptr == nil {
		return Matrix{Dense: mat.NewDense(rows, cols, d.values)}, nil
	}
	c := &sparse.CSR{Rows: rows, Cols: cols, Indptr: d.indptr, Indices: d.indices, Values: d.values}
	if err := c.Validate(); err != nil {
		return Matrix{}, fmt.Errorf("CSR dataset: %w", err)
	}
	return Matrix{CSR: c}, nil
}

// gatherRows returns the rows of m listed in rows, in that order.
func gatherRows(m Matrix, rows []int) Matrix {
	if m.CSR != nil {
		src := m.CSR
		out := &sparse.CSR{Rows: len(rows), Cols: src.Cols, Indptr: make([]int64, len(rows)+1)}
		var nnz int64
		for i, r := range rows {
			nnz += src.Indptr[r+1] - src.Indptr[r]
			out.Indptr[i+1] = nnz
		}
		out.Indices, out.Values = make([]int32, 0, nnz), make([]float64, 0, nnz)
		for _, r := range rows {
			idx, val := src.Row(r)
			out.Indices = append(out.Indices, idx...)
			out.Values = append(out.Values, val...)
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
