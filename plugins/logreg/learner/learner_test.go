package learner

import (
	"testing"

	"github.com/polyclass/polyclass/framework/sdk"
	"github.com/polyclass/polyclass/framework/sdk/conformance"
)

// TestProtocol trains binary and softmax problems through the protocol.
func TestProtocol(t *testing.T) {
	c := conformance.Connect(t, learner{})
	conformance.CheckSchema(t, c)
	for _, solver := range []string{"newton", "lbfgs", "sgd", "gd"} {
		conformance.CheckBinary(t, c, sdk.Params{"solver": sdk.String(solver)})
	}
	conformance.CheckMulticlass(t, c, sdk.Params{"C": sdk.Number(10)})
}

// TestConformance runs the protocol conformance suite in-process.
func TestConformance(t *testing.T) { conformance.Test(t, learner{}, nil) }

// TestBorrowedRowsStayUnchanged: logreg borrows its input (BorrowsInput), so
// no method may write into the rows it is given.
func TestBorrowedRowsStayUnchanged(t *testing.T) {
	conformance.CheckBorrowedRows(t, learner{}, nil, sdk.Params{"solver": sdk.String("lbfgs")}, sdk.Params{"solver": sdk.String("sgd")}, sdk.Params{"solver": sdk.String("gd")}, sdk.Params{"multinomial": sdk.Bool(true)})
}
