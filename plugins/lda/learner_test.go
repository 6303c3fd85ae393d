package main

import (
	"testing"

	"github.com/polyclass/polyclass/framework/sdk"
	"github.com/polyclass/polyclass/plugins/internal/plugintest"
)

// TestProtocol trains every method through the protocol.
func TestProtocol(t *testing.T) {
	c := plugintest.Connect(t, learner{})
	plugintest.CheckSchema(t, c)
	for _, method := range []string{"lda", "lsq", "ridge"} {
		plugintest.CheckBinary(t, c, sdk.Params{"method": sdk.String(method)})
	}
	plugintest.CheckBinary(t, c, sdk.Params{"shrinkage": sdk.Number(0.2)})
	plugintest.CheckMulticlass(t, c, nil)
	plugintest.CheckMulticlass(t, c, sdk.Params{"method": sdk.String("lsq")})
}
