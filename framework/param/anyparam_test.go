package param

import (
	"strings"
	"testing"
)

// TestAnyNameAdmitsUndeclaredParameters: a "*" spec of type any admits
// every name the other specs lack and any value, while declared names keep
// their own checks; without it an unknown name is an error.
func TestAnyNameAdmitsUndeclaredParameters(t *testing.T) {
	declared := ParamSpec{Name: "estimator", Type: StringParam}
	wildcard := ParamSpec{Name: AnyName, Type: AnyParam}
	tests := []struct {
		name    string
		specs   []ParamSpec
		params  Params
		wantErr string
	}{
		{"any value of an undeclared name", []ParamSpec{declared, wildcard},
			Params{"C": Number(10), "kernel": String("rbf"), "probability": Bool(true), "hidden": List(Number(100), Number(50))}, ""},
		{"declared names keep their type", []ParamSpec{declared, wildcard},
			Params{"estimator": Number(1)}, "estimator must be a string, not number"},
		{"no wildcard", []ParamSpec{declared}, Params{"C": Number(1)}, `unknown parameter "C"`},
		{"a wildcard of another type admits nothing", []ParamSpec{declared, {Name: AnyName, Type: StringParam}},
			Params{"C": Number(1)}, `unknown parameter "C"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			errs := CheckParams(tt.specs, tt.params)
			if tt.wantErr == "" {
				if len(errs) != 0 {
					t.Fatalf("errors %v, want none", errs)
				}
				return
			}
			if len(errs) != 1 || !strings.Contains(errs[0].Error(), tt.wantErr) {
				t.Fatalf("errors %v, want one containing %q", errs, tt.wantErr)
			}
		})
	}
	s, ok := LookupSpec([]ParamSpec{declared, wildcard}, "gamma")
	if !ok || s.Name != "gamma" || s.Type != AnyParam || !s.Type.Scalar() {
		t.Errorf("LookupSpec(gamma) = %+v, %v; want an any spec named gamma that crosses lists", s, ok)
	}
}
