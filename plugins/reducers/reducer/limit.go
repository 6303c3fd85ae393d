package reducer

import (
	"fmt"
	"strconv"

	"github.com/polyclass/polyclass/framework/sdk"
	"github.com/polyclass/polyclass/plugins/reducers/codes"
)

// MaxProblems bounds the binary problems of a code plan, and
// MaxCodeEntries its K × L code matrix: Plan refuses a scheme whose code
// is larger, before it makes the matrix. A plan carries its code matrix
// to the host in one message of at most 256 MiB, each −1 entry in 10
// bytes (a negative int32) and each problem's column again: one-vs-all
// on 5,000 classes (25,000,000 entries) makes a 275 MB message, one-vs-one
// on 3,000 classes (4,498,500 problems, 13.5 G entries) ran the plugin
// out of memory. 16,000,000 entries of 11 bytes each, with the state's
// copy of the code, fit in the message; the host then fits every problem
// on every fold.
const (
	MaxProblems    = 100_000
	MaxCodeEntries = 16_000_000
)

// checkProblems refuses a request whose scheme's code would have more
// than MaxProblems columns or MaxCodeEntries entries, counted from K and
// the parameters alone; a user matrix is counted by its first row (Plan
// checks its made matrix again).
func checkProblems(req sdk.PlanRequest) error {
	return checkSize(req, plannedProblems(req))
}

// plannedProblems is the number of columns of the request's code, 0
// where the parameters leave it to the matrix (or make it invalid, which
// matrixFor reports).
func plannedProblems(req sdk.PlanRequest) int {
	K, p := req.NumClasses, req.Params
	switch req.Scheme {
	case OVA:
		return K
	case Ordered:
		return K - 1
	case OVO:
		if p.Bool("asymmetric") {
			return K * (K - 1)
		}
		return K * (K - 1) / 2
	case ECOC:
		if rows := p.Matrix("matrix"); len(rows) > 0 {
			return len(rows[0])
		}
		switch code := p.Str("code"); code {
		case codeRandomDense, codeRandomSparse:
			// Beyond the distinct columns there are, the random code's own
			// error says so.
			limit := codes.MaxSparseColumns(K)
			if code == codeRandomDense {
				limit = codes.MaxDenseColumns(K)
			}
			if L := randomLength(req, code); limit == 0 || L <= limit {
				return L
			}
		case codeExhaustive:
			if K >= 2 && K <= codes.MaxExhaustiveClasses {
				return 1<<(K-1) - 1
			}
		}
	}
	return 0
}

// checkSize is Plan's error for a code of L columns over the request's
// K classes beyond MaxProblems or MaxCodeEntries, naming the scheme, the
// classes, the size and what to use instead; nil within both.
func checkSize(req sdk.PlanRequest, L int) error {
	K := req.NumClasses
	var err error
	switch {
	case L > MaxProblems:
		err = fmt.Errorf("%s on %s classes makes %s binary problems, more than the limit of %s; %s",
			req.Scheme, grouped(K), grouped(L), grouped(MaxProblems), smallerCode(K))
	case K*L > MaxCodeEntries:
		err = fmt.Errorf("%s on %s classes makes a %s × %s code matrix (%s entries), more than the %s entries a plan may carry; %s",
			req.Scheme, grouped(K), grouped(K), grouped(L), grouped(K*L), grouped(MaxCodeEntries), smallerCode(K))
	default:
		return nil
	}
	switch {
	case req.Scheme == ECOC && req.Params.Matrix("matrix") != nil:
		return sdk.WithParam("matrix", err)
	case req.Scheme == ECOC && req.Params.Int("length") != 0:
		return sdk.WithParam("length", err)
	}
	return err
}

// smallerCode says which codes of K classes fit the limits: one-vs-all
// where its K × K matrix does, and a random dense ECOC code of the
// default length.
func smallerCode(K int) string {
	ecoc := fmt.Sprintf("an ECOC code (ecoc with code = %q: %s problems)", codeRandomDense, grouped(codes.DefaultDenseLength(K)))
	if K*K > MaxCodeEntries {
		return "use " + ecoc
	}
	return fmt.Sprintf("use ova (%s problems) or %s", grouped(K), ecoc)
}

// grouped writes n with its digits in groups of three: 4,498,500.
func grouped(n int) string {
	s := strconv.Itoa(n)
	neg := ""
	if n < 0 {
		neg, s = "-", s[1:]
	}
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return neg + s
}
