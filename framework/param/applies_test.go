package param

import (
	"testing"

	"github.com/polyclass/polyclass/framework/problem"
)

// TestApplies: a parameter applies when any of its conditions holds; a
// clause needs its parameter to apply too; a condition on the problem
// kind admits an unknown kind; a cycle ends as not applying.
func TestApplies(t *testing.T) {
	specs := []ParamSpec{
		{Name: "C", Type: NumberParam, Default: Number(1)},
		{Name: "solver", Type: StringParam, Default: String("newton"), AppliesWhen: []Condition{OnProblems(problem.Binary)}},
		{Name: "multinomial", Type: BoolParam, Default: Bool(true), AppliesWhen: []Condition{OnProblems(problem.Multiclass)}},
		{Name: "max_iter", Type: IntegerParam, Default: Number(1000), AppliesWhen: []Condition{When("solver", "newton", "lbfgs", "gd"), OnProblems(problem.Multiclass)}},
		{Name: "epochs", Type: IntegerParam, Default: Number(100), AppliesWhen: []Condition{When("solver", "sgd")}},
		{Name: "shrink", Type: BoolParam, AppliesWhen: []Condition{Condition{Clauses: []Clause{{Param: "C", OneOf: []Value{Number(2)}}}}.And("solver", "gd")}},
		{Name: "a", Type: StringParam, Default: String("x"), AppliesWhen: []Condition{When("b", "x")}},
		{Name: "b", Type: StringParam, Default: String("x"), AppliesWhen: []Condition{When("a", "x")}},
	}
	newton := WithDefaults(specs, nil)
	sgd := WithDefaults(specs, Params{"solver": String("sgd")})
	gd2 := WithDefaults(specs, Params{"solver": String("gd"), "C": Number(2)})
	gd1 := WithDefaults(specs, Params{"solver": String("gd")})
	tests := []struct {
		name string
		p    Params
		kind problem.ProblemKind
		want bool
	}{
		{"C", newton, problem.Binary, true},
		{"undeclared", newton, problem.Binary, true},
		{"solver", newton, problem.Binary, true},
		{"solver", newton, problem.Multiclass, false},
		{"solver", newton, 0, true},
		{"multinomial", newton, problem.Binary, false},
		{"multinomial", newton, problem.Multiclass, true},
		{"max_iter", newton, problem.Binary, true},
		{"max_iter", sgd, problem.Binary, false},
		{"max_iter", sgd, problem.Multiclass, true},
		{"epochs", newton, problem.Binary, false},
		{"epochs", sgd, problem.Binary, true},
		// solver = sgd, but solver does not apply to a multiclass problem.
		{"epochs", sgd, problem.Multiclass, false},
		{"shrink", gd2, problem.Binary, true},
		{"shrink", gd1, problem.Binary, false},
		{"a", newton, problem.Binary, false},
	}
	for _, tt := range tests {
		if got := Applies(specs, tt.name, tt.p, tt.kind); got != tt.want {
			t.Errorf("Applies(%s, %v, %v) = %v, want %v", tt.name, tt.p, tt.kind, got, tt.want)
		}
	}
}

// TestConditionBuilders: And and On leave the condition they start from
// as it was.
func TestConditionBuilders(t *testing.T) {
	base := When("kernel", "rbf")
	both := base.And("method", "smo").On(problem.Binary)
	if len(base.Clauses) != 1 || base.Problems != nil {
		t.Errorf("base changed to %+v", base)
	}
	if len(both.Clauses) != 2 || both.Clauses[1].Param != "method" || !both.Clauses[1].OneOf[0].Equal(String("smo")) || len(both.Problems) != 1 || both.Problems[0] != problem.Binary {
		t.Errorf("both = %+v", both)
	}
}

// TestAppliesWhenText: a spec's conditions in words, as validate's
// warning says them.
func TestAppliesWhenText(t *testing.T) {
	for _, tc := range []struct {
		conds []Condition
		want  string
	}{
		{nil, "always"},
		{[]Condition{When("solver", "sgd")}, "solver is sgd"},
		{[]Condition{When("solver", "newton", "lbfgs", "gd"), OnProblems(problem.Multiclass)},
			"solver is newton, lbfgs or gd; or when the learner fits multiclass problems"},
		{[]Condition{When("method", "dual_cd").On(problem.Binary, problem.Regression).And("kernel", "linear")},
			"method is dual_cd and kernel is linear and the learner fits binary or regression problems"},
		{[]Condition{{Clauses: []Clause{{Param: "multinomial", OneOf: []Value{Bool(false)}}}}}, "multinomial is false"},
	} {
		if got := (ParamSpec{Name: "x", AppliesWhen: tc.conds}).AppliesWhenText(); got != tc.want {
			t.Errorf("AppliesWhenText() = %q, want %q", got, tc.want)
		}
	}
}
