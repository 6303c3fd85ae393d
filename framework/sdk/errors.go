package sdk

import (
	"errors"
	"strings"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// paramField is the BadRequest field of a parameter.
const paramField = "params."

// FaultParams returns the parameters err blames: those of the ParamErrors
// in its chain (and in joined errors), else those of the BadRequest field
// violations "params.NAME" of the plugin's status, in order, without
// repeats.
func FaultParams(err error) []string {
	var out []string
	add := func(n string) {
		for _, o := range out {
			if o == n {
				return
			}
		}
		out = append(out, n)
	}
	var walk func(error)
	walk = func(e error) {
		switch x := e.(type) {
		case nil:
		case *ParamError:
			add(x.Param)
		case interface{ Unwrap() []error }:
			for _, c := range x.Unwrap() {
				walk(c)
			}
		case interface{ Unwrap() error }:
			walk(x.Unwrap())
		}
	}
	walk(err)
	if len(out) > 0 {
		return out
	}
	if st, ok := status.FromError(err); ok {
		for _, d := range st.Details() {
			if br, ok := d.(*errdetails.BadRequest); ok {
				for _, v := range br.GetFieldViolations() {
					if n, ok := strings.CutPrefix(v.GetField(), paramField); ok {
						add(n)
					}
				}
			}
		}
	}
	return out
}

// statusErr is the status of a plugin's failure: code c, the message, and
// the parameters err blames as BadRequest field violations.
func statusErr(c codes.Code, msg string, err error) error {
	st := status.New(c, msg)
	params := FaultParams(err)
	if len(params) == 0 {
		return st.Err()
	}
	br := &errdetails.BadRequest{}
	var pe *ParamError
	for _, p := range params {
		desc := msg
		if errors.As(err, &pe) && pe.Param == p {
			desc = pe.Err.Error()
		}
		br.FieldViolations = append(br.FieldViolations, &errdetails.BadRequest_FieldViolation{Field: paramField + p, Description: desc})
	}
	if withDetails, derr := st.WithDetails(br); derr == nil {
		return withDetails.Err()
	}
	return st.Err()
}
