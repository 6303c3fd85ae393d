package blockmul

import "fmt"

// Pack sets dst[r·w+c] = cols[c][r] for r < rows and c < w: the rows of w
// vectors side by side in a rows×w panel. len(cols) must be w, a multiple
// of Lanes, and each column must hold at least rows entries.
func Pack(dst []float64, w int, cols [][]float64, rows int) {
	checkCols("Pack", cols, w, rows)
	need("Pack", "dst", dst, rows*w)
	r4 := 0
	if useAsm && w > 0 {
		r4 = rows &^ 3
		if r4 > 0 {
			packAsm(&dst[0], w, &cols[0], r4)
		}
	}
	for r := r4; r < rows; r++ {
		row := dst[r*w : r*w+w]
		for c := range row {
			row[c] = cols[c][r]
		}
	}
}

// Unpack sets cols[c][r] = src[r·w+c] for r < rows and c < w, the inverse
// of Pack.
func Unpack(cols [][]float64, src []float64, w int, rows int) {
	checkCols("Unpack", cols, w, rows)
	need("Unpack", "src", src, rows*w)
	r4 := 0
	if useAsm && w > 0 {
		r4 = rows &^ 3
		if r4 > 0 {
			unpackAsm(&cols[0], &src[0], w, r4)
		}
	}
	for r := r4; r < rows; r++ {
		row := src[r*w : r*w+w]
		for c, v := range row {
			cols[c][r] = v
		}
	}
}

// checkCols panics unless cols holds w columns of at least rows entries
// and w is a multiple of Lanes.
func checkCols(name string, cols [][]float64, w, rows int) {
	if w < 0 || w%Lanes != 0 || len(cols) != w || rows < 0 {
		panic(fmt.Sprintf("blockmul.%s: %d columns for width %d (a multiple of %d), %d rows", name, len(cols), w, Lanes, rows))
	}
	for c, col := range cols {
		if len(col) < rows {
			panic(fmt.Sprintf("blockmul.%s: column %d has %d entries, want %d", name, c, len(col), rows))
		}
	}
}
