package reducer

// The reducer's hot paths on the letter grid's codes (26 classes,
// one-vs-one and one-vs-all, random ECOC codes): tests of what their
// documentation defines, and benchmarks on a letter test fold (2000 rows)
// and training fold (18000).

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

// TestBreakVoteTiesDefinition: breakVoteTies adds to each class's votes
// its confidence conf_k/(3(|conf_k| + 1)), conf_k = Σⱼ c_kj·sⱼ (less than
// half a vote, so that it only orders classes with equal votes), and
// predicts the first class of the most, on 400 rows of Gaussian scores,
// scores that tie (±0 among them) and infinite ones.
func TestBreakVoteTiesDefinition(t *testing.T) {
	for _, hm := range hotMatrices(t) {
		for _, kind := range []string{"normal", "ties", "inf"} {
			t.Run(hm.name+"/"+kind, func(t *testing.T) {
				K, L := hm.m.Dims()
				const n = 400
				s := testscores.New(kind, n, L, 3)
				votes, pred := votesOf(t, hm.m, s)
				before := mat.DenseCopyOf(votes)
				breakVoteTies(votes, pred, s, hm.m)
				for i := range n {
					best := 0
					for k := range K {
						var conf float64
						for j := range L {
							conf += float64(hm.m.At(k, j)) * s.At(i, j)
						}
						want := before.At(i, k) + conf/(3*(math.Abs(conf)+1))
						if got := votes.At(i, k); got != want && !(math.IsNaN(got) && math.IsNaN(want)) {
							t.Fatalf("row %d class %d: %v, by the definition %v", i, k, got, want)
						}
						if votes.At(i, k) > votes.At(i, best) {
							best = k
						}
					}
					if pred[i] != best {
						t.Fatalf("row %d predicted %d, the first of the most votes is %d", i, pred[i], best)
					}
				}
			})
		}
	}
}

// BenchmarkBreakVoteTies: a letter test fold (2000 rows) of one-vs-one
// scores (26 classes, 325 problems).
func BenchmarkBreakVoteTies(b *testing.B) {
	m, err := codes.OVO(26, false)
	if err != nil {
		b.Fatal(err)
	}
	_, L := m.Dims()
	s := testscores.New("normal", 2000, L, 3)
	votes, pred := votesOf(b, m, s)
	v := mat.DenseCopyOf(votes)
	p := append([]int(nil), pred...)
	b.ReportAllocs()
	for b.Loop() {
		v.Copy(votes)
		breakVoteTies(v, p, s, m)
	}
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

// TestCodePlanDefinition: the plan of a code has one Binary problem per
// column, whose target on a training row is the code's entry of the row's
// class, given compact over one slice of row groups; the code itself (in
// the state, or for ova and ovo remade from K by the state); the
// code's diagnostics and warnings (one-vs-one's opposite columns aside:
// the asymmetric scheme swaps each pair on purpose); the training scores
// for coverage decoding only, with the labels in the state; and no
// probabilities unless the decoder is argmax.
func TestCodePlanDefinition(t *testing.T) {
	scheme := map[string]string{"ovo26": "ovo", "ovo26asym": "ovo", "ova26": "ova", "ovo3": "ovo"}
	for _, hm := range hotMatrices(t) {
		for _, decode := range []string{codes.Vote, codes.Hamming, codes.Coverage, Argmax} {
			t.Run(hm.name+"/"+decode, func(t *testing.T) {
				sch := scheme[hm.name]
				if sch == "" {
					sch = "ecoc"
				}
				K, L := hm.m.Dims()
				req := hotPlanRequest(sch, hm.m, 2000)
				plan, err := codePlan(req, hm.m, decode)
				if err != nil {
					t.Fatal(err)
				}
				if len(plan.Problems) != L {
					t.Fatalf("%d problems for %d columns", len(plan.Problems), L)
				}
				groups := plan.Problems[0].Compact.Groups
				for j, p := range plan.Problems {
					if p.Kind != sdk.Binary || p.Targets != nil || p.Compact == nil || &p.Compact.Groups[0] != &groups[0] {
						t.Fatalf("problem %d: kind %v, %d dense targets, compact %v; want Binary, compact over one groups slice", j, p.Kind, len(p.Targets), p.Compact)
					}
					for i, y := range p.Dense().Targets {
						if want := float64(hm.m.At(req.Labels[i], j)); y != want {
							t.Fatalf("problem %d row %d (class %d): target %v, code %v", j, i, req.Labels[i], y, want)
						}
					}
				}
				if plan.Code == nil || plan.Code.Rows != K || plan.Code.Cols != L || !reflect.DeepEqual(plan.Code.Entries, hm.m.Entries()) {
					t.Errorf("plan's code %+v, want the %d×%d code", plan.Code, K, L)
				}
				d := codes.Diagnose(hm.m)
				want := sdk.CodeDiagnostics{Classes: d.K, Columns: d.L, MinDistance: d.MinDistance, MeanDistance: d.MeanDistance, Correcting: d.Correcting}
				if plan.Diagnostics == nil || *plan.Diagnostics != want {
					t.Errorf("diagnostics %+v, want %+v", plan.Diagnostics, want)
				}
				if sch == "ovo" {
					d.ComplementaryColumns = nil
				}
				if w := d.Warnings(req.ClassNames); !reflect.DeepEqual(plan.Warnings, w) {
					t.Errorf("warnings %q, want %q", plan.Warnings, w)
				}
				var st state
				if err := json.Unmarshal(plan.State, &st); err != nil {
					t.Fatal(err)
				}
				coverage := decode == codes.Coverage
				if plan.NeedsTrainingScores != coverage || (st.Labels != nil) != coverage || plan.IgnoresProbabilities != (decode != Argmax) {
					t.Errorf("training scores %v, labels in the state %v, ignores probabilities %v", plan.NeedsTrainingScores, st.Labels != nil, plan.IgnoresProbabilities)
				}
				if st.K != K || st.L != L || st.OVO != (sch == "ovo") || st.OVA != (sch == "ova") {
					t.Errorf("state K %d L %d OVA %v OVO %v, want %d %d %v %v", st.K, st.L, st.OVA, st.OVO, K, L, sch == "ova", sch == "ovo")
				}
				// ova's and ovo's codes follow from K and are made again
				// in Decode; any other code is carried whole.
				if carried := st.Code != nil; carried != (sch == "ecoc") {
					t.Errorf("state carries the code: %v, want %v", carried, sch == "ecoc")
				}
				if sm, err := st.matrix(); err != nil || !reflect.DeepEqual(sm.Entries(), hm.m.Entries()) {
					t.Errorf("the state's code differs from the plan's (%v)", err)
				}
			})
		}
	}
}

// BenchmarkCodePlan: the one-vs-one plan of a letter training fold (18000
// rows, 26 classes, 325 problems), in compact targets (see BenchmarkPlanRPC
// for the plan on its way to the host).
func BenchmarkCodePlan(b *testing.B) {
	m, err := codes.OVO(26, false)
	if err != nil {
		b.Fatal(err)
	}
	req := hotPlanRequest("ovo", m, 18000)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := codePlan(req, m, codes.Vote); err != nil {
			b.Fatal(err)
		}
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
