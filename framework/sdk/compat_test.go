package sdk

import (
	"testing"

	"google.golang.org/protobuf/proto"

	pb "github.com/polyclass/polyclass/framework/internal/protov1"
)

// A v1 plugin flags its bounds with has_min/has_max, and proto3 leaves a
// bound of 0 off the wire: the host still reads min = 0.
func TestParamSpecV1Bounds(t *testing.T) {
	//lint:ignore SA1019 builds what a v1 plugin sends
	v1 := &pb.ParamSpec{Name: "alpha", Type: pb.ParamSpec_NUMBER, HasMin: true, HasMax: true, Max: proto.Float64(3)}
	b, err := proto.Marshal(v1)
	if err != nil {
		t.Fatal(err)
	}
	var got pb.ParamSpec
	if err := proto.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	if got.Min != nil {
		t.Fatalf("min 0 travelled: %v", got.Min)
	}
	s := specFromPB(&got)
	if s.Min == nil || *s.Min != 0 || s.Max == nil || *s.Max != 3 {
		t.Fatalf("bounds %v %v, want 0 and 3", s.Min, s.Max)
	}
	// Now: a bound of 0 travels with presence; no bound stays none.
	s = specFromPB(specToPB(ParamSpec{Name: "alpha", Type: NumberParam, Min: Bound(0)}))
	if s.Min == nil || *s.Min != 0 || s.Max != nil {
		t.Fatalf("bounds %v %v, want 0 and none", s.Min, s.Max)
	}
}

// The plan's code diagnostics cross the wire as they are; a plan without
// them has none.
func TestCodeDiagnosticsWire(t *testing.T) {
	d := &CodeDiagnostics{Classes: 4, Columns: 7, MinDistance: 3.5, MeanDistance: 4.25, Correcting: 1}
	if got := codeDiagnosticsFromPB(codeDiagnosticsToPB(d)); *got != *d {
		t.Fatalf("got %+v, want %+v", got, d)
	}
	if codeDiagnosticsFromPB(nil) != nil || codeDiagnosticsToPB(nil) != nil {
		t.Fatal("nil diagnostics are not nil")
	}
}
