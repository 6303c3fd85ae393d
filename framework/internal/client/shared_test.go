//go:build linux

package client

import (
	"strings"
	"testing"

	"github.com/polyclass/polyclass/framework/internal/convert"
	pb "github.com/polyclass/polyclass/framework/internal/protov1"
	"github.com/polyclass/polyclass/framework/sharedmem"
)

// TestAnswerOutsideOffer: a Predict answer naming a region the call did
// not offer is refused, as is one naming a region when none was offered.
func TestAnswerOutsideOffer(t *testing.T) {
	seg, err := sharedmem.Create(1 << 16)
	if err != nil {
		t.Fatal(err)
	}
	defer seg.Close()
	c := &LearnerClient{shared: seg}
	out, _ := seg.Alloc(8 * 10)
	defer seg.Free(out)
	for _, tc := range []struct {
		name    string
		d       *pb.Dense
		offered bool
		want    string
	}{
		{"before", convert.SharedDenseToPB(2, 5, sharedmem.Region{Offset: out.Offset - 64}), true, "outside the region"},
		{"past the end", convert.SharedDenseToPB(2, 5, sharedmem.Region{Offset: out.Offset + out.Length - 8}), true, "outside the region"},
		{"too large", convert.SharedDenseToPB(4, 5, out), true, "outside the region"}, // 160 bytes; Alloc(80) gave 128
		{"not offered", convert.SharedDenseToPB(2, 5, out), false, "offered none"},
	} {
		if _, err := c.answer(tc.d, out, tc.offered); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one containing %q", tc.name, err, tc.want)
		}
	}
	v, _ := seg.Floats(out, 10)
	for i := range v {
		v[i] = float64(i)
	}
	got, err := c.answer(convert.SharedDenseToPB(2, 5, out), out, true)
	if err != nil || got.At(1, 4) != 9 {
		t.Fatalf("answer in the offered region: %v, %v; want value 9 at (1, 4)", got, err)
	}
	v[9] = -1 // the answer is a copy: the region is freed when the call returns
	if got.At(1, 4) != 9 {
		t.Error("the answer aliases the shared region")
	}
}
