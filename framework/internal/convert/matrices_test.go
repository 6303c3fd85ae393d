package convert

import (
	"testing"

	pb "github.com/polyclass/polyclass/framework/internal/protov1"
	"github.com/polyclass/polyclass/framework/matrix"
)

// TestLayoutsMatchTheProtocol: package matrix hashes its layouts, which
// must be the protocol's DatasetHeader layouts.
func TestLayoutsMatchTheProtocol(t *testing.T) {
	if pb.DatasetHeader_DENSE != pb.DatasetHeader_Layout(matrix.LayoutDense) || pb.DatasetHeader_CSR != pb.DatasetHeader_Layout(matrix.LayoutCSR) {
		t.Errorf("layouts dense %d, CSR %d; protocol %d, %d", matrix.LayoutDense, matrix.LayoutCSR, pb.DatasetHeader_DENSE, pb.DatasetHeader_CSR)
	}
}
