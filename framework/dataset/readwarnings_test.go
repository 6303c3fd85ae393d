package dataset

import (
	"fmt"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"

	"github.com/polyclass/polyclass/framework/config"
)

// TestReadWarningsBounded: a file with more columns of numbers read as
// categorical than maxReadWarnings gets the first 20 warnings one by one
// and one more that counts the rest and names their columns (a file of
// 3,000 such columns gave 3,000 warnings); 20 columns get 20 warnings.
func TestReadWarningsBounded(t *testing.T) {
	for _, tc := range []struct {
		cols int
		last string // the last warning, "" when it is one of the columns'
	}{
		{20, ""},
		{21, `warning: Column of numbers read as categorical: Dataset "d": $DIR/d.csv: and 1 more column like the 20 above: "c20".`},
		{35, `warning: Column of numbers read as categorical: Dataset "d": $DIR/d.csv: and 15 more columns like the 20 above: "c20", "c21", "c22", "c23", "c24", "c25", "c26", "c27", "c28", "c29" and 5 more.`},
	} {
		t.Run(fmt.Sprint(tc.cols), func(t *testing.T) {
			// Each column: three numbers and one word.
			var b strings.Builder
			for i := range tc.cols {
				fmt.Fprintf(&b, "c%d,", i)
			}
			b.WriteString("class\n")
			for r := range 4 {
				for range tc.cols {
					if r == 3 {
						b.WriteString("x,")
					} else {
						fmt.Fprintf(&b, "%d,", r)
					}
				}
				fmt.Fprintf(&b, "%c\n", 'a'+r%2)
			}
			ck, ds, dir := loadTarget(t, "d.csv", b.String(), config.Dataset{Target: "class"})
			ck.readWarnings("d", hcl.Range{Filename: "exp.hcl"}, ds.Table)
			lines := strings.Split(diagLines(ck.diags, dir), "\n")
			want := min(tc.cols, maxReadWarnings)
			if tc.last != "" {
				want++
			}
			if len(lines) != want {
				t.Fatalf("%d warnings, want %d:\n%s", len(lines), want, strings.Join(lines, "\n"))
			}
			for i, l := range lines[:min(tc.cols, maxReadWarnings)] {
				if prefix := fmt.Sprintf(`warning: Column of numbers read as categorical: Dataset "d": $DIR/d.csv:5:%d: column "c%d"`, 2*i+1, i); !strings.HasPrefix(l, prefix) {
					t.Errorf("warning %d:\n%s\nwant it to start with\n%s", i, l, prefix)
				}
			}
			if got := lines[len(lines)-1]; tc.last != "" && got != tc.last {
				t.Errorf("last warning:\n%s\nwant\n%s", got, tc.last)
			}
		})
	}
}

// TestReadFilesHeaderAsData: a CSV file without a header line, its target
// named after a value of its first row, gets one warning at its path
// attribute that names the header line; the same rows under a header
// get none.
func TestReadFilesHeaderAsData(t *testing.T) {
	rows := "5.1,3.5,setosa\n4.9,3,setosa\n7,3.2,versicolor\n"
	for _, tc := range []struct{ name, text, target, want string }{
		{"no header line", rows, "setosa", `warning: Header row looks like data: Dataset "d": $DIR/d.csv:1: first row looks like data: every column name but the target's is a number (5.1, 3.5), and the target's name "setosa" is a value of the target column, so the first row is likely a data row, yet it is read as the header, its values as column names: if the file has no header line, add one (the column names) before its first row`},
		{"a header", "sl,sw,class\n" + rows, "class", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ck, ds, dir := loadTarget(t, "d.csv", tc.text, config.Dataset{Target: tc.target})
			if f, _ := ck.readFiles(ds.Config); f == nil {
				t.Fatalf("not read: %s", diagLines(ck.diags, dir))
			}
			if got := diagLines(ck.diags, dir); got != tc.want {
				t.Errorf("warnings:\n%s\nwant\n%s", got, tc.want)
			}
		})
	}
}
