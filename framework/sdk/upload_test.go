package sdk_test

import (
	"context"
	"testing"

	"github.com/hashicorp/go-plugin"

	"github.com/polyclass/polyclass/framework/host"
	"github.com/polyclass/polyclass/framework/sdk"
)

// BenchmarkUploadCSR measures the upload path of a fold's design matrix:
// the host's wire form and digest (EncodeMatrix), the gRPC stream in
// chunks, and the plugin's decoding into its cache (dropped again after
// each upload). B/op counts both sides.
func BenchmarkUploadCSR(b *testing.B) { benchUpload(b, sdk.EncodeMatrix) }

// BenchmarkUploadCSRStreamed is BenchmarkUploadCSR with the wire bytes
// made chunk by chunk (StreamMatrix), as the engine sends them.
func BenchmarkUploadCSRStreamed(b *testing.B) { benchUpload(b, sdk.StreamMatrix) }

func benchUpload(b *testing.B, encode func(sdk.Matrix) *sdk.EncodedMatrix) {
	ctx := context.Background()
	client, _ := plugin.TestPluginGRPCConn(b, false, map[string]plugin.Plugin{sdk.LearnerPluginName: &sdk.LearnerPlugin{Impl: &meanLearner{}}})
	b.Cleanup(func() { client.Close() })
	c := host.NewLearnerClient(client.Conn)
	m := sdk.Matrix{CSR: sdk.DiabetesLike()}
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
