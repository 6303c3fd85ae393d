package plugin

import "github.com/polyclass/polyclass/framework/matrix"

// The design matrix lives in package matrix, which has no RPC dependency;
// this alias keeps it in the plugin author's one import.

// Matrix is a design matrix: dense, or sparse in CSR form. Exactly one of
// the fields is set.
type Matrix = matrix.Matrix
