package param

import (
	"slices"

	"github.com/polyclass/polyclass/framework/problem"
)

// Condition is one case in which a parameter applies (see
// ParamSpec.AppliesWhen): it holds when each of its clauses holds and,
// when Problems is not empty, the learner fits problems of one of those
// kinds (the kind a row's reduction hands its learner: binary problems
// for ova, the whole multiclass task for scheme none).
type Condition struct {
	Clauses  []Clause
	Problems []problem.ProblemKind
}

// Clause holds when parameter Param of the same schema applies and has
// one of the values OneOf.
type Clause struct {
	Param string
	OneOf []Value
}

// When returns the condition that parameter name has one of the string
// values: When("solver", "sgd", "gd").
func When(name string, values ...string) Condition {
	return Condition{}.And(name, values...)
}

// And returns c with the clause that parameter name has one of the
// string values added.
func (c Condition) And(name string, values ...string) Condition {
	vs := make([]Value, len(values))
	for i, v := range values {
		vs[i] = String(v)
	}
	c.Clauses = append(slices.Clone(c.Clauses), Clause{Param: name, OneOf: vs})
	return c
}

// On returns c limited to learners fitting problems of the kinds given.
func (c Condition) On(kinds ...problem.ProblemKind) Condition {
	c.Problems = kinds
	return c
}

// OnProblems returns the condition that the learner fits problems of one
// of the kinds given.
func OnProblems(kinds ...problem.ProblemKind) Condition {
	return Condition{}.On(kinds...)
}

// Applies reports whether parameter name applies to a learner (or
// reducer) with parameters p, defaults included (see WithDefaults), that
// fits problems of kind (0: not known, which every condition on the kind
// admits). A name without a spec, or with a spec without conditions,
// applies.
func Applies(specs []ParamSpec, name string, p Params, kind problem.ProblemKind) bool {
	return applies(specs, name, p, kind, len(specs))
}

// applies is Applies following at most depth clauses deep, so that
// conditions that refer to each other in a cycle end (as not applying).
func applies(specs []ParamSpec, name string, p Params, kind problem.ProblemKind, depth int) bool {
	i := slices.IndexFunc(specs, func(s ParamSpec) bool { return s.Name == name })
	if i < 0 || len(specs[i].AppliesWhen) == 0 {
		return true
	}
	if depth < 0 {
		return false
	}
	return slices.ContainsFunc(specs[i].AppliesWhen, func(c Condition) bool {
		return c.holds(specs, p, kind, depth-1)
	})
}

// holds reports whether c holds for parameters p and problem kind.
func (c Condition) holds(specs []ParamSpec, p Params, kind problem.ProblemKind, depth int) bool {
	if kind != 0 && len(c.Problems) > 0 && !slices.Contains(c.Problems, kind) {
		return false
	}
	for _, cl := range c.Clauses {
		v, ok := p[cl.Param]
		if !ok || !slices.ContainsFunc(cl.OneOf, v.Equal) || !applies(specs, cl.Param, p, kind, depth) {
			return false
		}
	}
	return true
}
