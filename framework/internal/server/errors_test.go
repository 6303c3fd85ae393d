package server

import (
	"errors"
	"fmt"
	"testing"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/polyclass/polyclass/framework/plugin"
)

// TestStatusErr: the status of a failure carries one BadRequest field
// violation "params.NAME" per parameter the error blames, in order, with
// the ParamError's own message; an error that blames none carries no
// details.
func TestStatusErr(t *testing.T) {
	knob := plugin.WithParam("knob", errors.New("too large"))
	for _, tt := range []struct {
		name   string
		err    error
		fields []string
		descs  []string
	}{
		{"plain", errors.New("x"), nil, nil},
		{"param", knob, []string{"params.knob"}, []string{"too large"}},
		{"wrapped", fmt.Errorf("plan: %w", knob), []string{"params.knob"}, []string{"too large"}},
		{"joined", errors.Join(knob, errors.New("y"), plugin.WithParam("C", errors.New("z")), knob),
			[]string{"params.knob", "params.C"}, []string{"too large", "plan failed"}},
	} {
		st := status.Convert(statusErr(codes.InvalidArgument, "plan failed", tt.err))
		if st.Code() != codes.InvalidArgument || st.Message() != "plan failed" {
			t.Errorf("%s: status %v %q", tt.name, st.Code(), st.Message())
		}
		var fields, descs []string
		for _, d := range st.Details() {
			br, ok := d.(*errdetails.BadRequest)
			if !ok {
				t.Errorf("%s: detail %T", tt.name, d)
				continue
			}
			for _, v := range br.GetFieldViolations() {
				fields, descs = append(fields, v.GetField()), append(descs, v.GetDescription())
			}
		}
		if fmt.Sprint(fields) != fmt.Sprint(tt.fields) || fmt.Sprint(descs) != fmt.Sprint(tt.descs) {
			t.Errorf("%s: fields %q (%q), want %q (%q)", tt.name, fields, descs, tt.fields, tt.descs)
		}
	}
	if knob.Error() != "too large" {
		t.Errorf("message %q: the name travels apart", knob.Error())
	}
}
