package convert

import (
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	pb "github.com/polyclass/polyclass/framework/internal/protov1"
	"github.com/polyclass/polyclass/framework/sharedmem"
)

// SharedDenseToPB describes the rows × cols matrix whose values lie at the
// start of region r of the shared segment (Dense.shared).
func SharedDenseToPB(rows, cols int, r sharedmem.Region) *pb.Dense {
	return &pb.Dense{
		Rows: int64(rows), Cols: int64(cols),
		Shared: RegionToPB(sharedmem.Region{Offset: r.Offset, Length: 8 * rows * cols}),
	}
}

// RegionFromPB returns the region a message names, or an error when its
// offset or length does not fit an int.
func RegionFromPB(r *pb.SharedRegion) (sharedmem.Region, error) {
	if r.GetOffset() > math.MaxInt || r.GetLength() > math.MaxInt {
		return sharedmem.Region{}, fmt.Errorf("shared region [%d, +%d) is out of range", r.GetOffset(), r.GetLength())
	}
	return sharedmem.Region{Offset: int(r.GetOffset()), Length: int(r.GetLength())}, nil
}

// RegionToPB is the message form of r.
func RegionToPB(r sharedmem.Region) *pb.SharedRegion {
	return &pb.SharedRegion{Offset: uint64(r.Offset), Length: uint64(r.Length)}
}

// DenseFromShared decodes a matrix message as DenseFromPB does, and one
// whose values lie in the shared segment seg (Dense.shared) as a view of
// the segment, not a copy: valid while its region stays allocated, which
// for a request is until the call returns. A message that names a region
// outside seg, or a process without a segment (seg nil), is an error.
func DenseFromShared(seg *sharedmem.Segment, d *pb.Dense) (*mat.Dense, error) {
	if d.GetShared() == nil {
		return DenseFromPB(d)
	}
	if seg == nil {
		return nil, errors.New("the matrix is in a shared memory region, and this process has no shared segment")
	}
	if len(d.GetData()) != 0 {
		return nil, fmt.Errorf("matrix %d×%d carries both %d bytes and a shared region", d.GetRows(), d.GetCols(), len(d.GetData()))
	}
	rows, cols := d.GetRows(), d.GetCols()
	if rows < 0 || cols < 0 || (cols > 0 && rows > math.MaxInt/8/cols) {
		return nil, fmt.Errorf("matrix of %d×%d values", rows, cols)
	}
	if rows == 0 || cols == 0 {
		return nil, nil
	}
	r, err := RegionFromPB(d.GetShared())
	if err != nil {
		return nil, err
	}
	vals, err := seg.Floats(r, int(rows*cols))
	if err != nil {
		return nil, fmt.Errorf("matrix %d×%d: %w", rows, cols, err)
	}
	return mat.NewDense(int(rows), int(cols), vals), nil
}
