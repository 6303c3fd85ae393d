package client

import (
	"context"
	"testing"

	"github.com/polyclass/polyclass/framework/sdk"
)

// TestCheckParamsUnimplemented: a plugin whose server predates CheckParams
// answers Unimplemented, which the host takes as no objection.
func TestCheckParamsUnimplemented(t *testing.T) {
	c := serveRecording(t, &recordingLearner{})
	got, err := c.CheckParams(context.Background(), sdk.Params{"x": sdk.Number(1)})
	if err != nil || got.Problems != nil || got.Runtime != nil {
		t.Errorf("CheckParams of an older plugin: %+v, %v; want nothing", got, err)
	}
}
