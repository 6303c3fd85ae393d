package server

import (
	"errors"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/polyclass/polyclass/framework/internal/wire"
	"github.com/polyclass/polyclass/framework/param"
	"github.com/polyclass/polyclass/framework/plugin"
)

// paramField is the BadRequest field of a parameter (package host's
// FaultParams reads it).
const paramField = "params."

// statusErr is the status of a plugin's failure: code c, the message, and
// the parameters err blames as BadRequest field violations.
func statusErr(c codes.Code, msg string, err error) error {
	st := status.New(c, msg)
	params := param.Blamed(err)
	if len(params) == 0 {
		return st.Err()
	}
	br := &errdetails.BadRequest{}
	var pe *plugin.ParamError
	for _, p := range params {
		desc := msg
		if errors.As(err, &pe) && pe.Param == p {
			desc = pe.Err.Error()
		}
		desc = wire.BoundMessage(desc)
		br.FieldViolations = append(br.FieldViolations, &errdetails.BadRequest_FieldViolation{Field: paramField + p, Description: desc})
	}
	if withDetails, derr := st.WithDetails(br); derr == nil {
		return withDetails.Err()
	}
	return st.Err()
}
