// Command bench runs polyclass experiments: it cross-validates every
// combination an experiment file declares and writes comparison tables.
//
//	bench run [-o DIR] [-j N] [--fresh] [--shard I/N] [--quiet] [--plugins DIR] FILE
//	bench merge OUT [DIR...]
//	bench validate [--plan [--shards N]] [--plugins DIR] FILE
//	bench plugins [--plugins DIR]
//	bench plugin check PATH
//	bench list metrics|encoders|schemes|decoders|formats
//
// "bench help" lists every command, "bench help COMMAND" describes one.
package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/hashicorp/go-plugin"

	"github.com/polyclass/polyclass/framework/host"
	"github.com/polyclass/polyclass/framework/sdk"
)

func main() {
	sdk.SetGCPercent()
	defer sdk.HoldHeapFloor()()
	// A closed terminal (SIGHUP), a closed pipe on stdout (SIGPIPE) and
	// SIGTERM stop a run as Ctrl-C does: finished cells are kept. A second
	// signal ends bench at once; its plugins die with it (see package host).
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	ctx, closed := context.WithCancel(ctx)
	// SIGPIPE also comes from a write to the connection of a plugin that
	// crashed: that costs only the plugin's cells (its call fails), so
	// only a broken stdout stops the run.
	pipe := make(chan os.Signal, 1)
	signal.Notify(pipe, syscall.SIGPIPE)
	go func() {
		for {
			select {
			case <-pipe:
				if brokenPipe(int(os.Stdout.Fd())) {
					closed()
				}
			case <-ctx.Done():
				stop()
				signal.Stop(pipe)
				return
			}
		}
	}()
	err := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	closed()
	// Managed plugin clients: kill any plugin process the run left, without
	// waiting on one that no longer answers.
	cleaned := make(chan struct{})
	go func() {
		plugin.CleanupClients()
		close(cleaned)
	}()
	select {
	case <-cleaned:
	case <-time.After(2 * host.ShutdownGrace):
	}
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
