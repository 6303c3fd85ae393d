package convert

import (
	pb "github.com/polyclass/polyclass/framework/internal/protov1"
	"github.com/polyclass/polyclass/framework/param"
	"github.com/polyclass/polyclass/framework/problem"
)

func valueToPB(v param.Value) *pb.Value {
	switch v.Kind() {
	case param.NumberValue:
		return &pb.Value{Kind: &pb.Value_Number{Number: v.Num()}}
	case param.StringValue:
		return &pb.Value{Kind: &pb.Value_String_{String_: v.Str()}}
	case param.BoolValue:
		return &pb.Value{Kind: &pb.Value_Bool{Bool: v.Truth()}}
	case param.ListValue:
		l := &pb.ValueList{Values: make([]*pb.Value, len(v.Elems()))}
		for i, e := range v.Elems() {
			l.Values[i] = valueToPB(e)
		}
		return &pb.Value{Kind: &pb.Value_List{List: l}}
	}
	return &pb.Value{}
}

func valueFromPB(v *pb.Value) param.Value {
	switch k := v.GetKind().(type) {
	case *pb.Value_Number:
		return param.Number(k.Number)
	case *pb.Value_String_:
		return param.String(k.String_)
	case *pb.Value_Bool:
		return param.Bool(k.Bool)
	case *pb.Value_List:
		vs := make([]param.Value, len(k.List.GetValues()))
		for i, e := range k.List.GetValues() {
			vs[i] = valueFromPB(e)
		}
		return param.List(vs...)
	}
	return param.Value{}
}

// ParamsToPB returns the message form of p.
func ParamsToPB(p param.Params) map[string]*pb.Value {
	out := make(map[string]*pb.Value, len(p))
	for n, v := range p {
		out[n] = valueToPB(v)
	}
	return out
}

// ParamsFromPB returns the parameters of message m.
func ParamsFromPB(m map[string]*pb.Value) param.Params {
	out := make(param.Params, len(m))
	for n, v := range m {
		out[n] = valueFromPB(v)
	}
	return out
}

func specToPB(s param.ParamSpec) *pb.ParamSpec {
	out := &pb.ParamSpec{
		Name: s.Name, Type: pb.ParamSpec_Type(s.Type), Description: s.Description,
		Allowed: s.Allowed, MinExclusive: s.MinExclusive, AppliesWhen: conditionsToPB(s.AppliesWhen), Budget: s.Budget,
		DefaultMeans: s.DefaultMeans, AtMostTrainingRows: s.AtMostTrainingRows,
	}
	if !s.Default.IsNull() {
		out.Default = valueToPB(s.Default)
	}
	// The deprecated flags are set too, for hosts older than the
	// optional fields: they read a bound only when its flag is set.
	if s.Min != nil {
		out.Min = param.Bound(*s.Min)
		out.HasMin = true //lint:ignore SA1019 for older hosts, see above
	}
	if s.Max != nil {
		out.Max = param.Bound(*s.Max)
		out.HasMax = true //lint:ignore SA1019 for older hosts, see above
	}
	return out
}

func specFromPB(s *pb.ParamSpec) param.ParamSpec {
	out := param.ParamSpec{
		Name: s.GetName(), Type: param.ParamType(s.GetType()), Description: s.GetDescription(),
		Allowed: s.GetAllowed(), MinExclusive: s.GetMinExclusive(), AppliesWhen: conditionsFromPB(s.GetAppliesWhen()), Budget: s.GetBudget(),
		DefaultMeans: s.GetDefaultMeans(), AtMostTrainingRows: s.GetAtMostTrainingRows(),
	}
	if s.Default != nil {
		out.Default = valueFromPB(s.Default)
	}
	// A v1 plugin flags a bound with has_min/has_max and leaves a bound
	// of 0 off the wire; GetMin is then 0, which is the bound.
	//lint:ignore SA1019 reads the deprecated flag of v1 plugins
	if s.Min != nil || s.GetHasMin() {
		out.Min = param.Bound(s.GetMin())
	}
	//lint:ignore SA1019 reads the deprecated flag of v1 plugins
	if s.Max != nil || s.GetHasMax() {
		out.Max = param.Bound(s.GetMax())
	}
	return out
}

// conditionsToPB returns the message form of cs (nil for none).
func conditionsToPB(cs []param.Condition) []*pb.Condition {
	if len(cs) == 0 {
		return nil
	}
	out := make([]*pb.Condition, len(cs))
	for i, c := range cs {
		m := &pb.Condition{}
		for _, cl := range c.Clauses {
			vs := make([]*pb.Value, len(cl.OneOf))
			for j, v := range cl.OneOf {
				vs[j] = valueToPB(v)
			}
			m.Clauses = append(m.Clauses, &pb.Clause{Param: cl.Param, OneOf: vs})
		}
		for _, k := range c.Problems {
			m.Problems = append(m.Problems, pb.Problem_Kind(k))
		}
		out[i] = m
	}
	return out
}

// conditionsFromPB returns the conditions of messages cs (nil for none).
func conditionsFromPB(cs []*pb.Condition) []param.Condition {
	if len(cs) == 0 {
		return nil
	}
	out := make([]param.Condition, len(cs))
	for i, m := range cs {
		var c param.Condition
		for _, cl := range m.GetClauses() {
			vs := make([]param.Value, len(cl.GetOneOf()))
			for j, v := range cl.GetOneOf() {
				vs[j] = valueFromPB(v)
			}
			c.Clauses = append(c.Clauses, param.Clause{Param: cl.GetParam(), OneOf: vs})
		}
		for _, k := range m.GetProblems() {
			c.Problems = append(c.Problems, problem.ProblemKind(k))
		}
		out[i] = c
	}
	return out
}

// SpecsToPB returns the message form of ss.
func SpecsToPB(ss []param.ParamSpec) []*pb.ParamSpec {
	out := make([]*pb.ParamSpec, len(ss))
	for i, s := range ss {
		out[i] = specToPB(s)
	}
	return out
}

// SpecsFromPB returns the specs of messages ss.
func SpecsFromPB(ss []*pb.ParamSpec) []param.ParamSpec {
	out := make([]param.ParamSpec, len(ss))
	for i, s := range ss {
		out[i] = specFromPB(s)
	}
	return out
}
