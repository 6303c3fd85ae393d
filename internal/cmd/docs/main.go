// Command docs regenerates the generated parts of the README and of the
// pages in docs/ (see package internal/docs) by running the shipped
// experiments with a built bench; `make docs` and `make docs-check` run it.
//
// Usage:
//
//	go run ./internal/cmd/docs [-bench bin/bench] [-check] [FILE.md ...]
//
// Without -check it rewrites each file (default README.md); with -check it
// only reports the first difference and exits 1 when a file is stale.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"

	"github.com/polyclass/polyclass/internal/docs"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	err := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	if err != nil {
		fmt.Fprintln(os.Stderr, "docs:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("docs", flag.ContinueOnError)
	fs.SetOutput(stderr)
	bench := fs.String("bench", "bin/bench", "the bench `binary` (plugins beside it)")
	check := fs.Bool("check", false, "report stale files instead of rewriting them")
	if err := fs.Parse(args); err != nil {
		return err
	}
	files := fs.Args()
	if len(files) == 0 {
		files = []string{"README.md"}
	}
	scratch, err := os.MkdirTemp("", "polyclass-docs-")
	if err != nil {
		return fmt.Errorf("scratch directory: %w", err)
	}
	defer os.RemoveAll(scratch)
	root, err := os.Getwd()
	if err != nil {
		return err
	}
	r := &docs.Runner{Ctx: ctx, Bench: *bench, Root: root, Out: scratch}
	var stale []error
	for _, f := range files {
		doc, err := os.ReadFile(f)
		if err != nil {
			return fmt.Errorf("reading %w", err)
		}
		gen, err := docs.Update(f, doc, r)
		if err != nil {
			return err
		}
		switch d := docs.Diff(f, doc, gen); {
		case d == "":
			fmt.Fprintf(stdout, "%s: up to date\n", f)
		case *check:
			stale = append(stale, errors.New(d))
		default:
			if err := os.WriteFile(f, gen, 0o644); err != nil {
				return fmt.Errorf("writing %w", err)
			}
			fmt.Fprintf(stdout, "%s: regenerated\n", f)
		}
	}
	return errors.Join(stale...)
}
