package config

import (
	"strings"
	"testing"
)

// TestParamStringsVisible: a string parameter value (of a learner, a
// reduction, an encoder, in a list or a choice) holding a control
// character, an escape, a carriage return or a bidi control is refused at
// its place: the value is shown in every table and in the cells' keys
// (campaign 10's B08e, where an edited cell carried one into the tables).
func TestParamStringsVisible(t *testing.T) {
	const rule = "; a parameter value is shown in the tables, so it may hold no control, bidi control or other invisible character."
	for _, tc := range []struct{ name, src, at, want string }{
		{"plain and accented", base + "learner \"svm\" { params = { kernel = \"rbf\", note = \"Vázquez–x\" } }\n", "", ""},
		{"escape", base + "learner \"svm\" { params = { kernel = \"a\\u001b[31mRED\" } }\n",
			"exp.hcl:4:37: error: Invalid parameter value", `Learner "svm": kernel: the string "a\x1b[31mRED" holds an escape (U+001B) at character 2` + rule},
		{"carriage return in a list", base + "learner \"svm\" { params = { kernel = [\"rbf\", \"x\\r\"] } }\n",
			"exp.hcl:4:37: error: Invalid parameter value", `Learner "svm": kernel: the string "x\r" holds a carriage return (U+000D) at character 2` + rule},
		{"RLO in a reduction's parameter", base + "reduction \"ova\" { params = { decode = \"\\u202eedoc\" } }\n",
			"exp.hcl:4:39: error: Invalid parameter value", `Reduction "ova": decode: the string "\u202eedoc" holds a right-to-left override (U+202E) at character 1` + rule},
		{"BEL in a choice", base + "learner \"svm\" { params = { kernel = choice([\"rbf\", \"\\u0007\"]) } }\n",
			"exp.hcl:4:44: error: Invalid function argument", `Invalid value for "values" parameter: the string "\a" holds a control character (U+0007) at character 1` + rule},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, diags := parse(t, tc.src)
			if tc.want == "" {
				if diags != "" {
					t.Fatalf("diagnostics:\n%s", diags)
				}
				return
			}
			if !strings.Contains(diags, tc.at) || !strings.Contains(diags, tc.want) {
				t.Fatalf("diagnostics:\n%s\nwant an error at %s saying\n%s", diags, tc.at, tc.want)
			}
		})
	}
}

// TestParamStringsBounded: a string parameter value of at most
// MaxParamChars characters (1000 letters, 1000 accented letters) is
// taken; one character more is refused at its place, alone, in a list or
// in a choice, the value shown cut to its first 60 characters (a
// 900,000-character value was printed into every table).
func TestParamStringsBounded(t *testing.T) {
	const rule = " characters long, more than the 1000 a parameter value may have; it is shown in every table and in the cells' keys."
	long, accented := strings.Repeat("a", MaxParamChars+1), strings.Repeat("é", MaxParamChars)
	shown := `"` + strings.Repeat("a", 60) + `"…`
	for _, tc := range []struct{ name, src, at, want string }{
		{"1000 letters", base + "learner \"svm\" { params = { kernel = \"" + long[1:] + "\" } }\n", "", ""},
		{"1000 accented letters", base + "learner \"svm\" { params = { kernel = \"" + accented + "\" } }\n", "", ""},
		{"1001 letters", base + "learner \"svm\" { params = { kernel = \"" + long + "\" } }\n",
			"exp.hcl:4:37: error: Invalid parameter value", `Learner "svm": kernel: the string ` + shown + ` is 1001` + rule},
		{"1001 letters in a list", base + "learner \"svm\" { params = { kernel = [\"rbf\", \"" + long + "\"] } }\n",
			"exp.hcl:4:37: error: Invalid parameter value", `Learner "svm": kernel: the string ` + shown + ` is 1001` + rule},
		{"1001 accented letters from format", base + "learner \"svm\" { params = { kernel = format(\"%s%s\", \"" + accented + "\", \"x\") } }\n",
			"exp.hcl:4:37: error: Invalid parameter value", `Learner "svm": kernel: the string "` + strings.Repeat("é", 60) + `"… is 1001` + rule},
		{"1001 letters in a choice", base + "learner \"svm\" { params = { kernel = choice([\"rbf\", \"" + long + "\"]) } }\n",
			"exp.hcl:4:44: error: Invalid function argument", `the string ` + shown + ` is 1001` + rule},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, diags := parse(t, tc.src)
			if tc.want == "" {
				if diags != "" {
					t.Fatalf("diagnostics:\n%s", diags)
				}
				return
			}
			if !strings.Contains(diags, tc.at) || !strings.Contains(diags, tc.want) {
				t.Fatalf("diagnostics:\n%s\nwant an error at %s saying\n%s", diags, tc.at, tc.want)
			}
		})
	}
}
