package main

import (
	"context"
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"
	"sync"
	"text/tabwriter"

	"github.com/polyclass/polyclass/framework/data"
	"github.com/polyclass/polyclass/framework/encode"
	"github.com/polyclass/polyclass/framework/host"
	"github.com/polyclass/polyclass/framework/metrics"
	"github.com/polyclass/polyclass/framework/plugin"
	"github.com/polyclass/polyclass/framework/report"
)

// listTopics are what bench list lists.
var listTopics = []string{"metrics", "encoders", "learners", "schemes", "decoders", "formats"}

// list prints the names of one topic, from the registries that define
// them: package metrics, package encode, the reducer plugins' Info and
// package data.
func list(ctx context.Context, h *host.Host, args []string, stdout, stderr io.Writer) error {
	if len(args) != 1 {
		return usageError{fmt.Sprintf("list needs one of %s", strings.Join(listTopics, ", "))}
	}
	switch args[0] {
	case "metrics":
		return listMetrics(stdout)
	case "encoders":
		return listEncoders(stdout)
	case "formats":
		return listFormats(stdout)
	case "learners":
		plugins, err := startedPlugins(ctx, h, stderr)
		if err != nil {
			return err
		}
		return listLearners(stdout, plugins, h.Dir())
	case "schemes", "decoders":
		reducers, err := reducerInfos(ctx, h, stderr)
		if err != nil {
			return err
		}
		if len(reducers) == 0 {
			return fmt.Errorf("no reducer plugin in %s", h.Dir())
		}
		if args[0] == "schemes" {
			return listSchemes(stdout, reducers)
		}
		return listDecoders(stdout, reducers)
	}
	return usageError{fmt.Sprintf("list: unknown topic %q (want %s)", args[0], strings.Join(listTopics, ", "))}
}

func listMetrics(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "metric\tapplies to\tbetter\tdefinition")
	for _, m := range metrics.Metrics() {
		better := "lower"
		if m.HigherIsBetter {
			better = "higher"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", m.Name, m.Kind, better, m.Doc)
	}
	return tw.Flush()
}

func listEncoders(w io.Writer) error {
	kinds := encode.Kinds()
	names := make([]string, 0, len(kinds))
	for n := range kinds {
		names = append(names, n)
	}
	sort.Strings(names)
	for i, n := range names {
		if i > 0 {
			fmt.Fprintln(w)
		}
		k := kinds[n]
		fmt.Fprintf(w, "%s: %s\n", k.Name, k.Description)
		writeParams(w, "  ", k.Options)
	}
	return nil
}

// listFormats prints the data file formats a dataset's path may have, then
// the output formats output { formats = [...] } may name.
func listFormats(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "format\textensions (each also .gz)\tcontent")
	for _, f := range data.Formats() {
		fmt.Fprintf(tw, "%s\t%s\t%s\n", f.Name, strings.Join(f.Extensions, " "), f.Description)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintln(w, "\noutput formats (output { formats = [...] }; markdown and csv by default):")
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, f := range report.Formats() {
		fmt.Fprintf(tw, "%s\t%s\n", f.Name, f.Writes)
	}
	return tw.Flush()
}

// reducerInfos starts every plugin, all at once, and returns the
// reducers' Info, in the plugins' name order. A plugin that cannot start
// is noted on stderr.
func reducerInfos(ctx context.Context, h *host.Host, stderr io.Writer) ([]*plugin.ReducerInfo, error) {
	plugins, err := startedPlugins(ctx, h, stderr)
	if err != nil {
		return nil, err
	}
	var out []*plugin.ReducerInfo
	for _, p := range plugins {
		if p.ReducerInfo != nil {
			out = append(out, p.ReducerInfo)
		}
	}
	return out, nil
}

// startedPlugins starts every plugin, all at once, and returns those that
// started, in name order; those that cannot start are noted on stderr.
func startedPlugins(ctx context.Context, h *host.Host, stderr io.Writer) ([]*host.Plugin, error) {
	bins, err := h.Binaries()
	if err != nil {
		return nil, err
	}
	plugins, errs := make([]*host.Plugin, len(bins)), make([]error, len(bins))
	var wg sync.WaitGroup
	for i, b := range bins {
		wg.Go(func() { plugins[i], errs[i] = h.Get(ctx, b.Name) })
	}
	wg.Wait()
	var out []*host.Plugin
	for i, b := range bins {
		if err := errs[i]; err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			fmt.Fprintf(stderr, "note: plugin %s cannot start: %v\n", b.Name, err)
			continue
		}
		out = append(out, plugins[i])
	}
	return out, nil
}

// listLearners prints the learners (learner "NAME" {} or plugin =
// "NAME") the plugins in dir serve: name, version, capabilities and
// description, one a line; bench plugins gives their parameters.
func listLearners(w io.Writer, plugins []*host.Plugin, dir string) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "learner\tversion\tcapabilities\tdescription")
	n := 0
	for _, p := range plugins {
		li := p.LearnerInfo
		if li == nil {
			continue
		}
		n++
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", p.Name, p.Version(), strings.Join(capabilities(li.Capabilities), ", "), li.Description)
	}
	if n == 0 {
		return fmt.Errorf("no learner plugin in %s", dir)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	_, err := fmt.Fprintln(w, "\nparameters: bench plugins")
	return err
}

func listSchemes(w io.Writer, reducers []*plugin.ReducerInfo) error {
	for i, r := range reducers {
		if i > 0 {
			fmt.Fprintln(w)
		}
		fmt.Fprintf(w, "plugin %s %s: %s\n", r.Name, r.Version, r.Description)
		for _, s := range r.Schemes {
			var notes []string
			if s.MultiLabel {
				notes = append(notes, "multi-label data")
			}
			if s.NeedsMulticlass {
				notes = append(notes, "needs a multiclass learner")
			}
			if s.NeedsRegression {
				notes = append(notes, "needs a regression learner")
			}
			if !s.RowWiseDecode {
				// Its Decode is never split over the message bound.
				notes = append(notes, "decodes a fold's test rows in one call")
			}
			note := ""
			if len(notes) > 0 {
				note = " [" + strings.Join(notes, "; ") + "]"
			}
			fmt.Fprintf(w, "\nscheme %s%s: %s\n", s.Name, note, s.Description)
			writeParams(w, "  ", s.Params)
		}
	}
	return nil
}

// decodeParam is the reduction parameter that chooses the decoder.
const decodeParam = "decode"

// listDecoders prints, for each reducer plugin, the values its schemes
// allow for the decode parameter: each decoder with the schemes that take
// it and the schemes whose default it is.
func listDecoders(w io.Writer, reducers []*plugin.ReducerInfo) error {
	for i, r := range reducers {
		if i > 0 {
			fmt.Fprintln(w)
		}
		type use struct{ schemes, defaults []string }
		uses := map[string]*use{}
		var order []string
		var docs []string
		for _, s := range r.Schemes {
			for _, p := range s.Params {
				if p.Name != decodeParam {
					continue
				}
				if p.Description != "" && !slices.Contains(docs, p.Description) {
					docs = append(docs, p.Description)
				}
				for _, d := range p.Allowed {
					if uses[d] == nil {
						uses[d] = &use{}
						order = append(order, d)
					}
					uses[d].schemes = append(uses[d].schemes, s.Name)
					if p.Default.Kind() == plugin.StringValue && p.Default.Str() == d {
						uses[d].defaults = append(uses[d].defaults, s.Name)
					}
				}
			}
		}
		fmt.Fprintf(w, "plugin %s %s: %s = ...\n", r.Name, r.Version, decodeParam)
		if len(order) == 0 {
			fmt.Fprintln(w, "  (no scheme takes a decoder)")
			continue
		}
		for _, d := range docs {
			fmt.Fprintf(w, "  %s\n", d)
		}
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "\ndecoder\tdefault of\tschemes")
		for _, d := range order {
			fmt.Fprintf(tw, "%s\t%s\t%s\n", d, strings.Join(uses[d].defaults, ", "), strings.Join(uses[d].schemes, ", "))
		}
		if err := tw.Flush(); err != nil {
			return err
		}
	}
	return nil
}
