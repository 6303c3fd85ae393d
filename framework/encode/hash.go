package encode

import (
	"fmt"

	"github.com/polyclass/polyclass/framework/sparse"
)

// FNV-1a 64-bit constants.
const (
	fnvOffset64 = 14695981039346656037
	fnvPrime64  = 1099511628211
)

// HashString returns the stable 64-bit hash of s under seed, the hash every
// hashing encoder uses. It is FNV-1a 64 run over the 8 little-endian bytes
// of seed followed by the UTF-8 bytes of s, finished by murmur3's fmix64
// avalanche step so that low and high bits are both well mixed:
//
//	h = 14695981039346656037
//	for each byte b of LE64(seed) ‖ s: h = (h XOR b) · 1099511628211 (mod 2^64)
//	h ^= h>>33; h *= 0xff51afd7ed558ccd; h ^= h>>33; h *= 0xc4ceb9fe1a85ec53; h ^= h>>33
//
// It depends on nothing but seed and the bytes of s, so encodings are the
// same on every machine and in every run (unlike Go's map hash).
func HashString(seed uint64, s string) uint64 {
	h := uint64(fnvOffset64)
	for i := 0; i < 8; i++ {
		h ^= (seed >> (8 * i)) & 0xff
		h *= fnvPrime64
	}
	for i := 0; i < len(s); i++ {
		h ^= uint64(s[i])
		h *= fnvPrime64
	}
	return fmix64(h)
}

// fmix64 is the finalizer of MurmurHash3 (x64).
func fmix64(h uint64) uint64 {
	h ^= h >> 33
	h *= 0xff51afd7ed558ccd
	h ^= h >> 33
	h *= 0xc4ceb9fe1a85ec53
	h ^= h >> 33
	return h
}

// HashBucket returns the bucket (0-based, in [0, buckets)) and sign of the
// value "column=value" under seed: bucket = h mod buckets and sign = −1
// when bit 63 of h is set, +1 otherwise, with h = HashString(seed,
// column+"="+value).
func HashBucket(seed uint64, column, value string, buckets int) (bucket int, sign float64) {
	h := HashString(seed, column+"="+value)
	sign = 1
	if h>>63 == 1 {
		sign = -1
	}
	return int(h % uint64(buckets)), sign
}

// Hash replaces categorical columns by one shared sparse block of Buckets
// features (the hashing trick): feature j of a row is the number of its
// hashed columns whose "column=value" string falls in bucket j,
//
//	g_j(x) = Σ_columns [h(column=f(x)) mod B = j]  (· sign with Signed),
//
// where h is HashString under Seed. Missing values add nothing. Entries
// that cancel to zero (signed hashing) are not stored. Nothing is fitted,
// so every row is encoded independently of the others.
type Hash struct {
	// Columns limits the step to these columns; nil means every
	// categorical one.
	Columns []string
	// Buckets is the width B of the block (≥ 1).
	Buckets int
	// Signed multiplies each entry by a sign taken from bit 63 of the hash,
	// so that collisions cancel in expectation.
	Signed bool
	// Seed is mixed into the hash.
	Seed uint64
}

// FitTransform implements Step.
func (h *Hash) FitTransform(f *Frame, ctx *Context) (*Frame, error) {
	if h.Buckets < 1 {
		return nil, fmt.Errorf("hash: buckets = %d, want ≥ 1", h.Buckets)
	}
	out := f.clone()
	out.Cat = nil
	type coded struct {
		codes   []int32
		buckets []int32
		signs   []float64
	}
	var cols []coded
	for _, c := range f.Cat {
		if !selected(h.Columns, c.Name) {
			out.Cat = append(out.Cat, c)
			continue
		}
		cc := coded{codes: c.Codes, buckets: make([]int32, len(c.Levels)), signs: make([]float64, len(c.Levels))}
		for code, lv := range c.Levels {
			b, s := HashBucket(h.Seed, c.Name, lv, h.Buckets)
			cc.buckets[code] = int32(b)
			cc.signs[code] = 1
			if h.Signed {
				cc.signs[code] = s
			}
		}
		cols = append(cols, cc)
	}
	if len(cols) == 0 {
		return out, nil
	}
	m := &sparse.CSR{Rows: f.Rows, Cols: h.Buckets, Indptr: make([]int64, f.Rows+1),
		Indices: make([]int32, 0, f.Rows*len(cols)), Values: make([]float64, 0, f.Rows*len(cols))}
	type entry struct {
		j int32
		v float64
	}
	row := make([]entry, 0, len(cols))
	for i := 0; i < f.Rows; i++ {
		row = row[:0]
		for _, c := range cols {
			if code := c.codes[i]; code >= 0 {
				row = append(row, entry{c.buckets[code], c.signs[code]})
			}
		}
		for a := 1; a < len(row); a++ { // insertion sort: rows are short
			for b := a; b > 0 && row[b].j < row[b-1].j; b-- {
				row[b], row[b-1] = row[b-1], row[b]
			}
		}
		for k := 0; k < len(row); {
			j, v := row[k].j, row[k].v
			for k++; k < len(row) && row[k].j == j; k++ {
				v += row[k].v
			}
			if v != 0 {
				m.Indices = append(m.Indices, j)
				m.Values = append(m.Values, v)
			}
		}
		m.Indptr[i+1] = int64(len(m.Values))
	}
	out.Sparse = append(out.Sparse, SparseBlock{Prefix: "hash", M: m})
	return out, nil
}
