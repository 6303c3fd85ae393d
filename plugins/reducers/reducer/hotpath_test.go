package reducer

// Reference implementations of the reducer's hot paths as they were before
// their optimisation, the tests that hold the optimised code to them bit
// for bit (math.Float64bits) on inputs shaped like the letter grid's (26
// classes, one-vs-one and one-vs-all, random ECOC codes, a test fold of
// 2000 rows, a training fold of 18000), and benchmarks of both.

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/polyclass/polyclass/framework/sdk"
	"github.com/polyclass/polyclass/framework/sdk/conformance"
	"github.com/polyclass/polyclass/plugins/reducers/codes"
	"github.com/polyclass/polyclass/plugins/reducers/internal/testscores"
)

// refBreakVoteTies is breakVoteTies before its optimisation: every entry of
// the code matrix through At, for every row.
func refBreakVoteTies(votes *mat.Dense, pred []int, s *mat.Dense, m *codes.Matrix) {
	K, L := m.Dims()
	n, _ := s.Dims()
	conf := make([]float64, K)
	for i := 0; i < n; i++ {
		for k := range conf {
			conf[k] = 0
		}
		row := s.RawRowView(i)
		for j := 0; j < L; j++ {
			for k := 0; k < K; k++ {
				conf[k] += float64(m.At(k, j)) * row[j]
			}
		}
		v := votes.RawRowView(i)
		best := 0
		for k := range v {
			v[k] += conf[k] / (3 * (math.Abs(conf[k]) + 1))
			if v[k] > v[best] {
				best = k
			}
		}
		pred[i] = best
	}
}

// hotMatrix is a named code matrix of the hot-path tests.
type hotMatrix struct {
	name string
	m    *codes.Matrix
}

// hotMatrices returns the code matrices of the letter grid (26 classes:
// one-vs-one, asymmetric one-vs-one, one-vs-all), random dense and sparse
// ECOC codes of 26 classes and a small one-vs-one.
func hotMatrices(t testing.TB) []hotMatrix {
	t.Helper()
	var out []hotMatrix
	add := func(name string, m *codes.Matrix, err error) {
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		out = append(out, hotMatrix{name, m})
	}
	m, err := codes.OVO(26, false)
	add("ovo26", m, err)
	m, err = codes.OVO(26, true)
	add("ovo26asym", m, err)
	m, err = codes.OVA(26)
	add("ova26", m, err)
	m, err = codes.RandomDense(26, codes.DefaultDenseLength(26), 1)
	add("dense26", m, err)
	m, err = codes.RandomSparse(26, codes.DefaultSparseLength(26), 2)
	add("sparse26", m, err)
	m, err = codes.OVO(3, false)
	add("ovo3", m, err)
	return out
}

// hotLabels returns n labels in 0..K−1, every class present.
func hotLabels(n, K int, seed uint64) []int {
	rng := rand.New(rand.NewPCG(seed, 11))
	y := make([]int, n)
	for i := range y {
		if i < K {
			y[i] = i
		} else {
			y[i] = rng.IntN(K)
		}
	}
	return y
}

// votesOf returns the vote counts and predictions of scores under m.
func votesOf(t testing.TB, m *codes.Matrix, s *mat.Dense) (*mat.Dense, []int) {
	t.Helper()
	dec, err := codes.NewDecoder(codes.Vote, m, nil)
	if err != nil {
		t.Fatal(err)
	}
	votes := &mat.Dense{}
	pred, _, err := codes.DecodeAll(dec, votes, s)
	if err != nil {
		t.Fatal(err)
	}
	return votes, pred
}

func TestBreakVoteTiesMatchesReference(t *testing.T) {
	for _, hm := range hotMatrices(t) {
		for _, kind := range []string{"normal", "ties", "inf"} {
			t.Run(hm.name+"/"+kind, func(t *testing.T) {
				_, L := hm.m.Dims()
				s := testscores.New(kind, 2000, L, 3)
				votes, pred := votesOf(t, hm.m, s)
				wantVotes, wantPred := mat.DenseCopyOf(votes), append([]int(nil), pred...)
				refBreakVoteTies(wantVotes, wantPred, s, hm.m)
				breakVoteTies(votes, pred, s, hm.m)
				if i, ok := testscores.SameBits(votes.RawMatrix().Data, wantVotes.RawMatrix().Data); !ok {
					t.Fatalf("vote entry %d: %v, reference %v", i, votes.RawMatrix().Data[i], wantVotes.RawMatrix().Data[i])
				}
				for i := range pred {
					if pred[i] != wantPred[i] {
						t.Fatalf("row %d predicted %d, reference %d", i, pred[i], wantPred[i])
					}
				}
			})
		}
	}
}

// BenchmarkBreakVoteTies: a letter test fold (2000 rows) of one-vs-one
// scores (26 classes, 325 problems), the reference and the optimised code.
func BenchmarkBreakVoteTies(b *testing.B) {
	m, err := codes.OVO(26, false)
	if err != nil {
		b.Fatal(err)
	}
	_, L := m.Dims()
	s := testscores.New("normal", 2000, L, 3)
	votes, pred := votesOf(b, m, s)
	for _, impl := range []struct {
		name string
		f    func(*mat.Dense, []int, *mat.Dense, *codes.Matrix)
	}{{"reference", refBreakVoteTies}, {"optimised", breakVoteTies}} {
		b.Run(impl.name, func(b *testing.B) {
			v := mat.DenseCopyOf(votes)
			p := append([]int(nil), pred...)
			b.ReportAllocs()
			for b.Loop() {
				v.Copy(votes)
				impl.f(v, p, s, m)
			}
		})
	}
}

// refCodePlan is codePlan before its optimisation: every target through
// Matrix.At.
func refCodePlan(req sdk.PlanRequest, m *codes.Matrix, decode string) (sdk.Plan, error) {
	K, L := m.Dims()
	problems := make([]sdk.Problem, L)
	for j := range problems {
		t := make([]float64, len(req.Labels))
		for i, y := range req.Labels {
			t[i] = float64(m.At(y, j))
		}
		problems[j] = sdk.Problem{Kind: sdk.Binary, Targets: t}
	}
	st := state{K: K, L: L, Code: m.Entries(), OVO: req.Scheme == "ovo"}
	plan := sdk.Plan{Problems: problems, Code: &sdk.CodeMatrix{Rows: K, Cols: L, Entries: m.Entries()},
		IgnoresProbabilities: decode != Argmax}
	if decode == codes.Coverage {
		st.Labels = req.Labels
		plan.NeedsTrainingScores = true
	}
	var err error
	if plan.State, err = json.Marshal(st); err != nil {
		return sdk.Plan{}, err
	}
	d := codes.Diagnose(m)
	plan.Diagnostics = &sdk.CodeDiagnostics{Classes: d.K, Columns: d.L, MinDistance: d.MinDistance,
		MeanDistance: d.MeanDistance, Correcting: d.Correcting}
	if req.Scheme == "ovo" {
		d.ComplementaryColumns = nil // asymmetric one-vs-one swaps each pair on purpose
	}
	plan.Warnings = d.Warnings(req.ClassNames)
	return plan, nil
}

// hotPlanRequest is the plan request of a training fold of n rows over the
// classes of m.
func hotPlanRequest(scheme string, m *codes.Matrix, n int) sdk.PlanRequest {
	K, _ := m.Dims()
	names := make([]string, K)
	for k := range names {
		names[k] = fmt.Sprintf("c%d", k)
	}
	return sdk.PlanRequest{Scheme: scheme, NumClasses: K, Labels: hotLabels(n, K, 5), ClassNames: names}
}

func TestCodePlanMatchesReference(t *testing.T) {
	scheme := map[string]string{"ovo26": "ovo", "ovo26asym": "ovo", "ova26": "ova", "ovo3": "ovo"}
	for _, hm := range hotMatrices(t) {
		for _, decode := range []string{codes.Vote, codes.Hamming, codes.Coverage} {
			t.Run(hm.name+"/"+decode, func(t *testing.T) {
				sch := scheme[hm.name]
				if sch == "" {
					sch = "ecoc"
				}
				req := hotPlanRequest(sch, hm.m, 18000)
				want, err := refCodePlan(req, hm.m, decode)
				if err != nil {
					t.Fatal(err)
				}
				got, err := codePlan(req, hm.m, decode)
				if err != nil {
					t.Fatal(err)
				}
				if len(got.Problems) != len(want.Problems) {
					t.Fatalf("%d problems, reference %d", len(got.Problems), len(want.Problems))
				}
				groups := got.Problems[0].Compact.Groups
				for j, p := range got.Problems {
					if p.Targets != nil || p.Compact == nil || &p.Compact.Groups[0] != &groups[0] {
						t.Fatalf("problem %d has %d dense targets, compact %v; codePlan gives compact ones over one groups slice", j, len(p.Targets), p.Compact)
					}
					if i, ok := testscores.SameBits(p.Dense().Targets, want.Problems[j].Targets); !ok {
						t.Fatalf("problem %d target %d differs from the reference", j, i)
					}
					got.Problems[j] = p.Dense()
				}
				if !reflect.DeepEqual(got, want) {
					t.Errorf("plan (targets aside) differs from the reference: state %s, reference %s; diagnostics %+v, reference %+v; warnings %q, reference %q",
						got.State, want.State, got.Diagnostics, want.Diagnostics, got.Warnings, want.Warnings)
				}
			})
		}
	}
}

// BenchmarkCodePlan: the one-vs-one plan of a letter training fold (18000
// rows, 26 classes, 325 problems), the reference and the optimised code;
// the optimised plan gives compact targets (see BenchmarkPlanRPC for the
// plan on its way to the host).
func BenchmarkCodePlan(b *testing.B) {
	m, err := codes.OVO(26, false)
	if err != nil {
		b.Fatal(err)
	}
	req := hotPlanRequest("ovo", m, 18000)
	for _, impl := range []struct {
		name string
		f    func(sdk.PlanRequest, *codes.Matrix, string) (sdk.Plan, error)
	}{{"reference", refCodePlan}, {"optimised", codePlan}} {
		b.Run(impl.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := impl.f(req, m, codes.Vote); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// denseTargets is the reducer with every plan's targets made dense in the
// reducer, as codePlan made them before it gave compact ones.
type denseTargets struct{ *Reducer }

func (r denseTargets) Plan(ctx context.Context, req sdk.PlanRequest) (sdk.Plan, error) {
	plan, err := r.Reducer.Plan(ctx, req)
	for j := range plan.Problems {
		plan.Problems[j] = plan.Problems[j].Dense()
	}
	return plan, err
}

// BenchmarkPlanRPC: the one-vs-one plan of a letter training fold (18000
// rows, 26 classes, 325 problems) through the SDK's server and the host's
// client over an in-memory gRPC connection, with the targets made in the
// reducer (dense-targets, then put in compact form by the server) or
// compact (code-targets, sent as they are: the rows' labels and one code
// column per problem). The host reads both as the same compact targets.
func BenchmarkPlanRPC(b *testing.B) {
	m, err := codes.OVO(26, false)
	if err != nil {
		b.Fatal(err)
	}
	req := hotPlanRequest("ovo", m, 18000)
	req.Params = withDefaults("ovo", nil)
	for _, impl := range []struct {
		name string
		r    sdk.Reducer
	}{{"dense-targets", denseTargets{New()}}, {"code-targets", New()}} {
		b.Run(impl.name, func(b *testing.B) {
			c := conformance.ConnectReducer(b, impl.r)
			b.ReportAllocs()
			for b.Loop() {
				if _, err := c.Plan(context.Background(), req); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
