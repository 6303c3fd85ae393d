// Package matrix holds the design matrix the host's encoders make and the
// plugins train on (Matrix: dense or CSR), and its wire form
// (EncodedMatrix): the bytes a dataset is uploaded as, addressed by their
// SHA-256 digest.
//
// It depends on no RPC machinery (no gRPC, no go-plugin, no protobuf); the
// host's client and the SDK's server turn an EncodedMatrix into upload
// messages and back. Plugin authors meet Matrix through package sdk, which
// re-exports it.
package matrix

// Layout is the wire layout of a dataset. Its values are those of the
// protocol's DatasetHeader.Layout, and the digest of a dataset hashes them.
type Layout uint8

// Wire layouts.
const (
	LayoutDense Layout = 1
	LayoutCSR   Layout = 2
)

// ChunkSize is the largest data chunk of a dataset upload.
const ChunkSize = 1 << 20
