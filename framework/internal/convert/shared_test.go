//go:build linux

package convert

import (
	"strings"
	"testing"

	pb "github.com/polyclass/polyclass/framework/internal/protov1"
	"github.com/polyclass/polyclass/framework/sharedmem"
)

func TestDenseFromShared(t *testing.T) {
	seg, err := sharedmem.Create(1 << 16)
	if err != nil {
		t.Fatal(err)
	}
	defer seg.Close()
	r, _ := seg.Alloc(8 * 6)
	v, _ := seg.Floats(r, 6)
	for i := range v {
		v[i] = float64(i) + 0.5
	}
	m, err := DenseFromShared(seg, SharedDenseToPB(2, 3, r))
	if err != nil || m.At(1, 2) != 5.5 {
		t.Fatalf("2×3 matrix in the segment: %v, %v; want 5.5 at (1, 2)", m, err)
	}
	v[5] = -1
	if m.At(1, 2) != -1 {
		t.Error("the matrix does not alias the segment")
	}
	if m, err := DenseFromShared(nil, DenseToPB(m)); err != nil || m.At(1, 2) != -1 {
		t.Errorf("an inline matrix: %v, %v", m, err)
	}
	for _, tc := range []struct {
		name string
		seg  *sharedmem.Segment
		d    *pb.Dense
		want string
	}{
		{"no segment", nil, SharedDenseToPB(2, 3, r), "no shared segment"},
		{"both", seg, &pb.Dense{Rows: 1, Cols: 1, Data: make([]byte, 8), Shared: RegionToPB(r)}, "both"},
		{"short region", seg, &pb.Dense{Rows: 2, Cols: 3, Shared: &pb.SharedRegion{Offset: uint64(r.Offset), Length: 40}}, "cannot hold 6"},
		{"outside", seg, &pb.Dense{Rows: 1, Cols: 1, Shared: &pb.SharedRegion{Offset: 1 << 16, Length: 8}}, "outside"},
		{"huge offset", seg, &pb.Dense{Rows: 1, Cols: 1, Shared: &pb.SharedRegion{Offset: 1 << 63, Length: 8}}, "out of range"},
		{"negative rows", seg, &pb.Dense{Rows: -1, Cols: 3, Shared: RegionToPB(r)}, "matrix of -1×3"},
		{"overflowing size", seg, &pb.Dense{Rows: 1 << 40, Cols: 1 << 40, Shared: RegionToPB(r)}, "matrix of"},
	} {
		if _, err := DenseFromShared(tc.seg, tc.d); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one containing %q", tc.name, err, tc.want)
		}
	}
}
