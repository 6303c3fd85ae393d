package main

import (
	"testing"

	"github.com/polyclass/polyclass/framework/sdk"
	"github.com/polyclass/polyclass/plugins/internal/plugintest"
)

// TestProtocol trains binary and softmax problems through the protocol.
func TestProtocol(t *testing.T) {
	c := plugintest.Connect(t, learner{})
	plugintest.CheckSchema(t, c)
	for _, solver := range []string{"newton", "lbfgs", "sgd", "gd"} {
		plugintest.CheckBinary(t, c, sdk.Params{"solver": sdk.String(solver)})
	}
	plugintest.CheckMulticlass(t, c, sdk.Params{"C": sdk.Number(10)})
}
