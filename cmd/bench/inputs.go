package main

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"

	"github.com/polyclass/polyclass/framework/config"
	"github.com/polyclass/polyclass/framework/results"
)

// experimentInputs lists the files a run of exp (read from file) reads,
// each with where file names it: the results directory must hold none of
// them among its outputs (results.Options.Inputs).
func experimentInputs(file string, exp *config.Experiment) []results.Input {
	in := []results.Input{{Path: file, What: "the experiment file", At: file}}
	add := func(path, what string, r hcl.Range) {
		if path == "" {
			return
		}
		at := file
		if r.Filename != "" {
			at = fmt.Sprintf("%s:%d:%d", r.Filename, r.Start.Line, r.Start.Column)
		}
		in = append(in, results.Input{Path: path, What: what, At: at})
	}
	for _, d := range exp.Datasets {
		add(d.Path, fmt.Sprintf("dataset %q path", d.Name), d.PathRange)
		add(d.FoldsFile, fmt.Sprintf("dataset %q folds_file", d.Name), d.FoldsFileRange)
		add(d.TestPath, fmt.Sprintf("dataset %q test_path", d.Name), d.TestPathRange)
	}
	add(exp.CV.FoldsFile, "cv.folds_file", exp.CV.FoldsFileRange)
	return in
}
