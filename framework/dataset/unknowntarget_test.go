package dataset

import (
	"testing"

	"github.com/polyclass/polyclass/framework/config"
)

// TestUnknownTargetOfLIBSVM: a target that names no column of a LIBSVM
// file says how the format's columns are named, the features being
// numbered and so not among the columns listed (campaigns 14 and 15: "Its
// columns are: label" and nothing more), and suggests target = "label"
// when that is the file's one column; a CSV file's message is as before.
// The format is the reader's (data.UnknownColumnsError.Format), not the
// name's: a LIBSVM file named .txt is one.
func TestUnknownTargetOfLIBSVM(t *testing.T) {
	const note = ` In a LIBSVM file the labels (the first field of each line) are the column "label" ("label_L" for each label L of a multi-label file) and the features are numbered (1:, 2:, ...), not named columns.`
	tests := []struct {
		name, format string
		defaulted    bool
		target       string
		columns      []string
		want         string
	}{
		{"LIBSVM, default target", "libsvm", true, "class", []string{"label"},
			`Dataset "d" has no column "class", the default target; set target = "COLUMN" in the dataset block. Its columns are: label.` + note + ` Set target = "label".`},
		{"LIBSVM, target named", "libsvm", false, "y", []string{"label"},
			`Dataset "d" has no column "y"; its columns are: label.` + note + ` Set target = "label".`},
		{"multi-label LIBSVM", "libsvm", false, "y", []string{"label_1", "label_2"},
			`Dataset "d" has no column "y"; its columns are: label_1, label_2.` + note},
		{"CSV, as before", "csv", true, "class", []string{"a", "label"},
			`Dataset "d" has no column "class", the default target; set target = "COLUMN" in the dataset block. Its columns are: a, label.`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var ck checker
			c := &config.Dataset{Name: "d", Path: "d.data", Target: tt.target, TargetDefaulted: tt.defaulted}
			ck.unknownTarget(c, "", tt.columns, tt.format)
			if len(ck.diags) != 1 {
				t.Fatalf("diagnostics: %v", ck.diags)
			}
			if got := ck.diags[0].Detail; got != tt.want {
				t.Errorf("detail:\n got %s\nwant %s", got, tt.want)
			}
		})
	}
}
