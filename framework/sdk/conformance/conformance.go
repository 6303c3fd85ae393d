// Package conformance checks a learner plugin against the polyclass
// protocol through the client the host hands out (framework/internal/client;
// the suite needs none of the host's processes), whatever language the
// plugin is written in: its schema, uploads by digest (chunked, dense and
// CSR), the shapes of Fit and Predict, Release and Forget, errors for bad
// parameters, cancellation, determinism for a fixed seed, and empty and
// one-class problems. `bench plugin check PATH` runs the suite on a plugin
// binary; Test runs it in a Go plugin's own tests.
package conformance

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/polyclass/polyclass/framework/internal/client"
	"github.com/polyclass/polyclass/framework/sdk"
)

// Status is the outcome of a check.
type Status int

// Outcomes.
const (
	Pass Status = iota
	Fail
	// Skip: the check does not apply (a capability the learner lacks).
	Skip
)

// String names the outcome as the table prints it.
func (s Status) String() string {
	switch s {
	case Pass:
		return "PASS"
	case Fail:
		return "FAIL"
	}
	return "SKIP"
}

// Result is the outcome of one check.
type Result struct {
	Check  string
	Status Status
	// Detail says why a check failed or was skipped, or what it saw.
	Detail string
}

// Target is the plugin under check.
type Target struct {
	// Client is the host's handle on the plugin.
	Client *client.LearnerClient
	// Params go to every Fit, e.g. a bridge plugin's estimator.
	Params sdk.Params
	// Alive reports whether the plugin's process still runs; nil means
	// it always does (a plugin served in-process).
	Alive func() bool
	// Restart starts the plugin again after a check ended its process or
	// outlived Timeout, stopping the old process first when it still runs
	// (it may be computing still, deaf to cancellation), and returns the
	// new client; nil means the later checks fail.
	Restart func(ctx context.Context) (*client.LearnerClient, error)
	// CPUTime returns the CPU time the plugin's process has used; nil
	// means the cancellation check cannot see whether the plugin stops
	// computing, only that it still answers.
	CPUTime func() (time.Duration, error)
	// Timeout bounds each check (default DefaultTimeout): a check still
	// running then fails, and the plugin is stopped and restarted.
	Timeout time.Duration
	// Progress, when set, gets each check's result as soon as the check
	// ends, before Run returns them all.
	Progress func(Result)
}

// DefaultTimeout bounds each check when Target.Timeout is 0.
const DefaultTimeout = 2 * time.Minute

// Check is one check of the suite.
type Check struct {
	Name, Doc string
	run       func(ctx context.Context, s *session) (string, error)
}

// errSkip marks a check that does not apply; its message says why.
type errSkip string

func (e errSkip) Error() string { return string(e) }

// Checks lists the suite in the order Run runs it.
func Checks() []Check {
	return []Check{
		{"info", "Info answers: a name, a version, what it trains and predicts, a sane parameter schema whose defaults pass their own checks", checkInfoRPC},
		{"upload", "Has reports a new digest missing; a dense matrix of 3 chunks uploads and arrives intact (its rows predict as an unchunked copy does); a second Ensure does not upload; a tampered upload is refused", checkUpload},
		{"csr", "a learner that declares sparse takes a CSR upload (empty rows included) and decides every row as it does on the dense copy", checkCSR},
		{"fit-predict", "Fit answers one model per problem, 1 output for binary and regression problems, K for multiclass; Predict returns rows × outputs, finite, rows in the order asked, probabilities in [0, 1]; the blobs are learnt", checkFitPredict},
		{"release", "a released model cannot predict", checkRelease},
		{"forget", "Forget drops a dataset (Has reports it missing), and Fit on a dataset the plugin does not hold fails with FailedPrecondition, so that the host uploads it again", checkForget},
		{"bad-params", "an unknown parameter and a value of the wrong type are InvalidArgument errors that blame the parameter in their structured field (google.rpc.BadRequest field violation params.NAME)", checkBadParams},
		{"cancel", "a cancelled Fit stops: the plugin's process goes idle within seconds and answers the next call", checkCancel},
		{"deterministic", "two Fits with the same seed predict identical scores", checkDeterministic},
		{"together", "the problems of one Fit (one-vs-all on every row, one-vs-one on a subset, regression) each predict the scores they predict when trained in a Fit of their own", checkTogether},
		{"one-class", "a binary problem with one class is an error or a model with finite scores; the plugin survives", checkOneClass},
		{"empty", "a problem that uses no rows is an error, a Predict of no rows returns nothing; the plugin survives", checkEmpty},
	}
}

// session is the state a run shares between checks.
type session struct {
	t    *Target
	info sdk.LearnerInfo
	// dead is why the plugin can no longer be called: it was stopped
	// and could not be started again.
	dead error
}

func (s *session) c() *client.LearnerClient { return s.t.Client }

// Run runs every check on the target and returns one result per check.
// A check whose call ends the plugin's process fails, and the plugin is
// restarted (when the target can) for the next. A check that does not
// end within the target's limit (Target.Timeout) fails at once, and its
// plugin, which may still be computing and ignore the cancellation, is
// stopped and started again for the next: a plugin that hangs in every
// check costs about one limit per check. When the plugin cannot be
// started again, the checks left fail at once without calling it.
func Run(ctx context.Context, t *Target) []Result {
	s := &session{t: t}
	var out []Result
	for _, c := range Checks() {
		r := s.run(ctx, c)
		out = append(out, r)
		if t.Progress != nil {
			t.Progress(r)
		}
		if ctx.Err() != nil {
			break
		}
	}
	return out
}

// limit is the bound on each check: Target.Timeout, or DefaultTimeout.
func (s *session) limit() time.Duration {
	if s.t.Timeout > 0 {
		return s.t.Timeout
	}
	return DefaultTimeout
}

// run runs check c under the limit and says how it went, stopping and
// restarting the plugin when the check timed out or ended its process.
func (s *session) run(ctx context.Context, c Check) Result {
	if s.dead != nil {
		return Result{Check: c.Name, Status: Fail, Detail: "not run: " + s.dead.Error()}
	}
	cctx, cancel := context.WithTimeout(ctx, s.limit())
	detail, err := s.runCheck(cctx, c)
	// The plugin's server may see the deadline, and answer
	// DeadlineExceeded, a moment before cctx does.
	timedOut := ctx.Err() == nil && (errors.Is(cctx.Err(), context.DeadlineExceeded) || code(err) == codes.DeadlineExceeded)
	cancel()
	r := Result{Check: c.Name, Detail: detail}
	var skip errSkip
	switch {
	case timedOut:
		r.Status, r.Detail = Fail, fmt.Sprintf("did not answer within the check's limit of %s", s.limit())
		if err != nil {
			r.Detail += " (" + err.Error() + ")"
		}
		s.restartAfter(ctx, &r, "stopped and started again")
		return r
	case errors.As(err, &skip):
		r.Status, r.Detail = Skip, skip.Error()
	case err != nil:
		r.Status, r.Detail = Fail, err.Error()
	}
	if s.ended(err) {
		r.Status, r.Detail = Fail, "the plugin's process ended: "+r.Detail
		s.restartAfter(ctx, &r, "started again")
	}
	return r
}

// ended reports whether the plugin's process ended during a check that
// returned err.
func (s *session) ended(err error) bool {
	t := s.t
	if t.Alive == nil {
		return false
	}
	if code(err) == codes.Unavailable {
		// The broken connection is seen before the process's exit.
		for deadline := time.Now().Add(2 * time.Second); t.Alive() && time.Now().Before(deadline); {
			time.Sleep(20 * time.Millisecond)
		}
	}
	return !t.Alive()
}

// restartAfter starts the plugin again after the check of r (Restart
// stops the old process first), saying so in r's detail with what; when
// it cannot, the checks left are not run.
func (s *session) restartAfter(ctx context.Context, r *Result, what string) {
	if err := s.restart(ctx); err != nil {
		r.Detail += "; " + err.Error()
		s.dead = fmt.Errorf("the plugin was stopped after check %s and not started again: %w", r.Check, err)
		return
	}
	r.Detail += "; the plugin was " + what + " for the next check"
}

// runCheck runs c; the info check runs first and every other check needs
// its answer.
func (s *session) runCheck(ctx context.Context, c Check) (string, error) {
	if c.Name != "info" && s.info.Name == "" {
		info, err := s.c().Info(ctx)
		if err != nil {
			return "", fmt.Errorf("no Info: %w", err)
		}
		s.info = info
	}
	return c.run(ctx, s)
}

func (s *session) restart(ctx context.Context) error {
	if s.t.Restart == nil {
		return errors.New("cannot restart it")
	}
	c, err := s.t.Restart(ctx)
	if err != nil {
		return fmt.Errorf("restarting it: %w", err)
	}
	s.t.Client = c
	return nil
}

// WriteTable prints the results as a table, one row per check.
func WriteTable(w io.Writer, results []Result) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "check\tresult\tdetail")
	for _, r := range results {
		fmt.Fprintf(tw, "%s\t%s\t%s\n", r.Check, r.Status, strings.ReplaceAll(r.Detail, "\n", " "))
	}
	return tw.Flush()
}

// Failed counts the failed checks.
func Failed(results []Result) int {
	n := 0
	for _, r := range results {
		if r.Status == Fail {
			n++
		}
	}
	return n
}

// code is the gRPC code of a call's error.
func code(err error) codes.Code { return status.Code(err) }
