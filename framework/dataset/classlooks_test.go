package dataset

import (
	"fmt"
	"strings"
	"testing"

	"github.com/polyclass/polyclass/framework/config"
)

// TestClassLabelsThatMislead checks the class labels that would mislead a
// reader of the tables (campaign 4): a label holding any invisible
// (default-ignorable) character is refused at its row (u01–u12: soft
// hyphen, combining grapheme joiner, Mongolian vowel separator, Hangul
// filler, variation selector, invisible times, a tag); labels that look
// alike get a warning listing them where they first occur (u21 Cyrillic
// ѕ, u10 Armenian օ, u13 a minus sign beside a hyphen-minus); a class
// named like a summary row of the per-class outputs gets a warning
// (u22); labels that differ only in case (campaign 16 N03: "Setosa" beside
// "setosa") get a warning giving each one's rows and where the rarer ones
// first occur, and stay two classes. On the code before, each loaded without a word: a second
// "setosa" class, or a class row that reads as the accuracy row.
func TestClassLabelsThatMislead(t *testing.T) {
	invisible := func(r rune) string {
		return fmt.Sprintf(`error: Invalid class label: Dataset "d": $DIR/d.csv:3:3: data row 2, target column "class": class label holds a bidi control or other invisible (default-ignorable) character U+%04X: %+q; it does not show, or changes how the text around it shows, so tables would show another label than the file holds: rename the class.`, r, "set"+string(r)+"osa")
	}
	tests := []struct {
		name, text, diags string
	}{
		{"u01 soft hyphen", "a,class\n1,setosa\n2,set\u00adosa\n", invisible(0x00AD)},
		{"u02 combining grapheme joiner", "a,class\n1,setosa\n2,set\u034fosa\n", invisible(0x034F)},
		{"u03 Mongolian vowel separator", "a,class\n1,setosa\n2,set\u180eosa\n", invisible(0x180E)},
		{"u04 Hangul filler", "a,class\n1,setosa\n2,set\u3164osa\n", invisible(0x3164)},
		{"u08 variation selector 16", "a,class\n1,setosa\n2,set\ufe0fosa\n", invisible(0xFE0F)},
		{"u11 invisible times", "a,class\n1,setosa\n2,set\u2062osa\n", invisible(0x2062)},
		{"u12 tag letter s", "a,class\n1,setosa\n2,set\U000E0073osa\n", invisible(0xE0073)},
		{"variation selector 17", "a,class\n1,setosa\n2,set\U000E0100osa\n", invisible(0xE0100)},
		{"u21 Cyrillic dze", "a,class\n1,setosa\n2,\u0455etosa\n3,virginica\n",
			`warning: Confusable class labels: Dataset "d": the target column "class" holds class labels that look alike but differ as text (letters of other scripts that show as Latin ones, a minus sign or dash for a hyphen, curly quotes for straight ones): "setosa" ($DIR/d.csv:2:3: data row 1), "\u0455etosa" ($DIR/d.csv:3:3: data row 2). They stay distinct classes, which the tables would show as one name twice; write each class one way if they are one class.`},
		{"u10 Armenian oh", "a,class\n1,setosa\n2,set\u0585sa\n",
			`warning: Confusable class labels: Dataset "d": the target column "class" holds class labels that look alike but differ as text (letters of other scripts that show as Latin ones, a minus sign or dash for a hyphen, curly quotes for straight ones): "setosa" ($DIR/d.csv:2:3: data row 1), "set\u0585sa" ($DIR/d.csv:3:3: data row 2). They stay distinct classes, which the tables would show as one name twice; write each class one way if they are one class.`},
		{"u13 minus sign beside hyphen-minus", "a,class\n1,-1\n2,1\n3,\u22121\n",
			`warning: Confusable class labels: Dataset "d": the target column "class" holds class labels that look alike but differ as text (letters of other scripts that show as Latin ones, a minus sign or dash for a hyphen, curly quotes for straight ones): "-1" ($DIR/d.csv:2:3: data row 1), "\u22121" ($DIR/d.csv:4:3: data row 3). They stay distinct classes, which the tables would show as one name twice; write each class one way if they are one class.`},
		{"u22 accuracy and macro avg", "a,class\n1,accuracy\n2,macro avg\n3,b\n",
			`warning: Class named like a summary row: Dataset "d": class "accuracy" bears the name of a summary row of the per-class outputs (accuracy, macro avg, weighted avg, micro avg): in per_class.csv and the per-class tables its row could not be told from that summary row. Rename the class.` + "\n" +
				`warning: Class named like a summary row: Dataset "d": class "macro avg" bears the name of a summary row of the per-class outputs (accuracy, macro avg, weighted avg, micro avg): in per_class.csv and the per-class tables its row could not be told from that summary row. Rename the class.`},
		{"fullwidth s, the same warning", "a,class\n1,setosa\n2,\uff53etosa\n", `warning: Confusable class labels: Dataset "d": the target column "class" holds class labels that look alike but differ as text (letters of other scripts that show as Latin ones, a minus sign or dash for a hyphen, curly quotes for straight ones): "setosa" ($DIR/d.csv:2:3: data row 1), "\uff53etosa" ($DIR/d.csv:3:3: data row 2). They stay distinct classes, which the tables would show as one name twice; write each class one way if they are one class.`},
		{"case-only variant, the rarer one located", "a,class\n1,setosa\n2,Setosa\n3,setosa\n4,accuracy2\n",
			`warning: Class labels differ only in case: Dataset "d": the target column "class" holds class labels that differ only in case: "setosa" (2 rows) and "Setosa" (1 row, the first at $DIR/d.csv:3:3: data row 2). They stay distinct classes; write each class one way if they are one class.`},
		{"case variants, the first of a tie unlocated, two groups", "a,class\n1,SETOSA\n2,virginica\n3,Setosa\n4,Virginica\n5,Virginica\n6,setosa\n",
			`warning: Class labels differ only in case: Dataset "d": the target column "class" holds class labels that differ only in case: "SETOSA" (1 row), "Setosa" (1 row, the first at $DIR/d.csv:4:3: data row 3) and "setosa" (1 row, the first at $DIR/d.csv:7:3: data row 6); "virginica" (1 row, the first at $DIR/d.csv:3:3: data row 2) and "Virginica" (2 rows). They stay distinct classes; write each class one way if they are one class.`},
		{"Unicode case folding: sharp s", "a,class\n1,STRASSE\n2,stra\u00dfe\n3,stra\u00dfe\n",
			`warning: Class labels differ only in case: Dataset "d": the target column "class" holds class labels that differ only in case: "STRASSE" (1 row, the first at $DIR/d.csv:2:3: data row 1) and "straße" (2 rows). They stay distinct classes; write each class one way if they are one class.`},
		{"long s folds to s but looks alike: the confusable warning alone", "a,class\n1,setosa\n2,\u017fetosa\n",
			`warning: Confusable class labels: Dataset "d": the target column "class" holds class labels that look alike but differ as text (letters of other scripts that show as Latin ones, a minus sign or dash for a hyphen, curly quotes for straight ones): "setosa" ($DIR/d.csv:2:3: data row 1), "\u017fetosa" ($DIR/d.csv:3:3: data row 2). They stay distinct classes, which the tables would show as one name twice; write each class one way if they are one class.`},
		{"distinct names, no word", "a,class\n1,setosa\n2,setosb\n3,accuracy2\n", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, ds, dir := loadTarget(t, "d.csv", tt.text, config.Dataset{Target: "class"})
			bindClass(t, r, ds)
			if got := diagLines(r.diags, dir); got != tt.diags {
				t.Errorf("diagnostics:\n%s\nwant:\n%s", got, tt.diags)
			}
			if strings.HasPrefix(tt.diags, "error") != r.diags.HasErrors() {
				t.Errorf("errors: %v", r.diags.HasErrors())
			}
		})
	}
}

// TestMissingMarkerIsAClass: a target value that the dataset's missing
// list makes a missing value (campaign 4 c06: missing = ["x"], x a class)
// is an error at its row that names the marker and the class, not "no
// value"; an empty target field keeps the "no value" error. On the code
// before, both said the row "has no value".
func TestMissingMarkerIsAClass(t *testing.T) {
	tests := []struct {
		name, text string
		missing    []string
		diags      string
	}{
		{"marker x is a class", "a,class\n0.1,x\n0.9,y\n", []string{"x"},
			`error: Missing marker is a class: Dataset "d": $DIR/d.csv:2:5: data row 1 holds "x" in the target column "class", a class value, which the dataset's missing = ["x"] makes a missing value: a class cannot be missing. Remove "x" from missing (it applies to every column), or rename the class.`},
		{"second marker", "a,class\n0.1,y\n0.9,NA\n", []string{"?", "NA"},
			`error: Missing marker is a class: Dataset "d": $DIR/d.csv:3:5: data row 2 holds "NA" in the target column "class", a class value, which the dataset's missing = ["?" "NA"] makes a missing value: a class cannot be missing. Remove "NA" from missing (it applies to every column), or rename the class.`},
		{"empty field", "a,class\n0.1,y\n0.9,\n", []string{"x"},
			`error: Missing class: Dataset "d": $DIR/d.csv:3:5: data row 2 has no value in the target column "class".`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, ds, dir := loadTarget(t, "d.csv", tt.text, config.Dataset{Target: "class", Missing: tt.missing})
			if bindClass(t, r, ds) {
				t.Fatal("classTarget accepted the dataset")
			}
			if got := diagLines(r.diags, dir); got != tt.diags {
				t.Errorf("diagnostics:\n%s\nwant:\n%s", got, tt.diags)
			}
		})
	}
}

// TestLabelNamedLikeASummaryRow: a multi-label dataset's label named like
// a summary row of the per-class outputs ("micro avg", which multi-label
// reports print; campaign 4 u22) gets the warning a class gets. On the
// code before, it loaded without a word.
func TestLabelNamedLikeASummaryRow(t *testing.T) {
	tests := []struct {
		name, header, want string
	}{
		{"micro avg", "a,micro avg,l2", `warning: Class named like a summary row: Dataset "d": class "micro avg" bears the name of a summary row of the per-class outputs (accuracy, macro avg, weighted avg, micro avg): in per_class.csv and the per-class tables its row could not be told from that summary row. Rename the class.`},
		{"other names", "a,l1,l2", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			labels := strings.Split(tt.header, ",")[1:]
			r, ds, dir := loadTarget(t, "d.csv", tt.header+"\n1,0,1\n2,1,0\n", config.Dataset{Labels: labels})
			if !bindLabels(t, r, ds) {
				t.Fatal("labelTargets refused the dataset")
			}
			if got := diagLines(r.diags, dir); got != tt.want {
				t.Errorf("diagnostics:\n%s\nwant:\n%s", got, tt.want)
			}
		})
	}
}
