// Command bench runs polyclass experiments: it cross-validates every
// combination an experiment file declares and writes comparison tables.
//
//	bench run [-o DIR] [-j N] [--quiet] [--plugins DIR] FILE
//	bench validate [--plugins DIR] FILE
//	bench plugins [--plugins DIR]
package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/hashicorp/go-plugin"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	// Managed plugin clients: kill every plugin process on every exit path.
	plugin.CleanupClients()
	if err != nil {
		var ue usageError
		if !errors.As(err, &ue) && !errors.Is(err, errReported) {
			fmt.Fprintln(os.Stderr, "bench:", err)
		}
		if errors.As(err, &ue) {
			fmt.Fprintln(os.Stderr, "bench:", err)
			os.Exit(2)
		}
		os.Exit(1)
	}
}
