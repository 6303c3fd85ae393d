package convert

import (
	"slices"
	"testing"

	"google.golang.org/protobuf/proto"

	pb "github.com/polyclass/polyclass/framework/internal/protov1"
	"github.com/polyclass/polyclass/framework/param"
	"github.com/polyclass/polyclass/framework/problem"
)

// A v1 plugin flags its bounds with has_min/has_max, and proto3 leaves a
// bound of 0 off the wire: the host still reads min = 0.
func TestParamSpecV1Bounds(t *testing.T) {
	//lint:ignore SA1019 builds what a v1 plugin sends
	v1 := &pb.ParamSpec{Name: "alpha", Type: pb.ParamSpec_NUMBER, HasMin: true, HasMax: true, Max: proto.Float64(3)}
	var got pb.ParamSpec
	throughWire(t, v1, &got)
	if got.Min != nil {
		t.Fatalf("min 0 travelled: %v", got.Min)
	}
	s := specFromPB(&got)
	if s.Min == nil || *s.Min != 0 || s.Max == nil || *s.Max != 3 {
		t.Fatalf("bounds %v %v, want 0 and 3", s.Min, s.Max)
	}
	// Now: a bound of 0 travels with presence; no bound stays none. The
	// v1 flags are set too, for a host that reads only them.
	sent := specToPB(param.ParamSpec{Name: "alpha", Type: param.NumberParam, Min: param.Bound(0)})
	//lint:ignore SA1019 checks what an older host reads
	if !sent.HasMin || sent.HasMax {
		t.Errorf("has_min %v, has_max %v; want true and false", sent.HasMin, sent.HasMax) //lint:ignore SA1019 see above
	}
	s = specFromPB(sent)
	if s.Min == nil || *s.Min != 0 || s.Max != nil {
		t.Fatalf("bounds %v %v, want 0 and none", s.Min, s.Max)
	}
}

// A spec's conditions (when the parameter applies) cross the wire as
// they are: clauses with their values, problem kinds, and none as none.
func TestParamSpecConditionsWire(t *testing.T) {
	want := []param.Condition{
		param.When("solver", "sgd", "gd"),
		param.OnProblems(problem.Multiclass, problem.Regression),
		{Clauses: []param.Clause{{Param: "multinomial", OneOf: []param.Value{param.Bool(false)}}, {Param: "C", OneOf: []param.Value{param.Number(2)}}}, Problems: []problem.ProblemKind{problem.Binary}},
	}
	var got pb.ParamSpec
	throughWire(t, specToPB(param.ParamSpec{Name: "step", Type: param.NumberParam, AppliesWhen: want}), &got)
	s := specFromPB(&got)
	if len(s.AppliesWhen) != len(want) {
		t.Fatalf("%d conditions came back, want %d: %+v", len(s.AppliesWhen), len(want), s.AppliesWhen)
	}
	for i, c := range s.AppliesWhen {
		w := want[i]
		if !slices.Equal(c.Problems, w.Problems) || !slices.EqualFunc(c.Clauses, w.Clauses, func(a, b param.Clause) bool {
			return a.Param == b.Param && slices.EqualFunc(a.OneOf, b.OneOf, param.Value.Equal)
		}) {
			t.Errorf("condition %d = %+v, want %+v", i, c, w)
		}
	}
	throughWire(t, specToPB(param.ParamSpec{Name: "C", Type: param.NumberParam}), &got)
	if s := specFromPB(&got); s.AppliesWhen != nil {
		t.Errorf("a spec without conditions came back with %+v", s.AppliesWhen)
	}
}

// A spec's budget flag (a parameter a tune block may grow as its
// resource) crosses the wire, and a spec without it comes back without.
func TestParamSpecBudgetWire(t *testing.T) {
	for _, budget := range []bool{true, false} {
		var got pb.ParamSpec
		throughWire(t, specToPB(param.ParamSpec{Name: "max_iter", Type: param.IntegerParam, Budget: budget}), &got)
		if s := specFromPB(&got); s.Budget != budget {
			t.Errorf("budget %v came back as %v", budget, s.Budget)
		}
	}
}

// What a spec's default stands for (DefaultMeans) crosses the wire as it
// is, and a spec without it comes back without: a plugin's placeholder
// default reaches the host's set-up table.
func TestParamSpecDefaultMeansWire(t *testing.T) {
	for _, means := range []string{"1/features", "", "√features · 2"} {
		var got pb.ParamSpec
		throughWire(t, specToPB(param.ParamSpec{Name: "gamma", Type: param.NumberParam, Default: param.Number(0), DefaultMeans: means}), &got)
		if got.GetDefaultMeans() != means {
			t.Errorf("default_means %q went on the wire as %q", means, got.GetDefaultMeans())
		}
		if s := specFromPB(&got); s.DefaultMeans != means || !s.Default.Equal(param.Number(0)) {
			t.Errorf("default_means %q came back as %q (default %v)", means, s.DefaultMeans, s.Default)
		}
	}
}

// The plan's code diagnostics cross the wire as they are; a plan without
// them has none.
func TestCodeDiagnosticsWire(t *testing.T) {
	d := &problem.CodeDiagnostics{Classes: 4, Columns: 7, MinDistance: 3.5, MeanDistance: 4.25, Correcting: 1}
	if got := CodeDiagnosticsFromPB(CodeDiagnosticsToPB(d)); *got != *d {
		t.Fatalf("got %+v, want %+v", got, d)
	}
	if CodeDiagnosticsFromPB(nil) != nil || CodeDiagnosticsToPB(nil) != nil {
		t.Fatal("nil diagnostics are not nil")
	}
}

// Class indices are 0..K−1 in Go; only a Multiclass problem's wire targets
// are 1..K with 0 for a row not used. Other kinds cross unchanged.
func TestMulticlassTargetsShiftAtTheWire(t *testing.T) {
	p := problem.Problem{Kind: problem.Multiclass, NumClasses: 3, Targets: []float64{0, 2, problem.NotUsed, 1}}
	w := ProblemToPB(p)
	if got, want := w.GetTargets(), []float64{1, 3, 0, 2}; !slices.Equal(got, want) {
		t.Fatalf("wire targets %v, want %v", got, want)
	}
	if !slices.Equal(p.Targets, []float64{0, 2, problem.NotUsed, 1}) {
		t.Fatalf("the conversion changed the problem's targets: %v", p.Targets)
	}
	if back := ProblemFromPB(w); !slices.Equal(back.Targets, p.Targets) || back.Uses(2) || !back.Uses(0) {
		t.Fatalf("back from the wire: %v", back.Targets)
	}
	for _, q := range []problem.Problem{{Kind: problem.Binary, Targets: []float64{1, 0, -1}}, {Kind: problem.Regression, Targets: []float64{0, 2.5}}} {
		if got := ProblemToPB(q).GetTargets(); !slices.Equal(got, q.Targets) {
			t.Errorf("%v targets %v went as %v", q.Kind, q.Targets, got)
		}
	}
}
