package engine

import (
	"context"
	"errors"
	"fmt"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

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
// call of Resolve in time, or its process ended in one, which was
// reported then.
var errHung = errors.New("the plugin did not answer an earlier call or ended in it")

// diedIn returns err, the error of call what on p, with the plugin's
// exit and the end of its stderr where its process ended in the call (a
// plugin out of memory, a crash): the connection's error alone ("plugin
// unreachable ... EOF") does not tell why. Resolve makes no further call
// to an ended plugin (they return errHung). A call that failed on a live
// plugin returns err as it is.
func (r *resolver) diedIn(p *host.Plugin, what string, err error) error {
	if status.Code(err) == codes.Unavailable {
		waitExit(p)
	}
	if !p.Exited() {
		return err
	}
	if r.hung == nil {
		r.hung = map[*host.Plugin]bool{}
	}
	r.hung[p] = true
	return withStderr(fmt.Errorf("plugin %s (%s) ended during %s (%s): %w", p.Name, p.Path, what, p.ExitReason(), err), p)
}

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
	if err == nil || r.ctx.Err() != nil {
		return err
	}
	if time.Now().Before(deadline) {
		return r.diedIn(p, what, err)
	}
	if r.hung == nil {
		r.hung = map[*host.Plugin]bool{}
	}
	r.hung[p] = true
	err = withStderr(fmt.Errorf("plugin %s (%s) did not answer %s within %v (cv.timeout, at most %v, bounds the plugin calls made before any cell runs); it was stopped", p.Name, p.Path, what, limit, DefaultResolveCallTimeout), p)
	p.Stop()
	return err
}
