package config

import (
	"strings"
	"testing"
	"time"
)

// TestFunctionsRefuseWhatTheyCannotMake: pow and log whose result is not
// a number, and a setproduct too large, are located errors saying so
// (campaign 5: n02/n11 printed a 50-line Go stack, "panic in function
// implementation: Float.SetFloat64(NaN)"; h02 died out of memory).
func TestFunctionsRefuseWhatTheyCannotMake(t *testing.T) {
	for _, tc := range []struct {
		name, expr, want string
	}{
		{"pow of a negative base", "pow(-8, 1/3)", `exp.hcl:1:33: error: Invalid function argument`},
		{"pow's message", "pow(-8, 1/3)", `Invalid value for "power" parameter: pow(-8, 0.3333333333333333) is not a number: a negative base needs a whole exponent.`},
		{"log of a negative number", "log(-1, 10)", `Invalid value for "num" parameter: log(-1, 10) is not a number: log needs a number >= 0 and a base > 0 other than 1.`},
		{"log in base 1", "log(1, 1)", `log(1, 1) is not a number`},
		{"modulo of an infinity (one line, no stack)", "(1/0) % 2", "exp.hcl:1:25: error: Operation failed\n  on exp.hcl line 1, in experiment \"x\":\n   1: experiment \"x\" { seed = (1/0) % 2 }\n                              ^^^^^^^^^\n\nError during operation: no result: the HCL library failed on it (runtime error: invalid memory address or nil pointer dereference); an operand that is infinite (1/0) or not a number is the usual cause.\n"},
		{"setproduct of 1e9", "length(setproduct(range(1000), range(1000), range(1000)))", `setproduct would make 1000000000 combinations, more than the 100000 an experiment file may make`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, diags := parse(t, strings.Replace(base, "seed = 3", "seed = "+tc.expr, 1))
			if !strings.Contains(diags, tc.want) || strings.Contains(diags, "goroutine") {
				t.Errorf("diagnostics:\n%s\nwant one holding %q and no Go stack", diags, tc.want)
			}
		})
	}
	for _, ok := range []string{"pow(2, 10)", "log(1024, 2)", "length(setproduct(range(100), range(1000)))"} {
		if _, diags := parse(t, strings.Replace(base, "seed = 3", "seed = "+ok, 1)); diags != "" {
			t.Errorf("%s: %s", ok, diags)
		}
	}
}

// TestFunctionsBoundWhatTheyTakeAndMake: a list function taking or making
// more than MaxFunctionValues values, and a text function taking or making
// more than MaxFunctionText bytes, is a located error naming the function
// and the bound, found in seconds (campaign 5 h03, h04, h06: flatten,
// sort and text doubling ran for minutes). Values just under the bounds
// pass.
func TestFunctionsBoundWhatTheyTakeAndMake(t *testing.T) {
	const (
		kib      = `format("%1024s", "")`
		mib      = `join("", [for i in range(1024): ` + kib + `])`
		list90k  = `flatten([for i in range(300): range(300)])`
		text600k = `join("", [for i in range(600): ` + kib + `])`
	)
	for _, tc := range []struct {
		name, expr, want string
	}{
		{"flatten takes 120,400 values (h03)", "length(flatten([for i in range(400): range(300)]))",
			`Invalid value for "list" parameter: flatten would take more than 100000 values, the most a function in an experiment file may take.`},
		{"distinct takes 104,400 values", "length(distinct([for i in range(400): range(260)]))",
			`distinct would take more than 100000 values`},
		{"concat takes 120,000 values", "length(concat([for i in range(400): range(300)]...))",
			`Invalid value for "seqs" parameter: concat would take more than 100000 values, the most a function in an experiment file may take.`},
		{"sort takes 1 MiB of text (h04)", `length(sort([for i in range(1024): format("%1025s", "")]))`,
			`sort would take more than 1048576 bytes of text (1 MiB), the most a function in an experiment file may take`},
		{"join makes 1.07 MiB of text", `length([join(format("%100s", ""), [for i in range(1000): ` + kib + `])])`,
			`Call to function "join" failed: join would make more than 1048576 bytes of text (1 MiB), the most a function in an experiment file may make.`},
		{"format doubles 600 KiB (h06)", `length([format("%s%s", ` + text600k + ", " + text600k + ")])",
			`format would take more than 1048576 bytes of text (1 MiB)`},
		{"format pads to 1 MiB and one byte", `length([format("%1048577s", "")])`,
			`Call to function "format" failed: format would make more than 1048576 bytes of text (1 MiB), the most a function in an experiment file may make.`},
		{"merge takes 120,000 values", "length(merge({a = flatten([for i in range(200): range(300)])}, {b = flatten([for i in range(200): range(300)])}))",
			`merge would take more than 100000 values`},
		{"upper takes 1 MiB and one byte", "length([upper(\"${" + mib + "}-\")])",
			`upper would take more than 1048576 bytes of text`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			start := time.Now()
			_, diags := parse(t, strings.Replace(base, "seed = 3", "seed = "+tc.expr, 1))
			if !strings.Contains(diags, tc.want) || !strings.Contains(diags, "exp.hcl:1:") {
				t.Errorf("diagnostics:\n%s\nwant one at exp.hcl:1 holding %q", diags, tc.want)
			}
			if d := time.Since(start); d > 10*time.Second {
				t.Errorf("took %v, want under 10 s (a shared machine's margin; under a second alone)", d)
			}
		})
	}
	for _, ok := range []string{"length(" + list90k + ")", "length([upper(" + mib + ")])", "length(concat(" + list90k + ", range(100)))"} {
		if _, diags := parse(t, strings.Replace(base, "seed = 3", "seed = "+ok, 1)); diags != "" {
			t.Errorf("%.60s: %s", ok, diags)
		}
	}
}

// TestMergeParams: merge, as Terraform's, builds a learner's parameters
// from a shared object and the learner's own (experiments/hsu_lin.hcl's
// all-together methods): the later argument wins a key both hold.
func TestMergeParams(t *testing.T) {
	src := strings.Replace(base, "params = { C = [0.1, 1] }",
		`params = merge(local.common, { multiclass = "crammer_singer", C = [1, 2, 4] })`, 1) +
		`locals {
  common = { kernel = "rbf", C = [0.1, 1], gamma = 0.5 }
}
`
	exp, diags := parse(t, src)
	if diags != "" {
		t.Fatal(diags)
	}
	params := exp.Learners[0].Params
	got := map[string]string{}
	for name, p := range params {
		got[name] = p.Value.String()
	}
	want := map[string]string{
		"kernel": "rbf", "multiclass": "crammer_singer", "gamma": "0.5", "C": "[1, 2, 4]",
	}
	if len(got) != len(want) {
		t.Fatalf("params %v, want %v", got, want)
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("param %s = %s, want %s", k, got[k], v)
		}
	}
}

// TestEvaluationTooLong: a file whose evaluation takes longer than the
// parser's limit (lowered here to 250 ms, DefaultEvalLimit being 10 s:
// the grid takes about 800 ms on an idle machine, the file's set-up before
// its first block about 1 ms, which a loaded machine stretches past 50 ms
// now and then, and the error then named no block) ends
// with one error naming the file, the block being evaluated and the
// limit, at the block (campaign 5 h07, h08: nested for expressions ran
// for minutes).
func TestEvaluationTooLong(t *testing.T) {
	const grid = "[for i in range(300): [for j in range(1000): i * j]]"
	for _, tc := range []struct {
		name, src, want string
	}{
		{"in the experiment block", strings.Replace(base, "seed = 3", "seed = length(flatten("+grid+"))", 1),
			"exp.hcl:1:1: error: Evaluation too long\n  on exp.hcl line 1, in experiment \"x\":"},
		{"its message", strings.Replace(base, "seed = 3", "seed = length(flatten("+grid+"))", 1),
			`Evaluating experiment "x" of exp.hcl took more than 250ms, the most an experiment file may take; its for expressions or functions build too much.`},
		{"in the locals", base + "locals {\n  g = " + grid + "\n}\n",
			`exp.hcl:4:1: error: Evaluation too long`},
		{"a variable's default", base + "variable \"g\" {\n  default = " + grid + "\n}\n",
			`Evaluating variable "g" of exp.hcl took more than 250ms`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := NewParser(formats)
			p.SetEvalLimit(250 * time.Millisecond)
			start := time.Now()
			exp, diags := p.ParseSource([]byte(tc.src), "exp.hcl")
			if d := time.Since(start); d > 5*time.Second {
				t.Errorf("took %v, want about 250ms", d)
			}
			var b strings.Builder
			if err := WriteDiagnostics(&b, p.Files(), diags); err != nil {
				t.Fatal(err)
			}
			if exp != nil || len(diags) != 1 || !strings.Contains(b.String(), tc.want) {
				t.Errorf("experiment %v, diagnostics:\n%s\nwant none and one holding %q", exp, b.String(), tc.want)
			}
		})
	}
	if _, diags := parse(t, base); diags != "" {
		t.Errorf("base under the default limit: %s", diags)
	}
}
