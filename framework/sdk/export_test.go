package sdk

import "github.com/polyclass/polyclass/framework/sparse"

// DiabetesLike returns a CSR matrix shaped as the one-hot design of
// diabetes130 for the package's external benchmarks; it is the server's
// diabetesLike (framework/internal/server's dataset_test.go), whose
// tests cannot be imported from here.
func DiabetesLike() *sparse.CSR { return diabetesLike() }

// diabetesLike returns a CSR matrix shaped as the one-hot design of
// diabetes130 (101766 rows × 2518 features, 47 entries a row): 58 MB.
func diabetesLike() *sparse.CSR {
	const rows, cols, perRow = 101766, 2518, 47
	c := &sparse.CSR{Rows: rows, Cols: cols, Indptr: make([]int64, rows+1),
		Indices: make([]int32, 0, rows*perRow), Values: make([]float64, 0, rows*perRow)}
	for i := 0; i < rows; i++ {
		for k := 0; k < perRow; k++ {
			c.Indices = append(c.Indices, int32(k*(cols/perRow)+(i*7+k)%(cols/perRow)))
			c.Values = append(c.Values, float64(i%13)-6)
		}
		c.Indptr[i+1] = int64(len(c.Values))
	}
	return c
}
