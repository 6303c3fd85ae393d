package param

import (
	"errors"
	"fmt"
	"slices"
	"strings"

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

// String says the condition in words: "solver is sgd or gd and the
// learner fits binary problems".
func (c Condition) String() string {
	var parts []string
	for _, cl := range c.Clauses {
		vs := make([]string, len(cl.OneOf))
		for i, v := range cl.OneOf {
			vs[i] = v.String()
		}
		parts = append(parts, cl.Param+" is "+orList(vs))
	}
	if len(c.Problems) > 0 {
		ks := make([]string, len(c.Problems))
		for i, k := range c.Problems {
			ks[i] = k.String()
		}
		parts = append(parts, "the learner fits "+orList(ks)+" problems")
	}
	if len(parts) == 0 {
		return "always"
	}
	return strings.Join(parts, " and ")
}

// AppliesWhenText says when the parameter applies: its conditions in
// words, joined by "; or when "; "always" for none.
func (s ParamSpec) AppliesWhenText() string {
	if len(s.AppliesWhen) == 0 {
		return "always"
	}
	parts := make([]string, len(s.AppliesWhen))
	for i, c := range s.AppliesWhen {
		parts[i] = c.String()
	}
	return strings.Join(parts, "; or when ")
}

// orList joins words as "a", "a or b", "a, b or c".
func orList(words []string) string {
	if len(words) < 2 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + " or " + words[len(words)-1]
}

// CheckConditions checks the conditions of specs: each clause names
// another declared parameter with values that pass its spec, and each
// problem kind is binary, multiclass or regression.
func CheckConditions(specs []ParamSpec) []error {
	var errs []error
	for _, s := range specs {
		for _, c := range s.AppliesWhen {
			for _, err := range c.check(s.Name, specs) {
				errs = append(errs, fmt.Errorf("parameter %s applies when %s: %w", s.Name, c, err))
			}
		}
	}
	return errs
}

// check checks condition c of parameter name against specs.
func (c Condition) check(name string, specs []ParamSpec) []error {
	var errs []error
	for _, cl := range c.Clauses {
		i := slices.IndexFunc(specs, func(s ParamSpec) bool { return s.Name == cl.Param })
		switch {
		case cl.Param == name:
			errs = append(errs, errors.New("a parameter's condition cannot name the parameter itself"))
		case i < 0:
			errs = append(errs, fmt.Errorf("no parameter %s is declared", cl.Param))
		default:
			for _, v := range cl.OneOf {
				if err := specs[i].Check(v); err != nil {
					errs = append(errs, err)
				}
			}
		}
	}
	for _, k := range c.Problems {
		if k.String() == "unknown" {
			errs = append(errs, fmt.Errorf("problem kind %d is none of binary, multiclass, regression", k))
		}
	}
	return errs
}
