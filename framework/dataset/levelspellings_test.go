package dataset

import "testing"

// TestLookAlikeLevels: a categorical feature whose values read as one but
// differ as text (NFC and NFD, as a training file written on one system
// and a test file on another; a trailing no-break space; full-width or
// Cyrillic look-alike letters) gets a warning
// at path, located at the second spelling's first row (in the test file
// when it is there), listing the spellings in ASCII with their rows
// (data.ErrLevelSpellings); values that
// differ in case or in letters get none (campaign 20 N42: the test file's
// levels all unseen, accuracy 0.3333, no word).
func TestLookAlikeLevels(t *testing.T) {
	const tail = " (they differ in Unicode normalisation, as files written on macOS and elsewhere do, in full-width forms or letters of other scripts that look alike, or in blanks around them or inside); each is a level of its own: one-hot encoding gives each a column, and a row of one spelling matches none of the other's; write each value one way"
	const head = `warning: Values spelled as one: Dataset "d": `
	for _, tc := range []struct {
		name, file, test, want string
	}{
		{"NFC in training, NFD in the test file",
			"x,colour,class\n1,cr\u00e8me,a\n2,bleu,a\n3,cr\u00e8me,b\n4,bleu,b\n",
			"x,colour,class\n5,cre\u0300me,a\n6,bleu,b\n",
			head + `$DIR/t.csv:2:3: column "colour": values read as one but spelled differently: "cr\u00e8me" (data row 1), "cre\u0300me" (test row 1)` + tail},
		{"a trailing no-break space in one file",
			"x,colour,class\n1,red,a\n2,blue,a\n3,red\u00a0,b\n4,blue,b\n5, blue,a\n6,red,b\n", "",
			head + `$DIR/d.csv:4:3: column "colour": values read as one but spelled differently: "red" (data row 1), "red\u00a0" (data row 3); "blue" (data row 2), " blue" (data row 5)` + tail},
		// campaign 21 N06: full-width letters and Cyrillic look-alikes in
		// a test file.
		{"full-width and Cyrillic forms in the test file",
			"x,colour,class\n1,cafe,a\n2,tea,a\n3,cafe,b\n4,tea,b\n",
			"x,colour,class\n5,\uff43\uff41\uff46\uff45,a\n6,t\u0435a,b\n",
			head + `$DIR/t.csv:2:3: column "colour": values read as one but spelled differently: "cafe" (data row 1), "\uff43\uff41\uff46\uff45" (test row 1); "tea" (data row 2), "t\u0435a" (test row 2)` + tail},
		{"case and letters differ", "x,colour,class\n1,Red,a\n2,red,a\n3,rot,b\n4,Red,b\n", "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, ds := loadText(t, tc.file, tc.test)
			if got != tc.want {
				t.Errorf("diagnostics\n%s\nwant\n%s", got, tc.want)
			}
			if ds == nil {
				t.Error("no dataset")
			}
		})
	}
}
