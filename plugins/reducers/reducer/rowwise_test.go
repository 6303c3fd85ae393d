package reducer

import (
	"bytes"
	"context"
	"encoding/csv"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/polyclass/polyclass/framework/sdk"
	"github.com/polyclass/polyclass/internal/refdata"
	"github.com/polyclass/polyclass/plugins/logreg/learner"
)

// table is a data set of testdata/data: standardised features, and the
// class of each row (labels, multiclass) or its 0/1 label row (multi-label).
type table struct {
	x       *mat.Dense
	classes []int
	names   []string
	labels  *mat.Dense
}

// readTable reads a CSV of numeric features and either a column "class"
// or columns "label_*", and standardises the features.
func readTable(t *testing.T, name string) table {
	t.Helper()
	recs, err := csv.NewReader(bytes.NewReader(refdata.ReadFile(t, refdata.Data(t, name)))).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	head, recs := recs[0], recs[1:]
	var feat, lab []int
	class := -1
	for j, h := range head {
		switch {
		case h == "class":
			class = j
		case strings.HasPrefix(h, "label_"):
			lab = append(lab, j)
		default:
			feat = append(feat, j)
		}
	}
	n := len(recs)
	tb := table{x: mat.NewDense(n, len(feat), nil)}
	if lab != nil {
		tb.labels = mat.NewDense(n, len(lab), nil)
	}
	index := map[string]int{}
	for i, r := range recs {
		for k, j := range feat {
			v, err := strconv.ParseFloat(r[j], 64)
			if err != nil {
				t.Fatalf("%s row %d: %v", name, i, err)
			}
			tb.x.Set(i, k, v)
		}
		for k, j := range lab {
			tb.labels.Set(i, k, map[string]float64{"1": 1}[r[j]])
		}
		if class >= 0 {
			if _, ok := index[r[class]]; !ok {
				index[r[class]] = len(tb.names)
				tb.names = append(tb.names, r[class])
			}
			tb.classes = append(tb.classes, index[r[class]])
		}
	}
	for j := range feat {
		col := mat.Col(nil, j, tb.x)
		var mean, sd float64
		for _, v := range col {
			mean += v / float64(n)
		}
		for _, v := range col {
			sd += (v - mean) * (v - mean) / float64(n)
		}
		sd = math.Sqrt(sd)
		if sd == 0 {
			sd = 1
		}
		for i, v := range col {
			tb.x.Set(i, j, (v-mean)/sd)
		}
	}
	return tb
}

// outputs are a plan's real learner outputs: logreg models trained on the
// training rows, applied to the test rows (scores and probabilities) and
// to the training rows (scores, for coverage).
type outputs struct {
	test, probs, train *mat.Dense
}

// fitOutputs trains logreg (default parameters) on each problem of plan
// over the rows of xTrain it uses.
func fitOutputs(t *testing.T, plan sdk.Plan, xTrain, xTest *mat.Dense) outputs {
	t.Helper()
	ctx := context.Background()
	lr := learner.New()
	params := sdk.WithDefaults(lr.Info().Params, nil)
	var tests, probs, trains []*mat.Dense
	for j, p := range plan.Problems {
		p = p.Dense()
		var rows []int
		for i := range p.Targets {
			if p.Uses(i) {
				rows = append(rows, i)
			}
		}
		in := sdk.FitInput{Kind: p.Kind, NumClasses: p.NumClasses, X: sdk.Matrix{Dense: subRows(xTrain, rows)}}
		for _, i := range rows {
			if p.Kind == sdk.Multiclass {
				in.Classes = append(in.Classes, int(p.Targets[i]))
			} else {
				in.Targets = append(in.Targets, p.Targets[i])
			}
		}
		m, err := lr.Fit(ctx, in, params)
		if err != nil {
			t.Fatalf("problem %d: %v", j, err)
		}
		o := m.Outputs()
		nTest, _ := xTest.Dims()
		nTrain, _ := xTrain.Dims()
		s, pr, st := mat.NewDense(nTest, o, nil), mat.NewDense(nTest, o, nil), mat.NewDense(nTrain, o, nil)
		if err := m.Predict(ctx, sdk.Matrix{Dense: xTest}, s, pr); err != nil {
			t.Fatal(err)
		}
		if err := m.Predict(ctx, sdk.Matrix{Dense: xTrain}, st, nil); err != nil {
			t.Fatal(err)
		}
		tests, probs, trains = append(tests, s), append(probs, pr), append(trains, st)
	}
	return outputs{test: hcat(tests), probs: hcat(probs), train: hcat(trains)}
}

// subRows returns the given rows of x.
func subRows(x *mat.Dense, rows []int) *mat.Dense {
	_, d := x.Dims()
	out := mat.NewDense(max(len(rows), 1), d, nil)
	for k, i := range rows {
		out.SetRow(k, x.RawRowView(i))
	}
	return out
}

// hcat joins matrices of equal height side by side.
func hcat(ms []*mat.Dense) *mat.Dense {
	n, w := ms[0].Dims()
	for _, m := range ms[1:] {
		_, c := m.Dims()
		w += c
	}
	out := mat.NewDense(n, w, nil)
	col := 0
	for _, m := range ms {
		_, c := m.Dims()
		out.Slice(0, n, col, col+c).(*mat.Dense).Copy(m)
		col += c
	}
	return out
}

// partSizes are the runs of test rows a decode is split into: they cross
// the 64-row blocks of gonum's matrix products, and end with the rest.
var partSizes = []int{1, 63, 64, 65, 2, 127}

// decodeInParts decodes req whole and in runs of partSizes (and the rest),
// and fails unless the two answers are identical bit for bit.
func decodeInParts(t *testing.T, req sdk.DecodeRequest) {
	t.Helper()
	ctx := context.Background()
	r := New()
	whole, err := r.Decode(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	n, _ := req.Scores.Dims()
	var joined sdk.Decoding
	var class, labels []*mat.Dense
	for lo, k := 0, 0; lo < n; k++ {
		hi := n
		if k < len(partSizes) {
			hi = min(lo+partSizes[k], n)
		}
		part := req
		part.Scores = req.Scores.Slice(lo, hi, 0, req.Scores.RawMatrix().Cols).(*mat.Dense)
		if req.Probabilities != nil {
			part.Probabilities = req.Probabilities.Slice(lo, hi, 0, req.Probabilities.RawMatrix().Cols).(*mat.Dense)
		}
		d, err := r.Decode(ctx, part)
		if err != nil {
			t.Fatalf("rows %d..%d: %v", lo, hi-1, err)
		}
		joined.Predicted = append(joined.Predicted, d.Predicted...)
		joined.Ties += d.Ties
		if d.ClassScores != nil {
			class = append(class, d.ClassScores)
		}
		if d.LabelMatrix != nil {
			labels = append(labels, d.LabelMatrix)
		}
		lo = hi
	}
	if whole.Predicted == nil {
		joined.Predicted = nil
	}
	if !slices.Equal(whole.Predicted, joined.Predicted) || whole.Ties != joined.Ties {
		t.Fatalf("in parts: %d ties and predictions that differ from the whole decode's %d ties", joined.Ties, whole.Ties)
	}
	for _, m := range []struct {
		name  string
		whole *mat.Dense
		parts []*mat.Dense
	}{{"class scores", whole.ClassScores, class}, {"label matrix", whole.LabelMatrix, labels}} {
		if (m.whole == nil) != (len(m.parts) == 0) {
			t.Fatalf("%s: whole %v, parts %d", m.name, m.whole != nil, len(m.parts))
		}
		if m.whole == nil {
			continue
		}
		var got []float64
		for _, p := range m.parts {
			for i := range p.RawMatrix().Rows {
				got = append(got, p.RawRowView(i)...)
			}
		}
		for i, v := range m.whole.RawMatrix().Data {
			if math.Float64bits(v) != math.Float64bits(got[i]) {
				t.Fatalf("%s: entry %d is %v whole, %v in parts", m.name, i, v, got[i])
			}
		}
	}
}

// TestRowWiseDecodeEvidence backs every scheme that declares RowWiseDecode:
// on the real outputs of logreg models (letter and glass for the
// multiclass schemes with every decoder they take, emotions for the
// multi-label ones), with and without probabilities, decoding the test rows
// in runs equals decoding them at once, bit for bit.
func TestRowWiseDecodeEvidence(t *testing.T) {
	if testing.Short() {
		t.Skip("trains logreg on letter, glass and emotions")
	}
	ctx := context.Background()
	r := New()
	covered := map[string]bool{}
	multiclass := []struct {
		data         string
		nTrain, nMax int
		plans        []sdk.PlanRequest
	}{
		{"letter.csv", 2000, 1500, []sdk.PlanRequest{
			{Scheme: "ova"}, {Scheme: "ordered"}, {Scheme: "ovo"},
			{Scheme: "ecoc", Params: sdk.Params{"code": sdk.String("random_dense")}},
			{Scheme: "none"},
		}},
		{"glass.csv", 150, 64, []sdk.PlanRequest{
			{Scheme: "ova"}, {Scheme: "ordered"}, {Scheme: "ovo"},
			{Scheme: "ovo", Params: sdk.Params{"asymmetric": sdk.Bool(true)}},
			{Scheme: "ecoc", Params: sdk.Params{"code": sdk.String("random_sparse")}},
			{Scheme: "ecoc", Params: sdk.Params{"code": sdk.String("exhaustive")}},
			{Scheme: "none"},
		}},
	}
	info := r.Info()
	spec := map[string]sdk.Scheme{}
	for _, s := range info.Schemes {
		spec[s.Name] = s
	}
	for _, d := range multiclass {
		tb := readTable(t, d.data)
		n, _ := tb.x.Dims()
		nTest := min(n-d.nTrain, d.nMax)
		xTrain, xTest := tb.x.Slice(0, d.nTrain, 0, tb.x.RawMatrix().Cols).(*mat.Dense), tb.x.Slice(d.nTrain, d.nTrain+nTest, 0, tb.x.RawMatrix().Cols).(*mat.Dense)
		for _, pr := range d.plans {
			pr.NumClasses, pr.Labels, pr.ClassNames, pr.Seed = len(tb.names), tb.classes[:d.nTrain], tb.names, 7
			pr.Params = sdk.WithDefaults(spec[pr.Scheme].Params, pr.Params)
			plan, err := r.Plan(ctx, pr)
			if err != nil {
				t.Fatalf("%s %s: %v", d.data, pr.Scheme, err)
			}
			out := fitOutputs(t, plan, xTrain, xTest)
			decodeSpec, _ := sdk.LookupSpec(spec[pr.Scheme].Params, "decode")
			for _, dec := range decodeSpec.Allowed {
				params := sdk.Params{}
				for k, v := range pr.Params {
					params[k] = v
				}
				params["decode"] = sdk.String(dec)
				p := pr
				p.Params = params
				params = p.Params
				plan, err := r.Plan(ctx, p)
				if err != nil {
					continue // a decoder the scheme's matrix does not take (sequential off a decision list)
				}
				for _, probs := range []*mat.Dense{nil, out.probs} {
					t.Run(strings.Join([]string{d.data, pr.Scheme, dec, map[bool]string{true: "probabilities", false: "scores"}[probs != nil]}, "/"), func(t *testing.T) {
						req := sdk.DecodeRequest{Scheme: pr.Scheme, Params: params, State: plan.State, Scores: out.test, Probabilities: probs}
						if plan.NeedsTrainingScores {
							req.TrainingScores = out.train
						}
						decodeInParts(t, req)
					})
				}
				covered[pr.Scheme] = true
			}
		}
	}

	tb := readTable(t, "emotions.csv")
	n, K := tb.labels.Dims()
	const nTrain = 400
	cols := tb.x.RawMatrix().Cols
	xTrain, xTest := tb.x.Slice(0, nTrain, 0, cols).(*mat.Dense), tb.x.Slice(nTrain, n, 0, cols).(*mat.Dense)
	yTrain := tb.labels.Slice(0, nTrain, 0, K).(*mat.Dense)
	for _, scheme := range []string{BinaryRelevance, Stacking} {
		plan, err := r.Plan(ctx, sdk.PlanRequest{Scheme: scheme, Params: sdk.WithDefaults(spec[scheme].Params, nil), NumClasses: K, LabelMatrix: yTrain, Seed: 7})
		if err != nil {
			t.Fatal(err)
		}
		out := fitOutputs(t, plan, xTrain, xTest)
		if plan.NextStage != nil {
			// stack decodes its second stage's outputs as br does; the
			// first stage's stand in for them (the decode reads only
			// the scores, probabilities and threshold).
			if plan, err = r.Plan(ctx, sdk.PlanRequest{Scheme: scheme, Params: sdk.WithDefaults(spec[scheme].Params, nil), NumClasses: K, LabelMatrix: yTrain, Seed: 7, Stage: 1, State: plan.State}); err != nil {
				t.Fatal(err)
			}
		}
		for _, th := range []float64{0.5, 0.3} {
			for _, probs := range []*mat.Dense{nil, out.probs} {
				t.Run(strings.Join([]string{"emotions", scheme, strconv.FormatFloat(th, 'g', -1, 64), map[bool]string{true: "probabilities", false: "scores"}[probs != nil]}, "/"), func(t *testing.T) {
					params := sdk.WithDefaults(spec[scheme].Params, sdk.Params{"threshold": sdk.Number(th)})
					decodeInParts(t, sdk.DecodeRequest{Scheme: scheme, Params: params, State: plan.State, Scores: out.test, Probabilities: probs})
				})
			}
		}
		covered[scheme] = true
	}

	for _, s := range info.Schemes {
		if s.RowWiseDecode && !covered[s.Name] {
			t.Errorf("scheme %s declares row-wise decoding that this test does not check", s.Name)
		}
	}
}

// TestPLSTDecodeNotRowWise shows why plst does not declare RowWiseDecode:
// with M = 66 components (over gonum's 64-wide blocks) the product of 130
// test rows' scores with V_Mᵀ is blocked, and sums each row's components
// in runs of 64, while that of a run of 64 rows is not; the reconstructed
// label values of a decode in runs differ from those of a whole decode.
func TestPLSTDecodeNotRowWise(t *testing.T) {
	ctx := context.Background()
	r := New()
	rng := rand.New(rand.NewPCG(3, 4))
	const nTrain, K, M, nTest = 200, 70, 66, 130
	y := mat.NewDense(nTrain, K, nil)
	for i := range nTrain {
		for k := range K {
			if rng.Float64() < 0.3 {
				y.Set(i, k, 1)
			}
		}
	}
	params := sdk.Params{"components": sdk.Number(M), "threshold": sdk.Number(0.5)}
	plan, err := r.Plan(ctx, sdk.PlanRequest{Scheme: PLST, Params: params, NumClasses: K, LabelMatrix: y})
	if err != nil {
		t.Fatal(err)
	}
	scores := mat.NewDense(nTest, M, nil)
	for i := range nTest {
		for j := range M {
			scores.Set(i, j, 0.2*rng.NormFloat64())
		}
	}
	req := sdk.DecodeRequest{Scheme: PLST, Params: params, State: plan.State, Scores: scores}
	whole, err := r.Decode(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	differ := 0
	for lo := 0; lo < nTest; lo += 64 {
		hi := min(lo+64, nTest)
		part := req
		part.Scores = scores.Slice(lo, hi, 0, M).(*mat.Dense)
		d, err := r.Decode(ctx, part)
		if err != nil {
			t.Fatal(err)
		}
		for i := lo; i < hi; i++ {
			for k := range K {
				if math.Float64bits(d.ClassScores.At(i-lo, k)) != math.Float64bits(whole.ClassScores.At(i, k)) {
					differ++
				}
			}
		}
	}
	if differ == 0 {
		t.Fatal("plst decodes 130 rows in runs of 64 as at once, bit for bit: the reason it does not declare RowWiseDecode is gone")
	}
	t.Logf("%d of %d reconstructed label values differ in their last bits", differ, nTest*K)
	for _, s := range r.Info().Schemes {
		if s.Name == PLST && s.RowWiseDecode {
			t.Error("plst declares RowWiseDecode")
		}
	}
}
