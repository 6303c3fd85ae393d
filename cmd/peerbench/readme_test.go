package main

import (
	"os"
	"regexp"
	"testing"
)

// TestREADMEPerformanceSection: the README's performance section is the
// committed report of `make bench` (docs/performance.md) word for word,
// and that report says where, when and under what load it was measured
// and has a summary line for every goal.
func TestREADMEPerformanceSection(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	report, err := os.ReadFile("../../docs/performance.md")
	if err != nil {
		t.Fatal(err)
	}
	section, err := readmeSection(string(readme))
	if err != nil {
		t.Fatalf("README.md: %v", err)
	}
	if section != string(report) {
		t.Errorf("README.md's performance section differs from docs/performance.md: run `make bench` (it rewrites both), do not edit the numbers by hand")
	}
	for _, re := range []string{
		`Measured by ` + "`cmd/peerbench`" + ` .* on \d{4}-\d\d-\d\d \d\d:\d\d–\d\d:\d\d UTC`,
		`\*\*Machine:\*\* .+, \d+ CPUs, .+ RAM`,
		`\*\*Load average\*\* \(1, 5, 15 min\): [\d.]+ [\d.]+ [\d.]+ at the start, [\d.]+ [\d.]+ [\d.]+ at the end`,
		`\| goal \| what \| ours \| peer \| ratio \| target \| met\? \|`,
	} {
		if !regexp.MustCompile(re).Match(report) {
			t.Errorf("docs/performance.md lacks %s", re)
		}
	}
	for g := 1; g <= goalCount; g++ {
		if !regexp.MustCompile(`(?m)^\| ` + string(rune('0'+g)) + ` \| `).Match(report) {
			t.Errorf("docs/performance.md: no summary line for goal %d", g)
		}
	}
}
