// Command bench runs polyclass experiments: it cross-validates every
// combination an experiment file declares and writes comparison tables.
//
//	bench run [-o DIR] [-j N] [--fresh] [--adopt] [--shard I/N] [--quiet] [--verbose] [--plugins DIR] FILE
//	bench merge OUT [DIR...]
//	bench validate [--plan [--shards N]] [--dense-budget SIZE] [--plugins DIR] FILE
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
	"io"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/hashicorp/go-plugin"

	"github.com/polyclass/polyclass/framework/host"
	"github.com/polyclass/polyclass/framework/safetext"
)

func main() {
	// A closed terminal (SIGHUP), a closed pipe on stdout (SIGPIPE) and
	// SIGTERM stop a run as Ctrl-C does: finished cells are kept. A second
	// signal ends bench at once; its plugins die with it (see package host
	// and notifyContext).
	ctx, stop := notifyContext(os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
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
				signal.Stop(pipe)
				return
			}
		}
	}()
	err := runChecked(ctx, os.Args[1:], os.Stdout, os.Stderr)
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
			fmt.Fprintln(os.Stderr, errorLine(err))
		}
		if errors.As(err, &ue) {
			fmt.Fprintln(os.Stderr, errorLine(err))
			os.Exit(2)
		}
		// Stopped by a signal: 128 + its number, as a shell reports it
		// (130 for Ctrl-C), finished cells kept all the same.
		var sig signalled
		if errors.As(context.Cause(ctx), &sig) {
			os.Exit(128 + int(sig.sig))
		}
		os.Exit(1)
	}
}

// runChecked is run with stdout's first write error kept: a command whose
// own work succeeded but whose standard output could not be written (a
// full disk under `bench list > f`, /dev/full) fails, as coreutils' tools
// do, rather than exit 0 with its output lost. The work is not stopped at
// that error: the results directory holds what a run wrote. A reader that
// went away (a broken pipe: bench list | head -1) is no failure, as
// before: the SIGPIPE watch of main stops a run there, and coreutils'
// tools die of SIGPIPE there without a message.
func runChecked(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	out := &keptError{w: stdout}
	err := run(ctx, args, out, stderr)
	if err == nil && out.err != nil && !errors.Is(out.err, syscall.EPIPE) {
		return fmt.Errorf("writing standard output: %w", out.err)
	}
	return err
}

// keptError is a writer that keeps the first error of w's writes.
type keptError struct {
	w   io.Writer
	err error
}

func (k *keptError) Write(p []byte) (int, error) {
	n, err := k.w.Write(p)
	if err != nil && k.err == nil {
		k.err = err
	}
	return n, err
}

// signalled is the cause of a context cancelled by a signal.
type signalled struct{ sig syscall.Signal }

func (s signalled) Error() string { return "interrupted (" + signalName(s.sig) + ")" }

// Unwrap makes a signal's cancellation a context.Canceled too.
func (s signalled) Unwrap() error { return context.Canceled }

// signalName names the signals bench stops on as a shell user knows them.
func signalName(sig syscall.Signal) string {
	switch sig {
	case syscall.SIGINT:
		return "SIGINT, Ctrl-C"
	case syscall.SIGTERM:
		return "SIGTERM"
	case syscall.SIGHUP:
		return "SIGHUP, terminal closed"
	}
	return sig.String()
}

// notifyContext is signal.NotifyContext with the signal as the context's
// cause (a signalled): the run says which signal stopped it and bench
// exits with 128 + its number. A signal that comes once the context is
// done (a second Ctrl-C, or one while bench is leaving) ends bench at
// once, whatever it is blocked on: it does not rely on the signal's
// default action, which a shell sets to "ignore" for SIGINT in a
// background job. The cells already written stay (each is written
// atomically) and the plugins die with bench (see package host). stop
// cancels the context; the signals stay caught until bench exits.
func notifyContext(sigs ...os.Signal) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancelCause(context.Background())
	ch := make(chan os.Signal, 2)
	signal.Notify(ch, sigs...)
	go func() {
		for s := range ch {
			sig, _ := s.(syscall.Signal)
			if ctx.Err() == nil {
				cancel(signalled{sig})
				continue
			}
			fmt.Fprintf(os.Stderr, "bench: %s while stopping: exiting now (the cells already written are kept)\n", signalName(sig))
			os.Exit(128 + int(sig))
		}
	}()
	return ctx, func() { cancel(context.Canceled) }
}

// errorLine is the message bench prints for the error a command ended
// with: "bench: " and the error's text with the characters a terminal
// acts on (escape, carriage return and the other controls, bidi
// controls) written as escapes (safetext.Text), since it may quote what
// the command line or a file held (an unknown flag "--o\x1b[31m").
func errorLine(err error) string {
	return "bench: " + safetext.Text(err.Error())
}
