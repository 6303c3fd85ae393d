package reducer

import (
	"context"
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/polyclass/polyclass/framework/host"
	"github.com/polyclass/polyclass/framework/sdk"
	"github.com/polyclass/polyclass/framework/sdk/conformance"
)

// connect serves the reducer in-process over gRPC (the SDK's Serve on an
// in-memory connection) so that every test goes through the protocol.
func connect(t *testing.T) *host.ReducerClient {
	t.Helper()
	return conformance.ConnectReducer(t, New())
}

func TestPlanProblems(t *testing.T) {
	c := connect(t)
	ctx := context.Background()
	labels := []int{0, 1, 2, 1}
	tests := []struct {
		scheme string
		params sdk.Params
		// want[j] are the targets of problem j.
		want [][]float64
	}{
		{"ova", nil, [][]float64{{1, -1, -1, -1}, {-1, 1, -1, 1}, {-1, -1, 1, -1}}},
		{"ovo", nil, [][]float64{{1, -1, 0, -1}, {1, 0, -1, 0}, {0, 1, -1, 1}}},
		// Frequency order: class 1 (2 rows) first, then 0, then 2.
		{"ordered", nil, [][]float64{{-1, 1, -1, 1}, {1, 0, -1, 0}}},
		{"ordered", sdk.Params{"order": sdk.List(sdk.String("c"), sdk.String("a"), sdk.String("b"))}, [][]float64{{-1, -1, 1, -1}, {1, -1, 0, -1}}},
		{"ecoc", sdk.Params{
			"matrix":  sdk.List(sdk.List(sdk.Number(1), sdk.Number(1)), sdk.List(sdk.Number(-1), sdk.Number(0)), sdk.List(sdk.Number(0), sdk.Number(-1))),
			"classes": sdk.List(sdk.String("b"), sdk.String("a"), sdk.String("c")),
		}, [][]float64{{-1, 1, 0, 1}, {0, 1, -1, 1}}},
	}
	for _, tt := range tests {
		t.Run(tt.scheme, func(t *testing.T) {
			plan, err := c.Plan(ctx, sdk.PlanRequest{Scheme: tt.scheme, Params: tt.params, NumClasses: 3, Labels: labels, ClassNames: []string{"a", "b", "c"}, Seed: 1})
			if err != nil {
				t.Fatal(err)
			}
			if len(plan.Problems) != len(tt.want) {
				t.Fatalf("%d problems, want %d", len(plan.Problems), len(tt.want))
			}
			for j, p := range plan.Problems {
				for i, w := range tt.want[j] {
					if p.Target(i) != w || p.Kind != sdk.Binary {
						t.Fatalf("problem %d targets %v, want %v", j, p.Dense().Targets, tt.want[j])
					}
				}
			}
			if plan.Code == nil || plan.Diagnostics == nil || plan.Diagnostics.Columns != len(tt.want) {
				t.Fatalf("code %v diagnostics %v", plan.Code, plan.Diagnostics)
			}
		})
	}
}

func TestPlanErrors(t *testing.T) {
	c := connect(t)
	ctx := context.Background()
	m := matrixValue
	tests := []struct {
		name   string
		scheme string
		params sdk.Params
		want   string
	}{
		{"identical rows", "ecoc", sdk.Params{"matrix": m([]float64{1, -1}, []float64{1, -1}, []float64{-1, 1})}, "rows 0 and 1 are identical"},
		{"bad value", "ecoc", sdk.Params{"matrix": m([]float64{1, 2}, []float64{-1, 1}, []float64{-1, -1})}, "entry [0][1] = 2"},
		{"wrong rows", "ecoc", sdk.Params{"matrix": m([]float64{1, -1}, []float64{-1, 1})}, "2 rows"},
		{"no code", "ecoc", nil, "needs matrix"},
		// A matrix's problems and its classes' come in one error (one
		// pass of validate), each blaming its parameter; before, a
		// misspelt class showed only once the matrix was right.
		{"bad value and unknown class", "ecoc", sdk.Params{"matrix": m([]float64{1, 2}, []float64{-1, 1}, []float64{-1, -1}),
			"classes": sdk.List(sdk.String("a"), sdk.String("bb"), sdk.String("c"))},
			`code matrix entry [0][1] = 2: entries must be -1, 0 or +1; classes[1] = "bb" is not a class of the data (a, b, c)`},
		{"unknown class beside a right matrix", "ecoc", sdk.Params{"matrix": m([]float64{1, -1}, []float64{-1, 1}, []float64{-1, -1}),
			"classes": sdk.List(sdk.String("a"), sdk.String("b"), sdk.String("z"))}, `classes[2] = "z" is not a class of the data`},
		{"unknown class", "ordered", sdk.Params{"order": sdk.List(sdk.String("a"), sdk.String("b"), sdk.String("z"))}, `order[2] = "z" is not a class`},
		{"a class twice", "ordered", sdk.Params{"order": sdk.List(sdk.String("a"), sdk.String("b"), sdk.String("a"))}, `order names class "a" twice`},
		{"argmax with ovo", "ovo", sdk.Params{"decode": sdk.String("argmax")}, `decode = "argmax" is not one of "hamming", "vote"`},
		{"unknown decoder", "ova", sdk.Params{"decode": sdk.String("psychic")}, `decode = "psychic" is not one of`},
		{"unknown scheme", "bogus", nil, `unknown scheme "bogus"`},
		{"dag with ova", "ova", sdk.Params{"decode": sdk.String("dag")}, `decode = "dag" is not one of`},
		{"LIBSVM's ties without vote", "ovo", sdk.Params{"decode": sdk.String("hamming"), "ties": sdk.String("libsvm")}, `ties = "libsvm" applies to decode = vote`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := c.Plan(ctx, sdk.PlanRequest{Scheme: tt.scheme, Params: tt.params, NumClasses: 3, Labels: []int{0, 1, 2}, ClassNames: []string{"a", "b", "c"}})
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("error %v, want it to contain %q", err, tt.want)
			}
		})
	}
}

// TestDecodeWorkedExamples runs the lecture's one-vs-one example through the
// plugin: scores s = (+5, −0.5, +4, −0.5, +4, +0.5) on the 4-class OvO code;
// zero-one loss decoding picks class 3, exp-loss decoding class 1, and votes
// are (2, 1, 3, 0).
func TestDecodeWorkedExamples(t *testing.T) {
	c := connect(t)
	ctx := context.Background()
	s := mat.NewDense(1, 6, []float64{5, -0.5, 4, -0.5, 4, 0.5})
	for _, tt := range []struct {
		decode string
		want   int
	}{{"loss:zero_one", 2}, {"loss:exp", 0}, {"vote", 2}, {"hamming", 2}} {
		t.Run(tt.decode, func(t *testing.T) {
			params := sdk.Params{"decode": sdk.String(tt.decode)}
			plan, err := c.Plan(ctx, sdk.PlanRequest{Scheme: "ovo", Params: params, NumClasses: 4, Labels: []int{0, 1, 2, 3}})
			if err != nil {
				t.Fatal(err)
			}
			d, err := c.Decode(ctx, sdk.DecodeRequest{Scheme: "ovo", Params: params, State: plan.State, Scores: s})
			if err != nil {
				t.Fatal(err)
			}
			if d.Predicted[0] != tt.want {
				t.Fatalf("predicted class %d, want %d (class scores %v)", d.Predicted[0]+1, tt.want+1, d.ClassScores.RawRowView(0))
			}
			var sum float64
			for _, p := range d.ClassScores.RawRowView(0) {
				sum += p
			}
			if math.Abs(sum-1) > 1e-12 {
				t.Fatalf("class probabilities sum to %v", sum)
			}
		})
	}
}

// TestOVOVoteTieBreak: three classes, each winning one duel, tie on votes;
// the confidence term (as scikit-learn's) gives the class with the most
// confident wins.
func TestOVOVoteTieBreak(t *testing.T) {
	c := connect(t)
	ctx := context.Background()
	plan, err := c.Plan(ctx, sdk.PlanRequest{Scheme: "ovo", NumClasses: 3, Labels: []int{0, 1, 2}})
	if err != nil {
		t.Fatal(err)
	}
	// Columns 1v2, 1v3, 2v3: class 1 beats 2 (+0.1), 3 beats 1 (−0.2), 2 beats 3 (+3).
	s := mat.NewDense(1, 3, []float64{0.1, -0.2, 3})
	d, err := c.Decode(ctx, sdk.DecodeRequest{Scheme: "ovo", Params: sdk.Params{"decode": sdk.String("vote")}, State: plan.State, Scores: s})
	if err != nil {
		t.Fatal(err)
	}
	// conf = (0.1−0.2, −0.1+3, 0.2−3) = (−0.1, 2.9, −2.8): class 2 wins.
	if d.Predicted[0] != 1 || d.Ties != 1 {
		t.Fatalf("predicted %d ties %d, want class 2 and 1 tie", d.Predicted[0]+1, d.Ties)
	}
}

// TestOVOLibsvmTies: the same three-way tie under ties = libsvm goes to
// the class seen first in the training rows (class 3 here), not to the
// most confident.
func TestOVOLibsvmTies(t *testing.T) {
	c := connect(t)
	ctx := context.Background()
	params := sdk.Params{"ties": sdk.String("libsvm")}
	plan, err := c.Plan(ctx, sdk.PlanRequest{Scheme: "ovo", Params: params, NumClasses: 3, Labels: []int{2, 0, 1, 2}})
	if err != nil {
		t.Fatal(err)
	}
	s := mat.NewDense(2, 3, []float64{0.1, -0.2, 3, 1, 1, -1})
	d, err := c.Decode(ctx, sdk.DecodeRequest{Scheme: "ovo", Params: params, State: plan.State, Scores: s})
	if err != nil {
		t.Fatal(err)
	}
	// Row 2: 1 beats 2 and 3, 3 beats 2: class 1, no tie.
	if !slices.Equal(d.Predicted, []int{2, 0}) || d.Ties != 1 {
		t.Fatalf("predicted %v ties %d, want classes 3 and 1 and 1 tie", d.Predicted, d.Ties)
	}
}

// TestOVODAG decodes by DAGSVM: 1 vs 3 (3 leaves), 1 vs 2 (1 leaves): 2.
func TestOVODAG(t *testing.T) {
	c := connect(t)
	ctx := context.Background()
	params := sdk.Params{"decode": sdk.String("dag")}
	plan, err := c.Plan(ctx, sdk.PlanRequest{Scheme: "ovo", Params: params, NumClasses: 3, Labels: []int{0, 1, 2}})
	if err != nil {
		t.Fatal(err)
	}
	s := mat.NewDense(1, 3, []float64{-0.1, 0.2, 3})
	d, err := c.Decode(ctx, sdk.DecodeRequest{Scheme: "ovo", Params: params, State: plan.State, Scores: s})
	if err != nil {
		t.Fatal(err)
	}
	if d.Predicted[0] != 1 || d.Ties != 0 {
		t.Fatalf("predicted %d ties %d, want class 2 and no tie", d.Predicted[0]+1, d.Ties)
	}
}

func TestCoverageDecodingUsesTrainingScores(t *testing.T) {
	c := connect(t)
	ctx := context.Background()
	labels := []int{0, 0, 1, 1, 2, 2}
	params := sdk.Params{"decode": sdk.String("coverage")}
	plan, err := c.Plan(ctx, sdk.PlanRequest{Scheme: "ova", Params: params, NumClasses: 3, Labels: labels})
	if err != nil {
		t.Fatal(err)
	}
	if !plan.NeedsTrainingScores {
		t.Fatal("coverage decoding must ask for training scores")
	}
	// Classifier 0 fires on both class-0 rows and one class-1 row.
	train := mat.NewDense(6, 3, []float64{
		1, -1, -1,
		1, -1, -1,
		1, 1, -1,
		-1, 1, -1,
		-1, -1, 1,
		-1, -1, 1,
	})
	test := mat.NewDense(1, 3, []float64{1, 1, -1})
	d, err := c.Decode(ctx, sdk.DecodeRequest{Scheme: "ova", Params: params, State: plan.State, Scores: test, TrainingScores: train})
	if err != nil {
		t.Fatal(err)
	}
	// Counts: classifier 0 covers (2,1,0), classifier 1 covers (0,2,0):
	// the test row scores (2, 3, 0) → class 2.
	if d.Predicted[0] != 1 {
		t.Fatalf("predicted %d, want class 2", d.Predicted[0]+1)
	}
}

func TestNativeAndArgmax(t *testing.T) {
	c := connect(t)
	ctx := context.Background()
	plan, err := c.Plan(ctx, sdk.PlanRequest{Scheme: "none", NumClasses: 3, Labels: []int{2, 0, 1}})
	if err != nil {
		t.Fatal(err)
	}
	if p := plan.Problems; len(p) != 1 || p[0].Kind != sdk.Multiclass || p[0].Targets[0] != 2 || p[0].NumClasses != 3 {
		t.Fatalf("native plan %+v", p)
	}
	probs := mat.NewDense(2, 3, []float64{0.2, 0.5, 0.3, 0.6, 0.2, 0.2})
	d, err := c.Decode(ctx, sdk.DecodeRequest{Scheme: "none", State: plan.State, Scores: probs, Probabilities: probs})
	if err != nil {
		t.Fatal(err)
	}
	if d.Predicted[0] != 1 || d.Predicted[1] != 0 || d.ClassScores.At(0, 1) != 0.5 {
		t.Fatalf("decoding %+v", d)
	}
}

// TestArgmaxClassScores checks the softmax of scores argmax reports as
// class scores, infinite scores included (one +∞ takes all the mass, two
// share it, all −∞ is uniform).
func TestArgmaxClassScores(t *testing.T) {
	inf := math.Inf(1)
	for _, tc := range []struct {
		name         string
		scores, want []float64
		pred         int
	}{
		{"finite", []float64{0, math.Log(3), 0}, []float64{0.2, 0.6, 0.2}, 1},
		{"one +inf", []float64{1, inf, 2}, []float64{0, 1, 0}, 1},
		{"two +inf", []float64{inf, -1, inf}, []float64{0.5, 0, 0.5}, 0},
		{"all -inf", []float64{-inf, -inf, -inf}, []float64{1. / 3, 1. / 3, 1. / 3}, 0},
	} {
		d := argmax(sdk.DecodeRequest{Scores: mat.NewDense(1, 3, tc.scores)}, 3)
		if d.Predicted[0] != tc.pred {
			t.Errorf("%s: predicted %d, want %d", tc.name, d.Predicted[0], tc.pred)
		}
		for k, w := range tc.want {
			if got := d.ClassScores.At(0, k); math.Abs(got-w) > 1e-15 {
				t.Errorf("%s: class score %d = %v, want %v", tc.name, k, got, w)
			}
		}
	}
}

// TestPlanIgnoresProbabilities: a plan decoded from the code's scores alone
// (vote, hamming, a loss, coverage) says so, and the host leaves the
// learners' probabilities out; argmax (ova's default, and native
// multiclass) passes them on, and the multi-label schemes read them.
func TestPlanIgnoresProbabilities(t *testing.T) {
	c := connect(t)
	ctx := context.Background()
	for _, tt := range []struct {
		name, scheme string
		params       sdk.Params
		want         bool
	}{
		{"ova argmax", "ova", nil, false},
		{"ova hamming", "ova", sdk.Params{"decode": sdk.String("hamming")}, true},
		{"ovo vote", "ovo", nil, true},
		{"ovo hamming", "ovo", sdk.Params{"decode": sdk.String("hamming")}, true},
		{"ordered", "ordered", nil, true},
		{"ecoc coverage", "ecoc", sdk.Params{"code": sdk.String("exhaustive"), "decode": sdk.String("coverage")}, true},
		{"native", "none", nil, false},
		{"binary relevance", BinaryRelevance, nil, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			plan := planThree(ctx, t, c, tt.scheme, tt.params)
			if plan.IgnoresProbabilities != tt.want {
				t.Errorf("IgnoresProbabilities = %v, want %v", plan.IgnoresProbabilities, tt.want)
			}
			if !plan.IgnoresProbabilities {
				return
			}
			// The claim: the same decoding with probabilities as without.
			L := len(plan.Problems)
			scores, probs := mat.NewDense(5, L, nil), mat.NewDense(5, L, nil)
			for i := range 5 {
				for j := range L {
					v := math.Sin(float64(7*i + 3*j + 1))
					scores.Set(i, j, v)
					probs.Set(i, j, 1/(1+math.Exp(-v)))
				}
			}
			var train *mat.Dense
			if plan.NeedsTrainingScores {
				train = mat.NewDense(planRows, L, nil)
				for i := range planRows {
					for j := range L {
						train.Set(i, j, math.Cos(float64(5*i+j)))
					}
				}
			}
			dreq := sdk.DecodeRequest{Scheme: tt.scheme, Params: tt.params, State: plan.State, Scores: scores, TrainingScores: train}
			without, err := c.Decode(ctx, dreq)
			if err != nil {
				t.Fatal(err)
			}
			dreq.Probabilities = probs
			with, err := c.Decode(ctx, dreq)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(with.Predicted, without.Predicted) || with.Ties != without.Ties || !mat.Equal(with.ClassScores, without.ClassScores) {
				t.Errorf("decoding with probabilities %v (ties %d), without %v (ties %d); class scores equal: %v",
					with.Predicted, with.Ties, without.Predicted, without.Ties, mat.Equal(with.ClassScores, without.ClassScores))
			}
		})
	}
}

// TestStateMakesCode: the state of a one-vs-all or one-vs-one plan holds
// no code matrix (Decode makes it from K: a 200-class one-vs-one code has
// 3,980,000 entries and a fold may be decoded in many blocks), an ecoc
// plan's holds its code; a Reducer that decodes a state again uses what it
// prepared, and the answers are those of a fresh Reducer.
func TestStateMakesCode(t *testing.T) {
	labels := make([]int, 60)
	for i := range labels {
		labels[i] = i % 12
	}
	for _, tc := range []struct {
		scheme string
		params sdk.Params
		code   bool
	}{
		{"ova", nil, false},
		{"ova", sdk.Params{"decode": sdk.String("loss:hinge")}, false},
		{"ovo", nil, false},
		{"ovo", sdk.Params{"asymmetric": sdk.Bool(true), "decode": sdk.String("hamming")}, false},
		{"ecoc", sdk.Params{"code": sdk.String("random_dense"), "decode": sdk.String("hamming")}, true},
	} {
		r := New()
		info := r.Info()
		var spec sdk.Scheme
		for _, s := range info.Schemes {
			if s.Name == tc.scheme {
				spec = s
			}
		}
		params := sdk.WithDefaults(spec.Params, tc.params)
		plan, err := r.Plan(context.Background(), sdk.PlanRequest{Scheme: tc.scheme, Params: params, NumClasses: 12, Labels: labels, Seed: 5})
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Contains(string(plan.State), `"code"`); got != tc.code || (!tc.code && len(plan.State) > 64) {
			t.Errorf("%s %v: state %s", tc.scheme, tc.params, plan.State)
		}
		scores := mat.NewDense(5, len(plan.Problems), nil)
		for i := range 5 {
			for j := range len(plan.Problems) {
				scores.Set(i, j, math.Sin(float64(7*i+j)))
			}
		}
		req := sdk.DecodeRequest{Scheme: tc.scheme, Params: params, State: plan.State, Scores: scores}
		first, err := r.Decode(context.Background(), req)
		if err != nil {
			t.Fatal(err)
		}
		again, err := r.Decode(context.Background(), req)
		if err != nil {
			t.Fatal(err)
		}
		fresh, err := New().Decode(context.Background(), req)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(first, again) || !reflect.DeepEqual(first, fresh) {
			t.Errorf("%s %v: decodings differ: %v, %v, %v", tc.scheme, tc.params, first.Predicted, again.Predicted, fresh.Predicted)
		}
		want := 1
		if params.Str("decode") == Argmax {
			want = 0 // argmax reads no code
		}
		if len(r.prepared) != want {
			t.Errorf("%s %v: %d states prepared, want %d", tc.scheme, tc.params, len(r.prepared), want)
		}
	}
}

// TestClassScoresAreProbabilities: over the protocol, a decoding says its
// class scores are probabilities exactly when it passes the learner's on:
// argmax (ova's default, native learners) and binary relevance given the
// learner's probabilities, as the host sends them (not when the plan
// ignores them); a code decoder's softmax of its scores, and any decoding
// without the learner's probabilities, are not.
func TestClassScoresAreProbabilities(t *testing.T) {
	c := connect(t)
	ctx := context.Background()
	for _, tt := range []struct {
		name, scheme string
		params       sdk.Params
		want         bool // with the learner's probabilities
	}{
		{"ova argmax", "ova", nil, true},
		{"ova argmax named", "ova", sdk.Params{"decode": sdk.String("argmax")}, true},
		{"ova hamming", "ova", sdk.Params{"decode": sdk.String("hamming")}, false},
		{"ovo vote", "ovo", nil, false},
		{"ecoc loss", "ecoc", sdk.Params{"code": sdk.String("exhaustive"), "decode": sdk.String("loss:exp")}, false},
		{"native", "none", nil, true},
		{"binary relevance", BinaryRelevance, nil, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			plan := planThree(ctx, t, c, tt.scheme, tt.params)
			L := len(plan.Problems)
			if plan.Problems[0].Kind == sdk.Multiclass {
				L = 3 // a native learner's scores: one column per class
			}
			scores, probs := mat.NewDense(5, L, nil), mat.NewDense(5, L, nil)
			for i := range 5 {
				for j := range L {
					v := math.Sin(float64(7*i + 3*j + 1))
					scores.Set(i, j, v)
					probs.Set(i, j, 1/(1+math.Exp(-v)))
				}
			}
			dreq := sdk.DecodeRequest{Scheme: tt.scheme, Params: tt.params, State: plan.State, Scores: scores}
			without, err := c.Decode(ctx, dreq)
			if err != nil {
				t.Fatal(err)
			}
			if without.ClassScoresAreProbabilities {
				t.Error("without the learner's probabilities, the class scores claim to be probabilities")
			}
			if !plan.IgnoresProbabilities {
				dreq.Probabilities = probs
			}
			with, err := c.Decode(ctx, dreq)
			if err != nil {
				t.Fatal(err)
			}
			if with.ClassScoresAreProbabilities != tt.want {
				t.Errorf("with the learner's probabilities: ClassScoresAreProbabilities = %v, want %v", with.ClassScoresAreProbabilities, tt.want)
			}
		})
	}
}

// TestPlanDescription: every plan says in words what code it makes and
// how it decodes, through the protocol (the report's set-up table shows
// these words): a row labelled ecoc says random dense and exponential
// loss, and the words read the same on every number of classes unless a
// parameter fixes a number.
func TestPlanDescription(t *testing.T) {
	c := connect(t)
	ctx := context.Background()
	multi := mat.NewDense(4, 3, []float64{1, 0, 1, 0, 1, 0, 1, 1, 0, 0, 0, 1})
	for _, tt := range []struct {
		name, scheme  string
		params        sdk.Params
		code, decoder string
	}{
		{"ova", "ova", nil, "one-vs-all: K columns, class k +1, the rest −1",
			"the class of the largest score (the learners' probabilities, normalised, when they have them)"},
		{"ova hamming", "ova", sdk.Params{"decode": sdk.String("hamming")}, "one-vs-all: K columns, class k +1, the rest −1",
			"Hamming decoding: the class whose code word is nearest the scores' signs"},
		{"ovo", "ovo", nil, "one-vs-one: K(K−1)/2 columns, class i +1 against class j −1, other classes left out",
			"votes: each column's sign votes for its classes, the most votes win"},
		{"ovo asymmetric", "ovo", sdk.Params{"asymmetric": sdk.Bool(true)}, "asymmetric one-vs-one: K(K−1) columns, each pair of classes both ways",
			"votes: each column's sign votes for its classes, the most votes win"},
		{"ordered", "ordered", sdk.Params{"order": sdk.List(sdk.String("c"), sdk.String("a"), sdk.String("b"))},
			"ordered one-vs-rest (decision list): K−1 columns, each class against the classes after it, classes in the order c, a, b",
			"sequential: the first class in the order whose classifier claims the row"},
		{"ecoc random dense, exp loss", "ecoc", sdk.Params{"code": sdk.String("random_dense"), "decode": sdk.String("loss:exp")},
			"random dense {−1, +1} code, ⌈10·log₂ K⌉ columns (at most 2^(K−1) − 1)",
			"loss-based decoding (Allwein, Schapire & Singer 2000), exponential loss of the scores"},
		{"ecoc random sparse, 5 columns", "ecoc", sdk.Params{"code": sdk.String("random_sparse"), "length": sdk.Number(5)},
			"random sparse {−1, 0, +1} code, 5 columns", "Hamming decoding: the class whose code word is nearest the scores' signs"},
		{"ecoc exhaustive", "ecoc", sdk.Params{"code": sdk.String("exhaustive"), "decode": sdk.String("coverage")},
			"exhaustive code: 2^(K−1) − 1 columns, every split of the classes in two",
			"coverage: the positive classifiers' training coverage of each class, summed"},
		{"ecoc matrix", "ecoc", sdk.Params{"matrix": sdk.List(sdk.List(sdk.Number(1), sdk.Number(-1)), sdk.List(sdk.Number(-1), sdk.Number(1)), sdk.List(sdk.Number(1), sdk.Number(1)))},
			"user code matrix, 3 × 2", "Hamming decoding: the class whose code word is nearest the scores' signs"},
		{"none", "none", nil, "none: one multiclass problem for the learner",
			"the class of the largest score (the learner's probabilities when it has them)"},
		{"binary relevance", BinaryRelevance, sdk.Params{"threshold": sdk.Number(0.4)}, "binary relevance: one binary problem per label",
			"a label when its probability is at least 0.4 (its score at least 0 without probabilities)"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			for _, k := range []int{3, 4} {
				names := []string{"a", "b", "c", "d"}[:k]
				labels := []int{0, 1, 2, k - 1}
				req := sdk.PlanRequest{Scheme: tt.scheme, Params: tt.params, NumClasses: k, Labels: labels, ClassNames: names, Seed: 1}
				if tt.scheme == BinaryRelevance {
					req.Labels, req.LabelMatrix = nil, multi
				}
				if tt.name == "ordered" || tt.name == "ecoc matrix" || tt.scheme == BinaryRelevance {
					if k == 4 {
						continue // the parameters fit 3 classes
					}
				}
				plan, err := c.Plan(ctx, req)
				if err != nil {
					t.Fatal(err)
				}
				if d := plan.Description; d.Code != tt.code || d.Decoder != tt.decoder {
					t.Errorf("K = %d: code %q, decoder %q\nwant code %q, decoder %q", k, d.Code, d.Decoder, tt.code, tt.decoder)
				}
			}
		})
	}
}

// planRows is the number of rows planThree plans for.
const planRows = 4

// planThree plans scheme with params for four rows of three classes
// (a, b, c), the rows' label sets for binary relevance.
func planThree(ctx context.Context, t *testing.T, c *host.ReducerClient, scheme string, params sdk.Params) sdk.Plan {
	t.Helper()
	req := sdk.PlanRequest{Scheme: scheme, Params: params, NumClasses: 3, Labels: []int{0, 1, 2, 1}, ClassNames: []string{"a", "b", "c"}, Seed: 1}
	if scheme == BinaryRelevance {
		req.Labels, req.LabelMatrix = nil, mat.NewDense(4, 3, []float64{1, 0, 1, 0, 1, 0, 1, 1, 0, 0, 0, 1})
	}
	plan, err := c.Plan(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	return plan
}

// TestPlanErrorBlamesMatrixAndClasses: an ecoc plan whose matrix and
// classes are both wrong blames both parameters (the gRPC status's field
// violations), so that the host reports the one error at the parameters
// it is about; before, the classes were checked only once the matrix was
// right.
func TestPlanErrorBlamesMatrixAndClasses(t *testing.T) {
	row := func(vs ...float64) sdk.Value {
		var out []sdk.Value
		for _, v := range vs {
			out = append(out, sdk.Number(v))
		}
		return sdk.List(out...)
	}
	params := sdk.Params{
		"matrix":  sdk.List(row(1, -1), row(1, -1), row(-1, 1)),
		"classes": sdk.List(sdk.String("a"), sdk.String("b"), sdk.String("cc")),
	}
	_, err := connect(t).Plan(context.Background(), sdk.PlanRequest{Scheme: "ecoc", Params: params, NumClasses: 3, Labels: []int{0, 1, 2}, ClassNames: []string{"a", "b", "c"}})
	if got, want := host.FaultParams(err), []string{"matrix", "classes"}; !slices.Equal(got, want) {
		t.Errorf("the plan's error %v blames %q, want %q", err, got, want)
	}
}

// TestNumericClassNames is campaign 12's EC1 and OR1: on data whose
// classes are compared as numbers (named 1, 2, 3), an ordered order or an
// ecoc classes list written "+2", "1.0" or "03" was refused; each names
// the class it equals as a decimal number, and one class named twice in
// two spellings is refused as twice.
func TestNumericClassNames(t *testing.T) {
	c, ctx := connect(t), context.Background()
	req := func(scheme string, p sdk.Params) sdk.PlanRequest {
		return sdk.PlanRequest{Scheme: scheme, Params: p, NumClasses: 3, Labels: []int{0, 1, 2}, ClassNames: []string{"1", "2", "3"}}
	}
	ordered := func(names ...string) sdk.Params {
		vs := make([]sdk.Value, len(names))
		for i, n := range names {
			vs[i] = sdk.String(n)
		}
		return sdk.Params{"order": sdk.List(vs...)}
	}
	if _, err := c.Plan(ctx, req("ordered", ordered("+2", "1.0", "03"))); err != nil {
		t.Errorf("order +2, 1.0, 03: %v", err)
	}
	if _, err := c.Plan(ctx, req("ordered", ordered("1", "1.0", "3"))); err == nil || !strings.Contains(err.Error(), `order names class "1" twice`) {
		t.Errorf("order 1, 1.0, 3: error %v, want class 1 named twice", err)
	}
	m := sdk.List(sdk.List(sdk.Number(1), sdk.Number(-1)), sdk.List(sdk.Number(-1), sdk.Number(1)), sdk.List(sdk.Number(-1), sdk.Number(-1)))
	if _, err := c.Plan(ctx, req("ecoc", sdk.Params{"matrix": m, "classes": sdk.List(sdk.String("2.0"), sdk.String("1"), sdk.String("3e0"))})); err != nil {
		t.Errorf("ecoc classes 2.0, 1, 3e0: %v", err)
	}
}
