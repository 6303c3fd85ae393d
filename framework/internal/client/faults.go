package client

import (
	"slices"
	"strings"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc/status"

	"github.com/polyclass/polyclass/framework/param"
)

// paramField starts the google.rpc.BadRequest field violation through
// which a plugin blames a parameter: "params.NAME".
const paramField = "params."

// FaultParams returns the parameters err blames: those of the
// param.ParamErrors in its chain (and in joined errors), else those of the
// BadRequest field violations "params.NAME" of the plugin's status, in
// order, without repeats.
func FaultParams(err error) []string {
	if out := param.Blamed(err); len(out) > 0 {
		return out
	}
	st, ok := status.FromError(err)
	if !ok {
		return nil
	}
	var out []string
	for _, d := range st.Details() {
		br, ok := d.(*errdetails.BadRequest)
		if !ok {
			continue
		}
		for _, v := range br.GetFieldViolations() {
			if n, ok := strings.CutPrefix(v.GetField(), paramField); ok && !slices.Contains(out, n) {
				out = append(out, n)
			}
		}
	}
	return out
}
