package sdk

import "github.com/polyclass/polyclass/framework/matrix"

// The design matrix and its wire form live in package matrix, which has no
// RPC dependency; these aliases keep them in the plugin author's one import.

// Matrix is a design matrix: dense, or sparse in CSR form. Exactly one of
// the fields is set.
type Matrix = matrix.Matrix

// EncodedMatrix is a design matrix in its wire form, addressed by the
// SHA-256 digest of its content.
type EncodedMatrix = matrix.EncodedMatrix

// EncodeMatrix returns the wire form of m with its digest.
func EncodeMatrix(m Matrix) *EncodedMatrix { return matrix.EncodeMatrix(m) }

// StreamMatrix returns the wire form of m with its digest, without holding
// the wire bytes (see matrix.StreamMatrix).
func StreamMatrix(m Matrix) *EncodedMatrix { return matrix.StreamMatrix(m) }

// DenseBytes is the memory a dense rows × cols matrix of float64 takes.
func DenseBytes(rows, cols int) int64 { return matrix.DenseBytes(rows, cols) }
