package learner

import (
	"testing"

	"github.com/polyclass/polyclass/framework/sdk"
	"github.com/polyclass/polyclass/framework/sdk/conformance"
)

// TestProtocol trains binary and multiclass problems with the Euclidean
// and Manhattan metrics, each weighting and algorithm through the protocol.
// (Cosine distance does not separate the conformance blobs, one of which
// surrounds the origin: package neighbors tests it against scikit-learn.)
func TestProtocol(t *testing.T) {
	c := conformance.Connect(t, learner{})
	conformance.CheckSchema(t, c)
	for _, p := range []sdk.Params{
		nil,
		{"weights": sdk.String("distance")},
		{"metric": sdk.String("manhattan"), "k": sdk.Number(3)},
		{"algorithm": sdk.String("brute")},
		{"algorithm": sdk.String("kd_tree"), "leaf_size": sdk.Number(2)},
	} {
		conformance.CheckBinary(t, c, p)
		conformance.CheckMulticlass(t, c, p)
	}
}

// TestConformance runs the protocol conformance suite in-process.
func TestConformance(t *testing.T) { conformance.Test(t, learner{}, nil) }
