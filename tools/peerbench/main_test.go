package main

import (
	"context"
	"fmt"
	"os"
	"testing"
)

// TestMain lets this test binary stand in for peerbench as the child
// process of a timed plugin-tax run (runTaxGrid starts os.Executable with
// the tax-grid command).
func TestMain(m *testing.M) {
	if len(os.Args) > 1 && os.Args[1] == taxGridCommand {
		if err := taxGrid(context.Background(), os.Args[2:], os.Stdout); err != nil {
			fmt.Fprintln(os.Stderr, "peerbench:", err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}
