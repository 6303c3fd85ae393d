package sdk

import (
	"encoding/binary"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	pb "github.com/polyclass/polyclass/framework/internal/protov1"
)

func valueToPB(v Value) *pb.Value {
	switch v.kind {
	case NumberValue:
		return &pb.Value{Kind: &pb.Value_Number{Number: v.num}}
	case StringValue:
		return &pb.Value{Kind: &pb.Value_String_{String_: v.str}}
	case BoolValue:
		return &pb.Value{Kind: &pb.Value_Bool{Bool: v.b}}
	case ListValue:
		l := &pb.ValueList{Values: make([]*pb.Value, len(v.list))}
		for i, e := range v.list {
			l.Values[i] = valueToPB(e)
		}
		return &pb.Value{Kind: &pb.Value_List{List: l}}
	}
	return &pb.Value{}
}

func valueFromPB(v *pb.Value) Value {
	switch k := v.GetKind().(type) {
	case *pb.Value_Number:
		return Number(k.Number)
	case *pb.Value_String_:
		return String(k.String_)
	case *pb.Value_Bool:
		return Bool(k.Bool)
	case *pb.Value_List:
		vs := make([]Value, len(k.List.GetValues()))
		for i, e := range k.List.GetValues() {
			vs[i] = valueFromPB(e)
		}
		return List(vs...)
	}
	return Value{}
}

func paramsToPB(p Params) map[string]*pb.Value {
	out := make(map[string]*pb.Value, len(p))
	for n, v := range p {
		out[n] = valueToPB(v)
	}
	return out
}

func paramsFromPB(m map[string]*pb.Value) Params {
	out := make(Params, len(m))
	for n, v := range m {
		out[n] = valueFromPB(v)
	}
	return out
}

func specToPB(s ParamSpec) *pb.ParamSpec {
	out := &pb.ParamSpec{
		Name: s.Name, Type: pb.ParamSpec_Type(s.Type), Description: s.Description,
		Allowed: s.Allowed, MinExclusive: s.MinExclusive,
	}
	if !s.Default.IsNull() {
		out.Default = valueToPB(s.Default)
	}
	if s.Min != nil {
		out.Min = Bound(*s.Min)
	}
	if s.Max != nil {
		out.Max = Bound(*s.Max)
	}
	return out
}

func specFromPB(s *pb.ParamSpec) ParamSpec {
	out := ParamSpec{
		Name: s.GetName(), Type: ParamType(s.GetType()), Description: s.GetDescription(),
		Allowed: s.GetAllowed(), MinExclusive: s.GetMinExclusive(),
	}
	if s.Default != nil {
		out.Default = valueFromPB(s.Default)
	}
	// A v1 plugin flags a bound with has_min/has_max and leaves a bound
	// of 0 off the wire; GetMin is then 0, which is the bound.
	//lint:ignore SA1019 reads the deprecated flag of v1 plugins
	if s.Min != nil || s.GetHasMin() {
		out.Min = Bound(s.GetMin())
	}
	//lint:ignore SA1019 reads the deprecated flag of v1 plugins
	if s.Max != nil || s.GetHasMax() {
		out.Max = Bound(s.GetMax())
	}
	return out
}

func specsToPB(ss []ParamSpec) []*pb.ParamSpec {
	out := make([]*pb.ParamSpec, len(ss))
	for i, s := range ss {
		out[i] = specToPB(s)
	}
	return out
}

func specsFromPB(ss []*pb.ParamSpec) []ParamSpec {
	out := make([]ParamSpec, len(ss))
	for i, s := range ss {
		out[i] = specFromPB(s)
	}
	return out
}

func problemToPB(p Problem) *pb.Problem {
	return &pb.Problem{
		Kind: pb.Problem_Kind(p.Kind), Targets: classesToWire(p.Kind, p.Targets), NumClasses: int32(p.NumClasses),
		Weights: p.Weights, Seed: p.Seed,
	}
}

func problemFromPB(p *pb.Problem) Problem {
	return Problem{
		Kind: ProblemKind(p.GetKind()), Targets: classesFromWire(ProblemKind(p.GetKind()), p.GetTargets()), NumClasses: int(p.GetNumClasses()),
		Weights: p.GetWeights(), Seed: p.GetSeed(),
	}
}

// denseToPB encodes m as little-endian float64 bytes; nil stays nil.
func denseToPB(m *mat.Dense) *pb.Dense {
	if m == nil {
		return nil
	}
	r, c := m.Dims()
	buf := make([]byte, 8*r*c)
	k := 0
	for i := 0; i < r; i++ {
		for _, v := range m.RawRowView(i) {
			binary.LittleEndian.PutUint64(buf[k:], math.Float64bits(v))
			k += 8
		}
	}
	return &pb.Dense{Rows: int64(r), Cols: int64(c), Data: buf}
}

// denseFromPB decodes a matrix message; nil or empty gives nil.
func denseFromPB(d *pb.Dense) (*mat.Dense, error) {
	if d == nil || d.GetRows() == 0 || d.GetCols() == 0 {
		return nil, nil
	}
	r, c := int(d.GetRows()), int(d.GetCols())
	if int64(len(d.GetData())) != 8*d.GetRows()*d.GetCols() {
		return nil, fmt.Errorf("matrix %d×%d carries %d bytes, want %d", r, c, len(d.GetData()), 8*r*c)
	}
	vals := make([]float64, r*c)
	for i := range vals {
		vals[i] = math.Float64frombits(binary.LittleEndian.Uint64(d.Data[8*i:]))
	}
	return mat.NewDense(r, c, vals), nil
}

func codeToPB(c *CodeMatrix) *pb.CodeMatrix {
	if c == nil {
		return nil
	}
	e := make([]int32, len(c.Entries))
	for i, v := range c.Entries {
		e[i] = int32(v)
	}
	return &pb.CodeMatrix{Rows: int32(c.Rows), Cols: int32(c.Cols), Entries: e}
}

func codeFromPB(c *pb.CodeMatrix) *CodeMatrix {
	if c == nil {
		return nil
	}
	e := make([]int8, len(c.GetEntries()))
	for i, v := range c.GetEntries() {
		e[i] = int8(v)
	}
	return &CodeMatrix{Rows: int(c.GetRows()), Cols: int(c.GetCols()), Entries: e}
}

func intsToInt64(xs []int) []int64 {
	out := make([]int64, len(xs))
	for i, x := range xs {
		out[i] = int64(x)
	}
	return out
}

func intsToInt32(xs []int) []int32 {
	out := make([]int32, len(xs))
	for i, x := range xs {
		out[i] = int32(x)
	}
	return out
}

func int32sToInts(xs []int32) []int {
	out := make([]int, len(xs))
	for i, x := range xs {
		out[i] = int(x)
	}
	return out
}
