package engine

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/polyclass/polyclass/framework/host"
)

// DefaultResolveCallTimeout bounds each call Resolve makes to a started
// plugin before any cell runs (a learner's CheckParams, a reducer's Plan
// in the dry runs), unless the experiment's cv.timeout is shorter: a
// plugin stuck in one of them made bench validate and bench run wait
// forever. A plugin's start and its Info answers have their own bound
// (host.StartTimeout).
const DefaultResolveCallTimeout = 2 * time.Minute

// callTimeout returns the bound of one of Resolve's plugin calls: the
// experiment's cv.timeout when it is set and shorter than
// DefaultResolveCallTimeout, else DefaultResolveCallTimeout.
func (r *resolver) callTimeout() time.Duration {
	if t := time.Duration(r.exp.CV.Timeout * float64(time.Second)); t > 0 && t < DefaultResolveCallTimeout {
		return t
	}
	return DefaultResolveCallTimeout
}

// errHung reports a call not made: the plugin did not answer an earlier
// call of Resolve in time, which was reported then.
var errHung = errors.New("the plugin did not answer an earlier call")

// pluginCall runs call (what names it) on plugin p with a context that
// ends after callTimeout. A call that is still unanswered then returns an
// error naming the plugin, the call and the bound, with the plugin's
// stderr; the plugin is stopped and Resolve makes no further call to it
// (they return errHung). An interrupted Resolve (r.ctx done) returns the
// call's own error.
func (r *resolver) pluginCall(p *host.Plugin, what string, call func(ctx context.Context) error) error {
	if r.hung[p] {
		return errHung
	}
	limit := r.callTimeout()
	ctx, cancel := context.WithTimeout(r.ctx, limit)
	defer cancel()
	err := call(ctx)
	// The deadline, not ctx.Err(): the plugin's side may end the call at
	// the deadline (gRPC's timeout header) before ctx's timer has run.
	deadline, _ := ctx.Deadline()
	if err == nil || r.ctx.Err() != nil || time.Now().Before(deadline) {
		return err
	}
	if r.hung == nil {
		r.hung = map[*host.Plugin]bool{}
	}
	r.hung[p] = true
	err = withStderr(fmt.Errorf("plugin %s (%s) did not answer %s within %v (cv.timeout, at most %v, bounds the plugin calls made before any cell runs); it was stopped", p.Name, p.Path, what, limit, DefaultResolveCallTimeout), p)
	p.Stop()
	return err
}
