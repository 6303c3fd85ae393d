package config

import (
	"strings"
	"testing"
)

// TestControlCharactersInPaths: a path of the file that holds a control
// character (case 1 of issue 55: output { dir = "out\ntouch PWNED\n#" },
// which bench submit slurm wrote into an #SBATCH line that every task
// ran) is an error at the value's file:line:col, whatever attribute it is
// and however it is written (escape, variable, interpolation); so is an
// invisible or bidi control character (campaign 7 B07: a right-to-left
// override in output.dir showed the results directory reversed and
// reached the job scripts).
func TestControlCharactersInPaths(t *testing.T) {
	const rule = "; a name or path that reaches a job script, a manifest or a printed command may hold no control character and no invisible or bidi control character."
	tests := []gateCase{
		{"output dir with newlines", `output { dir = "out\ntouch PWNED\n#" }`,
			`exp.hcl:4:16: error: Invalid character|dir "out\ntouch PWNED\n#" holds a newline (U+000A) at character 4` + rule},
		{"output dir with a carriage return", `output { dir = "out\r" }`,
			`exp.hcl:4:16: error: Invalid character|dir "out\r" holds a carriage return (U+000D) at character 4` + rule},
		{"output dir with a line separator", "output { dir = \"a\u2028b\" }",
			`exp.hcl:4:16: error: Invalid character|dir "a\u2028b" holds a line separator (U+2028) at character 2` + rule},
		{"output dir from a variable", "variable \"d\" { default = \"x\\u0085\" }\noutput { dir = var.d }",
			`exp.hcl:5:16: error: Invalid character|dir "x\u0085" holds a next line (U+0085) at character 2` + rule},
		{"output dir interpolated", "variable \"d\" { default = \"\\r\" }\noutput { dir = \"res/${var.d}\" }",
			`exp.hcl:5:16: error: Invalid character|dir "res/\r" holds a carriage return (U+000D) at character 5` + rule},
		{"dataset path", `dataset "wine" { path = "wine\u0000.csv" }`,
			`exp.hcl:4:25: error: Invalid character|path "wine\x00.csv" holds a NUL (U+0000) at character 5` + rule},
		{"dataset test path", "dataset \"wine\" {\npath = \"wine.csv\"\n" + `test_path = "t\u001b.csv"` + "\n}",
			`exp.hcl:6:13: error: Invalid character|test_path "t\x1b.csv" holds an escape (U+001B) at character 2` + rule},
		{"dataset folds file", "dataset \"wine\" {\npath = \"wine.csv\"\n" + `folds_file = "f\u2029"` + "\n}",
			`exp.hcl:6:14: error: Invalid character|folds_file "f\u2029" holds a paragraph separator (U+2029) at character 2` + rule},
		{"cv folds file", `cv { folds_file = "f\t.csv" }`,
			`exp.hcl:4:19: error: Invalid character|folds_file "f\t.csv" holds a tab (U+0009) at character 2` + rule},
		{"output dir with a right-to-left override (campaign 7 B07)", `output { dir = "a\u202Eb" }`,
			`exp.hcl:4:16: error: Invalid character|dir "a\u202eb" holds a right-to-left override (U+202E) at character 2` + rule},
		{"dataset path with a zero-width space", `dataset "wine" { path = "wi\u200Bne.csv" }`,
			`exp.hcl:4:25: error: Invalid character|path "wi\u200bne.csv" holds a zero-width space (U+200B) at character 3` + rule},
		{"dataset test path with a right-to-left isolate", "dataset \"wine\" {\npath = \"wine.csv\"\n" + `test_path = "t\u2067.csv"` + "\n}",
			`exp.hcl:6:13: error: Invalid character|test_path "t\u2067.csv" holds a right-to-left isolate (U+2067) at character 2` + rule},
		{"dataset folds file with a soft hyphen", "dataset \"wine\" {\npath = \"wine.csv\"\n" + `folds_file = "f\u00ADx"` + "\n}",
			`exp.hcl:6:14: error: Invalid character|folds_file "f\u00adx" holds an invisible (default-ignorable) character (U+00AD) at character 2` + rule},
		{"cv folds file with a left-to-right mark", `cv { folds_file = "\u200Ef.csv" }`,
			`exp.hcl:4:19: error: Invalid character|folds_file "\u200ef.csv" holds a left-to-right mark (U+200E) at character 1` + rule},
		{"visible non-ASCII is a path like any", `output { dir = "rés/😀 日本" }`, ""},
		{"shell syntax is only text", `output { dir = "$(touch PWNED); ../'x' #y" }`, ""},
	}
	checkGateCases(t, tests)
}

// TestColumnNamesVisible: a column name the experiment file gives (target,
// labels, labels_prefix, categorical, numeric, ignore) that holds a bidi
// control, another invisible character or a control character is an
// error at the value, or at its entry in a list (campaign 8 I08/I09:
// target = "cl\u202eass" was accepted and written raw into the cell files
// and the manifest).
func TestColumnNamesVisible(t *testing.T) {
	const rule = "; a name or path that reaches a job script, a manifest or a printed command may hold no control character and no invisible or bidi control character."
	ds := func(body string) string { return "dataset \"wine\" {\npath = \"wine.csv\"\n" + body + "\n}" }
	tests := []gateCase{
		{"target with a right-to-left override (I09)", ds(`target = "cl\u202Eass"`),
			`exp.hcl:6:10: error: Invalid character|target "cl\u202eass" holds a right-to-left override (U+202E) at character 3` + rule},
		{"numeric entry with a right-to-left override (I08)", ds(`numeric = ["x1", "sepal\u202Elength"]`),
			`exp.hcl:6:18: error: Invalid character|numeric column "sepal\u202elength" holds a right-to-left override (U+202E) at character 6` + rule},
		{"categorical entry with a zero-width space", ds(`categorical = ["co\u200Blor"]`),
			`exp.hcl:6:16: error: Invalid character|categorical column "co\u200blor" holds a zero-width space (U+200B) at character 3` + rule},
		{"ignore entry with a soft hyphen", ds(`ignore = ["a", "b", "i\u00ADd"]`),
			`exp.hcl:6:21: error: Invalid character|ignore column "i\u00add" holds an invisible (default-ignorable) character (U+00AD) at character 2` + rule},
		{"labels entry with a right-to-left isolate", ds(`labels = ["\u2067l1", "l2"]`),
			`exp.hcl:6:11: error: Invalid character|labels column "\u2067l1" holds a right-to-left isolate (U+2067) at character 1` + rule},
		{"labels_prefix with a left-to-right mark", ds(`labels_prefix = "lab\u200E"`),
			`exp.hcl:6:17: error: Invalid character|labels_prefix "lab\u200e" holds a left-to-right mark (U+200E) at character 4` + rule},
		{"target with a newline", ds(`target = "cl\nass"`),
			`exp.hcl:6:10: error: Invalid character|target "cl\nass" holds a newline (U+000A) at character 3` + rule},
		{"visible non-ASCII names are names like any", ds(`target = "clàsse"` + "\n" + `numeric = ["längd", "幅"]`), ""},
	}
	checkGateCases(t, tests)
}

// TestHomeTildeInPaths: a path of the file that starts with ~, or holds
// a shell variable ($HOME, ${DATA}), is an error at the value (campaign 11b's C15: output { dir = "~/advres" } made a
// directory named "~" and printed "report: ~/advres/adv.md", which reads
// as the home directory); a ~ later in a path is a name like any.
func TestHomeTildeInPaths(t *testing.T) {
	const tail = ", which bench does not expand (a shell expands it in a command line, before bench sees it): write the path out, or give a path relative to the experiment file."
	const detail = " starts with ~" + tail
	tests := []gateCase{
		{"output dir ~/x", `output { dir = "~/advres" }`,
			`exp.hcl:4:16: error: Unexpanded home directory|dir "~/advres"` + detail},
		{"output dir ~", `output { dir = "~" }`,
			`exp.hcl:4:16: error: Unexpanded home directory|dir "~"` + detail},
		{"output dir ~user/x", `output { dir = "~alice/r" }`,
			`exp.hcl:4:16: error: Unexpanded home directory|dir "~alice/r"` + detail},
		{"dataset path", `dataset "wine" { path = "~/wine.csv" }`,
			`exp.hcl:4:25: error: Unexpanded home directory|path "~/wine.csv"` + detail},
		{"cv folds file", `cv { folds_file = "~/f.csv" }`,
			`exp.hcl:4:19: error: Unexpanded home directory|folds_file "~/f.csv"` + detail},
		// campaign 11c's B18: a variable.
		{"output dir $HOME/res", `output { dir = "$HOME/res" }`,
			`exp.hcl:4:16: error: Unexpanded variable|dir "$HOME/res" holds $HOME` + tail},
		{"dataset path ${DATA}", `dataset "wine" { path = "d/$${DATA}.csv" }`,
			`exp.hcl:4:25: error: Unexpanded variable|path "d/${DATA}.csv" holds ${DATA}` + tail},
		{"a ./~ is a name", `output { dir = "./~/res" }`, ""},
		{"a $ before no name is a name", `output { dir = "a$(b)/x$/$1" }`, ""},
		{"a $ inside a name is a name", `dataset "wine" { path = "my$file.csv" }`, ""},
		{"a ~ inside is a name", `output { dir = "res/~old" }`, ""},
		{"a ~ at a name's end", `output { dir = "res~" }`, ""},
	}
	checkGateCases(t, tests)
}

// gateCase is an experiment file's text after base and the diagnostics it
// gets: their first line and the last line of the detail, joined by "|";
// "" for none.
type gateCase struct{ name, src, want string }

// checkGateCases parses each case and compares its diagnostics.
func checkGateCases(t *testing.T, tests []gateCase) {
	t.Helper()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, diags := parse(t, base+tt.src+"\n")
			var got string
			if diags != "" {
				lines := strings.Split(strings.TrimRight(diags, "\n"), "\n")
				got = lines[0] + "|" + lines[len(lines)-1]
			}
			if got != tt.want {
				t.Errorf("got:\n%s\nwant:\n%s\nall:\n%s", got, tt.want, diags)
			}
		})
	}
}

// TestURLPaths: a path of the file that is a URL is an error at the value
// that shows it as written and says bench reads local files only
// (campaign 16: path = "https://example.com/iris.csv" was refused as
// "open https:/example.com/iris.csv: no such file or directory", the URL
// cleaned as a path); a colon elsewhere, or a scheme without "//", is a
// name like any.
func TestURLPaths(t *testing.T) {
	const download = " is a URL, but bench's paths name local files and directories only, and it downloads nothing: download the file first (curl -O URL, say) and give its path, relative to the experiment file or absolute."
	tests := []gateCase{
		{"dataset path https", `dataset "wine" { path = "https://example.com/iris.csv" }`,
			`exp.hcl:4:25: error: Path is a URL|path "https://example.com/iris.csv"` + download},
		{"dataset path s3", `dataset "wine" { path = "s3://bucket/wine.csv" }`,
			`exp.hcl:4:25: error: Path is a URL|path "s3://bucket/wine.csv"` + download},
		{"dataset path file:///", `dataset "wine" { path = "file:///data/wine.csv" }`,
			`exp.hcl:4:25: error: Path is a URL|path "file:///data/wine.csv"` + download},
		{"test_path", `dataset "wine" {
  path      = "wine.csv"
  test_path = "http://example.com/t.csv"
}`, `exp.hcl:6:15: error: Path is a URL|test_path "http://example.com/t.csv"` + download},
		{"cv folds file", `cv { folds_file = "https://example.com/f.csv" }`,
			`exp.hcl:4:19: error: Path is a URL|folds_file "https://example.com/f.csv"` + download},
		{"output dir", `output { dir = "sftp://host/res" }`,
			`exp.hcl:4:16: error: Path is a URL|dir "sftp://host/res" is a URL, but bench's paths name local files and directories only, and it downloads nothing: results are written into a local directory: give its path, relative to the experiment file or absolute.`},
		{"a colon in a name", `dataset "wine" { path = "data/run:1.csv" }`, ""},
		{"a scheme without //", `dataset "wine" { path = "https:wine.csv" }`, ""},
		{"a // inside", `dataset "wine" { path = "data//x://y.csv" }`, ""},
	}
	checkGateCases(t, tests)
}
