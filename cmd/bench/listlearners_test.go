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
