package main

import (
	"regexp"
	"strings"
	"testing"
)

// TestListLearners: bench list learners (an unknown topic before) lists
// the learner plugins with their version, capabilities and description,
// and no reducer.
func TestListLearners(t *testing.T) {
	stdout, stderr, err := bench(t, "list", "learners")
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	for _, want := range []*regexp.Regexp{
		regexp.MustCompile(`(?m)^learner +version +capabilities +description$`),
		regexp.MustCompile(`(?m)^lda +\S+ +binary, multiclass, regression, scores, probabilities +linear discriminant analysis \(pooled covariance`),
		regexp.MustCompile(`(?m)^logreg +\S+ +binary, multiclass, scores, probabilities, sparse, weights +`),
		regexp.MustCompile(`(?m)^parameters: bench plugins$`),
	} {
		if !want.MatchString(stdout) {
			t.Errorf("stdout lacks %s:\n%s", want, stdout)
		}
	}
	if strings.Contains(stdout, "\nreducers ") {
		t.Errorf("a reducer listed as a learner:\n%s", stdout)
	}
}

// TestDescribed checks the text after a plugin's kind in `bench plugins`:
// a plugin without a description (the Go example of
// docs/writing-plugins.md has none) says so instead of leaving a bare
// "learner" line.
func TestDescribed(t *testing.T) {
	for _, c := range []struct{ description, want string }{
		{"", "learner: (no description)"},
		{"  ", "learner: (no description)"},
		{"nearest class mean", "learner: nearest class mean"},
	} {
		if got := "learner" + described(c.description); got != c.want {
			t.Errorf("described(%q): %q, want %q", c.description, got, c.want)
		}
	}
}
