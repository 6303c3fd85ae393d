package matrix

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"hash"
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

// Layout returns the wire layout of e.
func (e *EncodedMatrix) Layout() Layout {
	if e.Sparse {
		return LayoutCSR
	}
	return LayoutDense
}

// NewDigest starts the hash of a dataset: layout and dimensions; the data
// bytes follow.
func NewDigest(layout Layout, rows, cols, nnz int64) hash.Hash {
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
func digestOf(layout Layout, rows, cols, nnz int64, data []byte) string {
	h := NewDigest(layout, rows, cols, nnz)
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
	e.Digest = digestOf(e.Layout(), int64(e.Rows), int64(e.Cols), int64(e.NNZ), e.Data)
	return e
}

// StreamMatrix returns the wire form of m with its digest, without holding
// the wire bytes: they are made again from m, a chunk at a time, whenever
// the matrix is sent, so that a matrix being uploaded takes no second copy
// of its size. m must not change while the EncodedMatrix is in use.
func StreamMatrix(m Matrix) *EncodedMatrix {
	e := shape(m)
	h := NewDigest(e.Layout(), int64(e.Rows), int64(e.Cols), int64(e.NNZ))
	_ = m.chunks(e.size, func(p []byte) error {
		h.Write(p)
		return nil
	}, false)
	e.Digest = hex.EncodeToString(h.Sum(nil))
	return e
}

// EachChunk calls send with the wire bytes in order, in chunks of at most
// ChunkSize bytes; send may keep a chunk but must not modify it (on a
// little-endian processor a chunk may be the matrix's own memory).
func (e *EncodedMatrix) EachChunk(send func([]byte) error) error {
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
	if parts, ok := m.views(); ok {
		for _, b := range parts {
			for len(b) > 0 {
				n := min(len(b), ChunkSize)
				if err := w(b[:n:n]); err != nil {
					return err
				}
				b = b[n:]
			}
		}
		return nil
	}
	cw := &chunkWriter{w: w, fresh: fresh, buf: make([]byte, 0, min(size, ChunkSize))}
	if c := m.CSR; c != nil {
		putWords(cw, c.Indptr)
		putWords(cw, c.Indices)
		putWords(cw, c.Values)
	} else if m.Dense != nil {
		r, _ := m.Dense.Dims()
		for i := 0; i < r; i++ {
			putWords(cw, m.Dense.RawRowView(i))
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
