package client

import (
	"errors"
	"fmt"
	"slices"
	"testing"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/polyclass/polyclass/framework/param"
)

// badRequest is a plugin's status blaming fields.
func badRequest(t *testing.T, fields ...string) error {
	t.Helper()
	br := &errdetails.BadRequest{}
	for _, f := range fields {
		br.FieldViolations = append(br.FieldViolations, &errdetails.BadRequest_FieldViolation{Field: f, Description: "bad"})
	}
	st, err := status.New(codes.InvalidArgument, "plan: bad").WithDetails(br)
	if err != nil {
		t.Fatal(err)
	}
	return st.Err()
}

func TestFaultParams(t *testing.T) {
	knob := param.WithParam("knob", errors.New("too large"))
	for _, tt := range []struct {
		name string
		err  error
		want []string
	}{
		{"nil", nil, nil},
		{"plain", errors.New("x"), nil},
		{"in-process ParamError", fmt.Errorf("fit: %w", knob), []string{"knob"}},
		{"status", badRequest(t, "params.knob"), []string{"knob"}},
		{"status, several", badRequest(t, "params.C", "params.knob", "params.C"), []string{"C", "knob"}},
		{"status, other fields", badRequest(t, "rows", "params.C"), []string{"C"}},
		{"status without details", status.Error(codes.InvalidArgument, "plan: too large"), nil},
	} {
		if got := FaultParams(tt.err); !slices.Equal(got, tt.want) {
			t.Errorf("%s: FaultParams = %v, want %v", tt.name, got, tt.want)
		}
	}
}
