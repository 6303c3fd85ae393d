package learner

import (
	"context"
	"testing"

	"github.com/polyclass/polyclass/framework/sdk"
	"github.com/polyclass/polyclass/framework/sdk/conformance"
)

// TestProtocol trains every method through the protocol: the binary ones
// on a binary problem, Crammer–Singer on a native multiclass one.
func TestProtocol(t *testing.T) {
	c := conformance.Connect(t, learner{})
	conformance.CheckSchema(t, c)
	for _, p := range []sdk.Params{
		{"C": sdk.Number(10)},
		{"loss": sdk.String("squared_hinge")},
		{"method": sdk.String("perceptron")},
		{"method": sdk.String("pocket")},
	} {
		conformance.CheckBinary(t, c, p)
	}
	conformance.CheckMulticlass(t, c, sdk.Params{"method": sdk.String("crammer_singer"), "C": sdk.Number(10)})
	// The default method hands native multiclass problems to Crammer–Singer.
	conformance.CheckMulticlass(t, c, sdk.Params{"C": sdk.Number(10)})

	// The perceptron is binary only: a native multiclass problem is refused.
	enc, y := conformance.Blobs(t, c)
	rows := make([]int, len(y))
	classes := make([]float64, len(y))
	for i, k := range y {
		rows[i], classes[i] = i, float64(k)
	}
	params := sdk.Params{"method": sdk.String("perceptron")}
	if _, err := c.Fit(context.Background(), enc.Digest, rows, params, []sdk.Problem{{Kind: sdk.Multiclass, Targets: classes, NumClasses: 3}}, 0); err == nil {
		t.Error("the perceptron accepted a multiclass problem")
	}
}

// TestConformance runs the protocol conformance suite in-process.
func TestConformance(t *testing.T) { conformance.Test(t, learner{}, nil) }

// TestBorrowedRowsStayUnchanged: svm borrows its input (BorrowsInput), so
// no method may write into the rows it is given.
func TestBorrowedRowsStayUnchanged(t *testing.T) {
	conformance.CheckBorrowedRows(t, learner{}, nil, sdk.Params{"method": sdk.String("crammer_singer")}, sdk.Params{"method": sdk.String("perceptron")}, sdk.Params{"method": sdk.String("pocket")}, sdk.Params{"loss": sdk.String("hinge")})
}
