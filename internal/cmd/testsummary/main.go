// Command testsummary reads the output of `go test -json` on stdin, prints
// the usual one line per package plus the output of every failed test, and
// ends with the number of tests run, passed, failed and skipped.
//
// It exits with status 1 when a test failed or when a test was skipped for
// any reason other than a missing tool the Makefile can install (the skip
// message must then say "apt-get install"): the reference data is part of
// the repository, so a clone runs every test.
//
// With -min N (or -min-file F) it also fails when fewer than N tests ran,
// so tests that silently stop running (a lost file, a build tag, data the
// clone lacks) are noticed; testdata/testcount records the count of the
// whole suite.
//
// Usage:
//
//	go test -json ./... | go run ./internal/cmd/testsummary [-min N | -min-file F]
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
)

func main() {
	if err := run(context.Background(), os.Args[1:], os.Stdin, os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "testsummary:", err)
		os.Exit(1)
	}
}

func run(_ context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("testsummary", flag.ContinueOnError)
	fs.SetOutput(stderr)
	minimum := fs.Int("min", 0, "fail when fewer than `N` tests ran")
	minFile := fs.String("min-file", "", "read N for -min from `file`")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *minFile != "" {
		n, err := readCount(*minFile)
		if err != nil {
			return err
		}
		*minimum = n
	}
	s, err := summarise(stdin, stdout)
	if err != nil {
		return err
	}
	return s.verdict(stdout, *minimum)
}

func readCount(path string) (int, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0, fmt.Errorf("reading the expected test count: %w", err)
	}
	var n int
	if _, err := fmt.Sscan(string(b), &n); err != nil {
		return 0, fmt.Errorf("%s: expected test count: %w", path, err)
	}
	return n, nil
}
