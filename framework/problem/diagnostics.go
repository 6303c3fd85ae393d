package problem

// CodeDiagnostics summarises the quality of the K × L code matrix behind a
// reducer's plan; the host shows it in the code-matrix table of a run and
// of its report. The distance of two rows (classes) r and s is their
// Hamming distance with a 0 entry in either row counting ½:
// d(r, s) = Σᵢ (1 − rᵢsᵢ)/2. Defects of the matrix (constant or duplicated
// columns, classes no column separates) go to the plan's warnings
// (sdk.Plan.Warnings).
//
// The JSON names are those of the cell files, which kept them from the
// string map this type replaces.
type CodeDiagnostics struct {
	// Classes is K, the number of rows of the code matrix.
	Classes int `json:"K"`
	// Columns is L, the number of columns (binary problems).
	Columns int `json:"L"`
	// MinDistance and MeanDistance are the minimum and the mean of d over
	// the K(K−1)/2 pairs of rows (0 when K < 2).
	MinDistance  float64 `json:"d_min"`
	MeanDistance float64 `json:"d_mean"`
	// Correcting is the error-correcting capability
	// ⌊(MinDistance − 1)/2⌋, floored at 0: the number of wrong binary
	// outputs Hamming decoding always survives.
	Correcting int `json:"correcting"`
}
