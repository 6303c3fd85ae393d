package sdk_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/polyclass/polyclass/framework/host"
	"github.com/polyclass/polyclass/framework/matrix"
	"github.com/polyclass/polyclass/framework/sdk"
)

// hugeErrLearner is meanLearner whose Fit fails with an error of n bytes
// ("é" repeated, so that a cut may fall inside a character) when the
// solver is "b", blaming the parameter when blame is set.
type hugeErrLearner struct {
	meanLearner
	n     int
	blame bool
}

func (l *hugeErrLearner) Fit(ctx context.Context, in sdk.FitInput, p sdk.Params) (sdk.Model, error) {
	if p.Str("solver") == "b" {
		err := errors.New(strings.Repeat("é", l.n/2))
		if l.blame {
			return nil, sdk.WithParam("solver", err)
		}
		return nil, err
	}
	return l.meanLearner.Fit(ctx, in, p)
}

// TestHugeFitErrorIsBounded: a plugin's Fit error of 50 MiB reaches the
// host as the plugin's error, its first 4 KiB then "… (N bytes more)",
// and the connection stays usable (only that fit fails). On the code
// before, gRPC sent the whole message in the call's trailers, which the
// host's transport refuses over 16 MiB: the connection broke and the host
// said "plugin unreachable (its process may have ended): error reading
// from server: EOF".
func TestHugeFitErrorIsBounded(t *testing.T) {
	ctx := context.Background()
	const huge = 50 << 20
	tests := []struct {
		name  string
		n     int
		blame bool
		want  string // the error's start, before the é's
		more  int    // the bytes said to be left out; 0: the whole message
	}{
		// The plugin's message is "fit: problem 0: " (16 bytes) and the
		// é's; it is cut after its first 4056 bytes (4 KiB less 40 for the
		// note of what is left out), which the host prints after "fit: ".
		{"50 MiB", huge, false, "fit: problem 0: ", 16 + huge - 4056},
		{"50 MiB blaming a parameter", huge, true, "fit: problem 0: ", 16 + huge - 4056},
		{"one byte over the bound", 4096 - 16 + 2, false, "fit: problem 0: ", 16 + 4096 - 16 + 2 - 4056},
		{"at the bound", 4096 - 16, false, "fit: problem 0: ", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			lc := connect(t, &hugeErrLearner{n: tt.n, blame: tt.blame})
			enc := matrix.EncodeMatrix(sdk.Matrix{Dense: mat.NewDense(2, 2, []float64{1, 2, 3, 4})})
			if _, err := lc.Ensure(ctx, enc); err != nil {
				t.Fatal(err)
			}
			problems := []sdk.Problem{{Kind: sdk.Regression, Targets: []float64{1, 2}}}
			_, err := lc.Fit(ctx, enc.Digest, []int{0, 1}, sdk.Params{"solver": sdk.String("b")}, problems, 0)
			if err == nil {
				t.Fatal("Fit: no error")
			}
			msg := err.Error()
			body := strings.TrimPrefix(msg, tt.want)
			suffix := ""
			if tt.more > 0 {
				suffix = fmt.Sprintf("… (%d bytes more)", tt.more)
			}
			if !strings.HasPrefix(msg, tt.want) || !strings.HasSuffix(body, suffix) ||
				strings.Trim(strings.TrimSuffix(body, suffix), "é") != "" || len(msg) > 4096+len(tt.want) {
				t.Errorf("Fit error (%d bytes): %.120q … %q\nwant %q, é's, then %q", len(msg), msg, msg[max(0, len(msg)-60):], tt.want, suffix)
			}
			if tt.blame && len(host.FaultParams(err)) != 1 {
				t.Errorf("FaultParams(%.80q) = %v, want [solver]", msg, host.FaultParams(err))
			}
			if _, err := lc.Fit(ctx, enc.Digest, []int{0, 1}, sdk.Params{"solver": sdk.String("a")}, problems, 0); err != nil {
				t.Errorf("the next Fit on the same connection: %v", err)
			}
		})
	}
}
