package sdk

import (
	"errors"
	"fmt"
	"slices"
	"testing"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

func TestFaultParams(t *testing.T) {
	knob := WithParam("knob", errors.New("too large"))
	for _, tt := range []struct {
		name string
		err  error
		want []string
	}{
		{"nil", nil, nil},
		{"plain", errors.New("x"), nil},
		{"param", knob, []string{"knob"}},
		{"wrapped", fmt.Errorf("plan: %w", knob), []string{"knob"}},
		{"joined", errors.Join(knob, errors.New("y"), WithParam("C", errors.New("z")), knob), []string{"knob", "C"}},
		{"nil err", WithParam("knob", nil), nil},
		{"status", statusErr(codes.InvalidArgument, "plan: too large", knob), []string{"knob"}},
		{"status without", status.Error(codes.InvalidArgument, "plan: too large"), nil},
	} {
		if got := FaultParams(tt.err); !slices.Equal(got, tt.want) {
			t.Errorf("%s: FaultParams = %v, want %v", tt.name, got, tt.want)
		}
	}
	if knob.Error() != "too large" {
		t.Errorf("message %q: the name travels apart", knob.Error())
	}
}
