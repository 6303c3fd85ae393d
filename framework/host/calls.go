package host

import (
	"context"
	"sort"
	"strings"
	"sync"

	"google.golang.org/grpc/stats"

	"github.com/polyclass/polyclass/framework/outcome"
)

// protocolPrefix starts the full name of every method of the plugin
// protocol (framework/internal/protov1); go-plugin's own services
// (stdio, controller, broker) are not counted.
const protocolPrefix = "/polyclass.plugin.v1."

// callCounter is the gRPC client stats handler of one plugin: it counts
// every protocol call, and the bytes going each way.
type callCounter struct {
	plugin string
	mu     sync.Mutex
	byName map[string]*outcome.CallStats
}

func newCallCounter(plugin string) *callCounter {
	return &callCounter{plugin: plugin, byName: map[string]*outcome.CallStats{}}
}

type methodKey struct{}

// uncountedKey marks the context of a call the counters leave out.
type uncountedKey struct{}

// uncounted returns ctx marked so that the calls made with it are not
// counted: the Info probes of Plugin.probe. A probe of a service the
// plugin does not serve ends Unimplemented, and whether gRPC reports its
// request as sent (and its end as a success) depends on whether the
// answer arrives before the request is written, a race that made two
// runs' counts differ.
func uncounted(ctx context.Context) context.Context {
	return context.WithValue(ctx, uncountedKey{}, true)
}

// TagRPC implements stats.Handler: it keeps the method's counters in the
// call's context.
func (c *callCounter) TagRPC(ctx context.Context, info *stats.RPCTagInfo) context.Context {
	if !strings.HasPrefix(info.FullMethodName, protocolPrefix) || ctx.Value(uncountedKey{}) != nil {
		return ctx
	}
	name := strings.TrimPrefix(info.FullMethodName, protocolPrefix)
	c.mu.Lock()
	s := c.byName[name]
	if s == nil {
		s = &outcome.CallStats{Plugin: c.plugin, Method: name}
		c.byName[name] = s
	}
	c.mu.Unlock()
	return context.WithValue(ctx, methodKey{}, s)
}

// HandleRPC implements stats.Handler.
func (c *callCounter) HandleRPC(ctx context.Context, rs stats.RPCStats) {
	s, ok := ctx.Value(methodKey{}).(*outcome.CallStats)
	if !ok {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	switch rs := rs.(type) {
	case *stats.Begin:
		s.Calls++
	case *stats.OutPayload:
		s.Sent += int64(rs.WireLength)
		s.SentMessages++
	case *stats.InPayload:
		s.Received += int64(rs.WireLength)
	}
}

// TagConn implements stats.Handler.
func (c *callCounter) TagConn(ctx context.Context, _ *stats.ConnTagInfo) context.Context {
	return ctx
}

// HandleConn implements stats.Handler.
func (c *callCounter) HandleConn(context.Context, stats.ConnStats) {}

// snapshot returns the counters, sorted by method.
func (c *callCounter) snapshot() []outcome.CallStats {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := make([]outcome.CallStats, 0, len(c.byName))
	for _, s := range c.byName {
		out = append(out, *s)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Method < out[j].Method })
	return out
}

// counter returns the call counter of plugin name, shared by all its
// processes.
func (h *Host) counter(name string) *callCounter {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.calls == nil {
		h.calls = map[string]*callCounter{}
	}
	c := h.calls[name]
	if c == nil {
		c = newCallCounter(name)
		h.calls[name] = c
	}
	return c
}

// Calls returns the protocol calls made to the host's plugins so far,
// sorted by plugin and method: the calls of a run, for its log and
// manifest (how many uploads, fits, predictions; how many bytes).
func (h *Host) Calls() []outcome.CallStats {
	h.mu.Lock()
	counters := make([]*callCounter, 0, len(h.calls))
	for _, c := range h.calls {
		counters = append(counters, c)
	}
	h.mu.Unlock()
	sort.Slice(counters, func(i, j int) bool { return counters[i].plugin < counters[j].plugin })
	var out []outcome.CallStats
	for _, c := range counters {
		out = append(out, c.snapshot()...)
	}
	return out
}
