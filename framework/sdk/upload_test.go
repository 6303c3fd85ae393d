package sdk_test

import (
	"context"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/polyclass/polyclass/framework/host"
	"github.com/polyclass/polyclass/framework/internal/plugintest"
	"github.com/polyclass/polyclass/framework/matrix"
	"github.com/polyclass/polyclass/framework/sdk"
)

// BenchmarkUploadCSR measures the upload path of a fold's design matrix:
// the host's wire form and digest (EncodeMatrix), the gRPC stream in
// chunks, and the plugin's decoding into its cache (dropped again after
// each upload). B/op counts both sides.
func BenchmarkUploadCSR(b *testing.B) { benchUpload(b, matrix.EncodeMatrix) }

// BenchmarkUploadCSRStreamed is BenchmarkUploadCSR with the wire bytes
// made chunk by chunk (StreamMatrix), as the engine sends them.
func BenchmarkUploadCSRStreamed(b *testing.B) { benchUpload(b, matrix.StreamMatrix) }

// BenchmarkUploadDenseStreamed is BenchmarkUploadCSRStreamed with a dense
// matrix of 100 000 rows and 54 columns (43 MB; covertype one-hot encoded,
// as the engine sends it).
func BenchmarkUploadDenseStreamed(b *testing.B) {
	x := mat.NewDense(100000, 54, nil)
	for i := range 100000 {
		row := x.RawRowView(i)
		for j := range 10 {
			row[j] = float64(i%97-j) / 7
		}
		row[10+i%4], row[14+i%40] = 1, 1
	}
	benchUploadOf(b, sdk.Matrix{Dense: x}, matrix.StreamMatrix)
}

func benchUpload(b *testing.B, encode func(sdk.Matrix) *matrix.EncodedMatrix) {
	benchUploadOf(b, sdk.Matrix{CSR: sdk.DiabetesLike()}, encode)
}

func benchUploadOf(b *testing.B, m sdk.Matrix, encode func(sdk.Matrix) *matrix.EncodedMatrix) {
	ctx := context.Background()
	conn := plugintest.Conn(b, sdk.WithLearner(&meanLearner{}))
	c := host.NewLearnerClient(conn)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		enc := encode(m)
		if err := c.Upload(ctx, enc); err != nil {
			b.Fatal(err)
		}
		if err := c.Forget(ctx, enc.Digest); err != nil {
			b.Fatal(err)
		}
	}
}
