package host

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"

	"github.com/polyclass/polyclass/framework/plugin"
	"github.com/polyclass/polyclass/framework/suggest"
)

// Picker is the host's part in resolving an experiment: it starts the
// plugins the experiment names in the background (Prestart), while the
// data loads; it picks the plugin of a reduction that names none
// (Reducer); and it stops the plugins started only to be asked for their
// schemes that the grid does not use (StopUnused).
type Picker struct {
	h *Host
	// defaultReducer names the plugin a reduction without plugin = "..."
	// gets when it offers the scheme (empty: every plugin is asked).
	defaultReducer string
	// offers maps each scheme to the plugins whose reducer offers it,
	// once a reduction asked (see Reducer); startErrs are the failures
	// of the plugins asked.
	offers    map[string][]string
	startErrs error
	// probed are the plugins started only to be asked.
	probed []string
}

// Prestart starts, in the background, the plugins of the learners and the
// reductions (their plugin = "..." in order, empty for a reduction that
// names none), and the default reducer for a reduction that names none
// (probed: stopped again by StopUnused unless the grid uses it). Their
// processes come up while the datasets load; the caller's own calls to
// Get wait for the same start and report its failure.
func (h *Host) Prestart(ctx context.Context, learners, reductions []string, defaultReducer string) *Picker {
	pk := &Picker{h: h, defaultReducer: defaultReducer}
	var names []string
	add := func(name string) {
		if name != "" && !slices.Contains(names, name) {
			names = append(names, name)
		}
	}
	for _, name := range learners {
		add(name)
	}
	for _, name := range reductions {
		add(name)
		if d := defaultReducer; name == "" && d != "" && !slices.Contains(names, d) {
			pk.probe(d)
			add(d)
		}
	}
	for _, name := range names {
		go h.Get(ctx, name) // the caller's own Get reports a failure
	}
	return pk
}

// probe records that plugin name is started only to be asked, unless it
// runs already.
func (pk *Picker) probe(name string) {
	if pk.h.Running(name) == nil && !slices.Contains(pk.probed, name) {
		pk.probed = append(pk.probed, name)
	}
}

// UnknownSchemeError is a scheme that no plugin's reducer offers.
type UnknownSchemeError struct {
	Scheme string
	// Schemes are the schemes the plugins offer, sorted.
	Schemes []string
	// StartErrs are the failures of the plugins that could not start to
	// be asked.
	StartErrs error
}

func (e *UnknownSchemeError) Error() string {
	offered := "no plugin serves a reducer"
	if len(e.Schemes) > 0 {
		offered = "the plugins offer: " + strings.Join(e.Schemes, ", ")
	}
	if e.StartErrs != nil {
		offered += "; and some plugins failed to start: " + e.StartErrs.Error()
	}
	return fmt.Sprintf("No plugin offers scheme %q%s; %s.", e.Scheme, suggest.DidYouMean(e.Scheme, e.Schemes), offered)
}

// AmbiguousSchemeError is a scheme that several plugins' reducers offer.
type AmbiguousSchemeError struct {
	Scheme  string
	Plugins []string
}

func (e *AmbiguousSchemeError) Error() string {
	return fmt.Sprintf("Plugins %s all offer scheme %q; choose one with plugin = \"...\".", strings.Join(e.Plugins, " and "), e.Scheme)
}

// Reducer returns the plugin for a reduction of scheme that names none:
// the default reducer when it offers the scheme; else the one plugin of
// the host whose reducer offers it (every plugin is started to be asked,
// once); else, when no plugin offers it and only one serves a reducer,
// that one, for its unknown-scheme error. Several that offer it are an
// *AmbiguousSchemeError, none an *UnknownSchemeError; any other error is
// a plugin's failure to start.
func (pk *Picker) Reducer(ctx context.Context, scheme string) (string, error) {
	switch ok, err := pk.defaultOffers(ctx, scheme); {
	case err != nil:
		return "", err
	case ok:
		return pk.defaultReducer, nil
	}
	if pk.offers == nil {
		var err error
		if pk.offers, err = pk.schemes(ctx); err != nil {
			return "", err
		}
	}
	names := pk.offers[scheme]
	if len(names) == 0 {
		var reducers []string
		for _, ps := range pk.offers {
			reducers = append(reducers, ps...)
		}
		slices.Sort(reducers)
		if reducers = slices.Compact(reducers); len(reducers) == 1 {
			return reducers[0], nil
		}
		return "", &UnknownSchemeError{Scheme: scheme, Schemes: slices.Sorted(maps.Keys(pk.offers)), StartErrs: pk.startErrs}
	}
	if len(names) > 1 {
		return "", &AmbiguousSchemeError{Scheme: scheme, Plugins: names}
	}
	return names[0], nil
}

// defaultOffers reports whether the default reducer plugin offers scheme,
// which spares starting every plugin to ask, and why the default, when
// the directory holds it, cannot start.
func (pk *Picker) defaultOffers(ctx context.Context, scheme string) (bool, error) {
	if pk.defaultReducer == "" {
		return false, nil
	}
	bins, err := pk.h.Binaries()
	if err != nil || !slices.ContainsFunc(bins, func(b Binary) bool { return b.Name == pk.defaultReducer }) {
		return false, nil // no default here: every plugin is asked
	}
	pk.probe(pk.defaultReducer) // stopped again unless the grid uses it
	p, err := pk.h.Get(ctx, pk.defaultReducer)
	if err != nil {
		return false, err
	}
	return p.ReducerInfo != nil && slices.ContainsFunc(p.ReducerInfo.Schemes, func(s plugin.Scheme) bool { return s.Name == scheme }), nil
}

// schemes starts every plugin of the host, side by side, and returns for
// each scheme the plugins whose reducer offers it, by name; a plugin that
// cannot start offers none.
func (pk *Picker) schemes(ctx context.Context) (map[string][]string, error) {
	bins, err := pk.h.Binaries()
	if err != nil {
		return nil, err
	}
	plugins := make([]*Plugin, len(bins))
	errs := make([]error, len(bins))
	var wg sync.WaitGroup
	for i, b := range bins {
		pk.probe(b.Name)
		wg.Go(func() { plugins[i], errs[i] = pk.h.Get(ctx, b.Name) })
	}
	wg.Wait()
	pk.startErrs = errors.Join(errs...)
	offers := map[string][]string{}
	for _, p := range plugins {
		if p == nil || p.ReducerInfo == nil {
			continue
		}
		for _, s := range p.ReducerInfo.Schemes {
			offers[s.Name] = append(offers[s.Name], p.Name)
		}
	}
	return offers, nil
}

// StopUnused stops the plugins started only to be asked for their
// schemes that used (the names of the plugins the grid uses) leaves out.
func (pk *Picker) StopUnused(used map[string]bool) {
	for _, name := range pk.probed {
		if p := pk.h.Running(name); p != nil && !used[name] {
			p.Stop()
		}
	}
}
