package matrix

import (
	"encoding/binary"
	"math"
	"unsafe"

	"gonum.org/v1/gonum/mat"
)

// nativeLittle reports whether the processor stores words little endian,
// the wire's byte order: the words of a slice are then its wire bytes, and
// they are copied as they are.
var nativeLittle = binary.NativeEndian.Uint16([]byte{1, 0}) == 1

// bytesOf returns the memory of s as bytes (no copy).
func bytesOf[T int32 | int64 | float64](s []T) []byte {
	if len(s) == 0 {
		return nil
	}
	return unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(s))), len(s)*int(unsafe.Sizeof(s[0])))
}

// views returns the wire bytes of m as views of its own memory, in order,
// when the processor's byte order is the wire's and the matrix's words lie
// together (a dense matrix's rows one after the other); else ok is false.
func (m Matrix) views() (parts [][]byte, ok bool) {
	if !nativeLittle {
		return nil, false
	}
	return m.memory()
}

// memory returns the memory of m's words as views, in wire order, when
// they lie together (see views).
func (m Matrix) memory() (parts [][]byte, ok bool) {
	if c := m.CSR; c != nil {
		return [][]byte{bytesOf(c.Indptr), bytesOf(c.Indices), bytesOf(c.Values)}, true
	}
	if m.Dense == nil {
		return nil, true
	}
	raw := m.Dense.RawMatrix()
	if raw.Stride != raw.Cols && raw.Rows > 1 {
		return nil, false
	}
	if raw.Rows == 0 || raw.Cols == 0 {
		return nil, true
	}
	return [][]byte{bytesOf(raw.Data[:(raw.Rows-1)*raw.Stride+raw.Cols])}, true
}

// DecodeFloat64s sets dst[i] to the float64 whose little-endian bits are
// p[8i:8i+8], for every i < len(dst); p must hold 8·len(dst) bytes.
func DecodeFloat64s(dst []float64, p []byte) { decodeWords(dst, p, nativeLittle) }

// DecodeInt64s sets dst[i] to the little-endian int64 p[8i:8i+8].
func DecodeInt64s(dst []int64, p []byte) { decodeWords(dst, p, nativeLittle) }

// DecodeInt32s sets dst[i] to the little-endian int32 p[4i:4i+4].
func DecodeInt32s(dst []int32, p []byte) { decodeWords(dst, p, nativeLittle) }

// decodeWords sets dst from the little-endian words p, copied in bulk when
// native (the processor's byte order is the wire's).
func decodeWords[T int32 | int64 | float64](dst []T, p []byte, native bool) {
	b := bytesOf(dst)
	if native {
		copy(b, p[:len(b)])
		return
	}
	for i := range dst {
		switch d := any(&dst[i]).(type) {
		case *int32:
			*d = int32(binary.LittleEndian.Uint32(p[4*i:]))
		case *int64:
			*d = int64(binary.LittleEndian.Uint64(p[8*i:]))
		case *float64:
			*d = math.Float64frombits(binary.LittleEndian.Uint64(p[8*i:]))
		}
	}
}

// putWords appends the wire bytes of s (its words little endian) to the
// chunks, in bulk when the processor's byte order is the wire's.
func putWords[T int32 | int64 | float64](cw *chunkWriter, s []T) {
	putWordsAs(cw, s, nativeLittle)
}

// putWordsAs is putWords, in bulk when native.
func putWordsAs[T int32 | int64 | float64](cw *chunkWriter, s []T, native bool) {
	if !native {
		for _, v := range s {
			switch v := any(v).(type) {
			case int32:
				cw.put4(uint32(v))
			case int64:
				cw.put8(uint64(v))
			case float64:
				cw.put8(math.Float64bits(v))
			}
		}
		return
	}
	for b := bytesOf(s); len(b) > 0; {
		if len(cw.buf) == cap(cw.buf) {
			cw.flush()
			if cap(cw.buf) == 0 {
				cw.buf = make([]byte, 0, ChunkSize)
			}
		}
		n := copy(cw.buf[len(cw.buf):cap(cw.buf)], b)
		cw.buf = cw.buf[:len(cw.buf)+n]
		b = b[n:]
	}
}

// DenseWire returns the wire bytes of m (its rows one after the other,
// each float64 little endian) as a view of m's own memory, without a copy,
// when the processor's byte order is the wire's and m's rows lie together
// (see views); else ok is false and the caller encodes m itself, as for
// an empty m. The view shares m: a change to m is a change to the bytes.
func DenseWire(m *mat.Dense) (b []byte, ok bool) {
	parts, ok := Matrix{Dense: m}.views()
	if !ok || len(parts) != 1 {
		return nil, false
	}
	return parts[0], true
}

// Float64sOf returns the float64s whose little-endian bits are p (8 bytes
// each; len(p) must be a multiple of 8) as a view of p's own memory,
// without a copy, when the processor's byte order is the wire's and p
// starts on an 8-byte boundary; else ok is false and the caller decodes p
// with DecodeFloat64s. The view shares p.
func Float64sOf(p []byte) (s []float64, ok bool) {
	return float64sOf(p, nativeLittle)
}

// float64sOf is Float64sOf, viewing p when native.
func float64sOf(p []byte, native bool) ([]float64, bool) {
	if !native || len(p)%8 != 0 {
		return nil, false
	}
	if len(p) == 0 {
		return nil, true
	}
	start := unsafe.Pointer(unsafe.SliceData(p))
	if uintptr(start)%unsafe.Alignof(float64(0)) != 0 {
		return nil, false
	}
	return unsafe.Slice((*float64)(start), len(p)/8), true
}
