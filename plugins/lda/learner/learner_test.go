package learner

import (
	"testing"

	"github.com/polyclass/polyclass/framework/sdk"
	"github.com/polyclass/polyclass/framework/sdk/conformance"
)

// TestProtocol trains every method through the protocol.
func TestProtocol(t *testing.T) {
	c := conformance.Connect(t, learner{})
	conformance.CheckSchema(t, c)
	for _, method := range []string{"lda", "lsq", "ridge"} {
		conformance.CheckBinary(t, c, sdk.Params{"method": sdk.String(method)})
	}
	conformance.CheckBinary(t, c, sdk.Params{"shrinkage": sdk.Number(0.2)})
	conformance.CheckMulticlass(t, c, nil)
	conformance.CheckMulticlass(t, c, sdk.Params{"method": sdk.String("lsq")})
}

// TestConformance runs the protocol conformance suite in-process.
func TestConformance(t *testing.T) { conformance.Test(t, learner{}, nil) }

// TestBorrowedRowsStayUnchanged: lda borrows its input (BorrowsInput), so
// no method may write into the rows it is given.
func TestBorrowedRowsStayUnchanged(t *testing.T) {
	conformance.CheckBorrowedRows(t, learner{}, nil, sdk.Params{"method": sdk.String("lsq")}, sdk.Params{"method": sdk.String("ridge")}, sdk.Params{"shrinkage": sdk.Number(0.2)}, sdk.Params{"auto_shrinkage": sdk.Bool(true)})
}
