package encode

import (
	"fmt"
	"reflect"
	"runtime"
	"testing"

	"github.com/polyclass/polyclass/framework/sparse"
)

// TestHashNames: the design of a numeric column beside a hash block of 4
// buckets names its columns x, hash[0] … hash[3], and a listed block after
// it keeps its own names; FeatureNames gives each name on its own (Name)
// and all of them (List) alike.
func TestHashNames(t *testing.T) {
	f := &Frame{Rows: 3, Num: []NumCol{{"x", []float64{1, 2, 3}}}, Cat: []CatCol{catCol("color", "red", "blue", "red")}}
	out, err := (&Hash{Buckets: 4}).FitTransform(f, &Context{})
	if err != nil {
		t.Fatal(err)
	}
	listed := &sparse.CSR{Rows: 3, Cols: 2, Indptr: make([]int64, 4)}
	out.Sparse = append(out.Sparse, SparseBlock{Names: []string{"u", "v"}, M: listed})
	m, names, err := out.Design()
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"x", "hash[0]", "hash[1]", "hash[2]", "hash[3]", "u", "v"}
	if got := names.List(); !reflect.DeepEqual(got, want) {
		t.Errorf("names %q, want %q", got, want)
	}
	if _, c := m.Dims(); names.Len() != c || c != len(want) {
		t.Errorf("%d names for %d columns, want %d", names.Len(), c, len(want))
	}
	for j, w := range want {
		if got := names.Name(j); got != w {
			t.Errorf("Name(%d) = %q, want %q", j, got, w)
		}
	}
	// The buckets hold what HashBucket says: red and blue each in its own.
	for i, v := range []string{"red", "blue", "red"} {
		b, _ := HashBucket(0, "color", v, 4)
		if got := m.CSR.At(i, 1+b); got != 1 {
			t.Errorf("row %d (%s): hash[%d] = %v, want 1", i, v, b, got)
		}
	}
}

// TestHashWideAllocations: hashing at the largest bucket count an
// experiment may ask for (2^26) allocates in proportion to the rows, not
// to the buckets, in FitTransform and in Design: no name is made until
// asked, and the last bucket's is right. Before the names were made when
// asked, FitTransform alone allocated over 1 GiB here (16 bytes of string
// header and a Sprintf per bucket).
func TestHashWideAllocations(t *testing.T) {
	const buckets, rows = 1 << 26, 2000
	values := make([]string, rows)
	for i := range values {
		values[i] = fmt.Sprint("v", i%37)
	}
	f := &Frame{Rows: rows, Cat: []CatCol{catCol("a", values...), catCol("b", values...)}}
	var names FeatureNames
	allocated := allocatedBytes(func() {
		out, err := (&Hash{Buckets: buckets, Signed: true}).FitTransform(f, &Context{})
		if err != nil {
			t.Fatal(err)
		}
		m, n, err := out.Design()
		if err != nil {
			t.Fatal(err)
		}
		names = n
		if r, c := m.Dims(); r != rows || c != buckets {
			t.Fatalf("design %d×%d, want %d×%d", r, c, rows, buckets)
		}
	})
	// Per row: two entries of 12 bytes in the block and again in the
	// design, and a row pointer of 8 bytes in each: 64 bytes; 1 MiB covers
	// that for 2,000 rows with room for the slices' growth, and is a
	// thousandth of what one string header per bucket takes.
	if allocated > 1<<20 {
		t.Errorf("FitTransform and Design of %d rows into %d buckets allocated %d bytes, want at most %d (O(rows))", rows, buckets, allocated, 1<<20)
	}
	if names.Len() != buckets || names.Name(buckets-1) != "hash[67108863]" || names.Name(0) != "hash[0]" {
		t.Errorf("%d names, first %q, last %q; want %d, hash[0], hash[67108863]", names.Len(), names.Name(0), names.Name(buckets-1), buckets)
	}
}

// allocatedBytes returns the bytes of heap do allocates (all of them,
// freed or not).
func allocatedBytes(do func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	do()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}
