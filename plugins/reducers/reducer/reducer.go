// Package reducer implements the reducers plugin: it turns a K-class task
// into the binary problems of a ternary code matrix (one-vs-all, ordered
// one-vs-rest, one-vs-one, user or generated ECOC codes), or hands it whole
// to a native multiclass learner, and decodes the learners' scores into
// classes. It holds no state between calls: Plan's state blob carries what
// Decode needs.
package reducer

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strings"
	"sync"

	"gonum.org/v1/gonum/mat"

	"github.com/polyclass/polyclass/framework/sdk"
	"github.com/polyclass/polyclass/plugins/reducers/codes"
)

// Version is the plugin version reported in Info and the manifest.
const Version = "0.3.0"

// Argmax is the decoder that predicts the class of the largest score
// column; it applies to one-vs-all and native multiclass outputs.
const Argmax = "argmax"

// Reducer serves the reduction schemes. The zero value is ready to use.
//
// It keeps what Decode prepares from a plan's state (the code matrix, its
// decoder, the vote tie-break's index) for the last few states it saw: a
// fold's test rows may come in many blocks with the same state, and a
// 200-class one-vs-one code has 19,900 columns to index each time. What
// it keeps follows from the state alone, so it changes no answer.
type Reducer struct {
	mu       sync.Mutex
	prepared map[string]*prepared
	recent   []string // keys of prepared, oldest first
}

// preparedStates is how many states a Reducer keeps prepared: the folds
// decoded at once, with room to spare.
const preparedStates = 8

// prepared is what Decode makes of a state and decoder name.
type prepared struct {
	m    *codes.Matrix
	dec  codes.Decoder
	ties *voteTies // one-vs-one vote decoding, scikit-learn's ties only
}

// New returns a Reducer.
func New() *Reducer { return &Reducer{} }

// decodeSpec is the decode parameter of a scheme whose decoders are
// allowed, def first.
func decodeSpec(def string, allowed []string) sdk.ParamSpec {
	return sdk.ParamSpec{
		Name: "decode", Type: sdk.StringParam, Default: sdk.String(def),
		Allowed:     allowed,
		Description: "decoder: argmax (one-vs-all), hamming, vote, loss:exp|hinge|logistic|squared|zero_one|linear, coverage, sequential (ordered), dag (one-vs-one: DAGSVM)",
	}
}

// codeDecoders returns the decoders of any code matrix: every decoder of
// package codes except sequential, which needs a decision list, and dag,
// which needs a one-vs-one matrix.
func codeDecoders() []string {
	var out []string
	for _, n := range codes.DecoderNames() {
		if n != codes.Sequential && n != codes.DAG {
			out = append(out, n)
		}
	}
	return out
}

// Tie rules of one-vs-one voting (the ovo scheme's ties parameter).
const (
	// TiesConfidence adds scikit-learn's confidence term to the votes.
	TiesConfidence = "confidence"
	// TiesLibsvm votes as LIBSVM's svm-predict (codes.LibsvmVote).
	TiesLibsvm = "libsvm"
)

// Info describes the schemes. Every code-matrix scheme and none decode
// row-wise (sdk.Scheme.RowWiseDecode): a row's class scores and class come
// from its own scores alone, through the code matrix (and, for coverage,
// the table of the training scores, which every part of a split decode
// carries); so do br and stack (a threshold per label). plst does not:
// see multiLabelSchemes.
func (*Reducer) Info() sdk.ReducerInfo {
	return sdk.ReducerInfo{
		Name: "reducers", Version: Version,
		Description: "reductions of multiclass tasks to binary problems through ternary code matrices",
		Schemes:     append(schemeInfos(), multiLabelSchemes()...),
	}
}

// state is what Decode needs from Plan. The code matrices of ova and ovo
// follow from K (and Asymmetric) and are made again in Decode rather than
// carried: a fold's test rows may be decoded in many blocks, each with the
// state, and a 200-class one-vs-one code has 3,980,000 entries.
type state struct {
	K          int    `json:"k"`
	L          int    `json:"l"`
	Code       []int8 `json:"code,omitempty"`
	Native     bool   `json:"native,omitempty"`
	OVA        bool   `json:"ova,omitempty"`
	OVO        bool   `json:"ovo,omitempty"`
	Asymmetric bool   `json:"asymmetric,omitempty"`
	// Labels are the training rows' classes, for the coverage decoder.
	Labels []int `json:"labels,omitempty"`
	// Rank orders the classes by their first training row, for LIBSVM's
	// vote (ovo, ties = libsvm).
	Rank []int `json:"rank,omitempty"`
}

// Plan returns the problems of a scheme.
func (*Reducer) Plan(_ context.Context, req sdk.PlanRequest) (sdk.Plan, error) {
	K := req.NumClasses
	if K < 2 {
		return sdk.Plan{}, fmt.Errorf("need at least 2 classes, got %d", K)
	}
	switch req.Scheme {
	case BinaryRelevance, Stacking, PLST:
		return planMultiLabel(req)
	}
	if req.LabelMatrix != nil {
		return sdk.Plan{}, fmt.Errorf("scheme %s is for multiclass data, not a label matrix", req.Scheme)
	}
	for i, y := range req.Labels {
		if y < 0 || y >= K {
			return sdk.Plan{}, fmt.Errorf("label %d of training row %d is outside 0..%d", y, i, K-1)
		}
	}
	decode := req.Params.Str("decode")
	sc, known := lookupScheme(req.Scheme)
	if known && sc.matrix == nil {
		if decode != Argmax {
			return sdk.Plan{}, sdk.WithParam("decode", fmt.Errorf("scheme %s decodes by argmax, not %s", req.Scheme, decode))
		}
		t := make([]float64, len(req.Labels))
		for i, y := range req.Labels {
			t[i] = float64(y)
		}
		st, err := json.Marshal(state{K: K, L: K, Native: true})
		if err != nil {
			return sdk.Plan{}, err
		}
		return sdk.Plan{
			Problems:    []sdk.Problem{{Kind: sdk.Multiclass, Targets: t, NumClasses: K}},
			State:       st,
			Description: describe(req),
		}, nil
	}
	if err := checkProblems(req); err != nil {
		return sdk.Plan{}, err
	}
	m, err := matrixFor(req)
	if err != nil {
		return sdk.Plan{}, err
	}
	if _, L := m.Dims(); L > 0 { // what checkProblems could not count
		if err := checkSize(req, L); err != nil {
			return sdk.Plan{}, err
		}
	}
	if decode == Argmax && sc.argmax == "" {
		return sdk.Plan{}, sdk.WithParam("decode", fmt.Errorf("decode = argmax applies to ova only; use hamming, vote or a loss for %s", req.Scheme))
	}
	if sc.oneVsOne && req.Params.Str("ties") == TiesLibsvm && decode != codes.Vote {
		return sdk.Plan{}, sdk.WithParam("ties", fmt.Errorf("ties = %q applies to decode = vote, not %s", TiesLibsvm, decode))
	}
	var probe *mat.Dense
	if decode == codes.Coverage {
		probe = coverageProbe(m)
	}
	if _, err := codes.NewDecoder(decode, m, probe); err != nil && decode != Argmax {
		return sdk.Plan{}, sdk.WithParam("decode", err)
	}
	return codePlan(req, m, decode)
}

// CheckScheme reports the faults of a multiclass scheme's parameters that
// show without data (sdk.SchemeChecker), beyond the specs' own checks
// (an unknown decoder): ties = libsvm beside another decoder, and the
// scheme's own check (a user code matrix's entries and rows). What needs
// the classes waits for Plan.
func (*Reducer) CheckScheme(_ context.Context, scheme string, p sdk.Params) error {
	sc, ok := lookupScheme(scheme)
	if !ok {
		return nil // a multi-label scheme: Plan checks it
	}
	decode := p.Str("decode")
	var errs []error
	if sc.oneVsOne && p.Str("ties") == TiesLibsvm && decode != codes.Vote {
		errs = append(errs, sdk.WithParam("ties", fmt.Errorf("ties = %q applies to decode = vote, not %s", TiesLibsvm, decode)))
	}
	if sc.check != nil {
		if err := sc.check(p); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// diagnose returns the Diagnostics of the scheme's code m: in closed
// form for one-vs-all, one-vs-one and ordered, whose pairwise comparison
// of the rows grows as K³ or K⁴ (5,000 one-vs-all classes took minutes),
// else by codes.Diagnose.
func diagnose(sc scheme, m *codes.Matrix) codes.Diagnostics {
	K, L := m.Dims()
	switch {
	case sc.info.Name == OVA:
		return codes.DiagnoseOVA(K)
	case sc.oneVsOne:
		return codes.DiagnoseOVO(K, L == K*(K-1))
	case sc.info.Name == Ordered:
		return codes.DiagnoseOrdered(K)
	}
	return codes.Diagnose(m)
}

// coverageProbe is a placeholder counts table so that NewDecoder can check
// a coverage decoder's shape at plan time.
func coverageProbe(m *codes.Matrix) *mat.Dense {
	K, L := m.Dims()
	return mat.NewDense(L, K, nil)
}

// matrixFor builds the code matrix of the request's scheme.
func matrixFor(req sdk.PlanRequest) (*codes.Matrix, error) {
	sc, ok := lookupScheme(req.Scheme)
	if !ok || sc.matrix == nil {
		return nil, fmt.Errorf("unknown scheme %q", req.Scheme)
	}
	return sc.matrix(req)
}

// classIndices maps class names to indices (sdk.ClassIndex: by spelling,
// else as the same decimal number); every class must appear once.
func classIndices(names, classNames []string, param string) ([]int, error) {
	if len(names) != len(classNames) {
		return nil, fmt.Errorf("%s names %d classes, the data has %d (%s)", param, len(names), len(classNames), strings.Join(classNames, ", "))
	}
	out := make([]int, len(names))
	seen := map[int]bool{}
	for i, n := range names {
		k := sdk.ClassIndex(n, classNames)
		if k < 0 {
			return nil, fmt.Errorf("%s[%d] = %q is not a class of the data (%s)", param, i, n, strings.Join(classNames, ", "))
		}
		if seen[k] {
			return nil, fmt.Errorf("%s names class %q twice", param, classNames[k])
		}
		seen[k] = true
		out[i] = k
	}
	return out, nil
}

// codePlan turns a code matrix into one binary problem per column, with
// compact targets (sdk.CodeColumn) over the rows' labels, shared by every
// problem: the server sends them as they are, without an all-pairs plan's
// K(K−1)/2 target vectors over the fold's rows. Plan has checked the
// labels against K.
func codePlan(req sdk.PlanRequest, m *codes.Matrix, decode string) (sdk.Plan, error) {
	sc, _ := lookupScheme(req.Scheme)
	K, L := m.Dims()
	code := sdk.CodeMatrix{Rows: K, Cols: L, Entries: m.Entries()}
	groups := make([]int32, len(req.Labels))
	for i, y := range req.Labels {
		groups[i] = int32(y)
	}
	problems := make([]sdk.Problem, L)
	for j := range problems {
		problems[j] = sdk.Problem{Kind: sdk.Binary, Compact: sdk.CodeColumn(code, j, groups)}
	}
	st := newState(sc, m)
	// Decode's code decoders read the scores alone; argmax (ova's
	// default) passes the learner's probabilities on.
	plan := sdk.Plan{Problems: problems, Code: &code, IgnoresProbabilities: decode != Argmax}
	if decode == codes.Coverage {
		st.Labels = req.Labels
		plan.NeedsTrainingScores = true
	}
	if sc.oneVsOne && decode == codes.Vote && req.Params.Str("ties") == TiesLibsvm {
		rank, err := codes.FirstSeen(req.Labels, K)
		if err != nil {
			return sdk.Plan{}, err
		}
		st.Rank = rank
	}
	var err error
	if plan.State, err = json.Marshal(st); err != nil {
		return sdk.Plan{}, err
	}
	d := diagnose(sc, m)
	plan.Diagnostics = &sdk.CodeDiagnostics{Classes: d.K, Columns: d.L, MinDistance: d.MinDistance,
		MeanDistance: d.MeanDistance, Correcting: d.Correcting}
	if sc.oneVsOne {
		d.ComplementaryColumns = nil // asymmetric one-vs-one swaps each pair on purpose
	}
	plan.Warnings = d.Warnings(req.ClassNames)
	plan.Description = describe(req)
	return plan, nil
}

// Decode turns scores into classes.
func (r *Reducer) Decode(_ context.Context, req sdk.DecodeRequest) (sdk.Decoding, error) {
	switch req.Scheme {
	case BinaryRelevance, Stacking, PLST:
		return decodeMultiLabel(req)
	}
	var st state
	if err := json.Unmarshal(req.State, &st); err != nil {
		return sdk.Decoding{}, fmt.Errorf("state: %w", err)
	}
	if _, L := req.Scores.Dims(); L != st.L {
		return sdk.Decoding{}, fmt.Errorf("scores have %d columns, the plan has %d problems", L, st.L)
	}
	decode := req.Params.Str("decode")
	if st.Native || decode == Argmax {
		return argmax(req, st.K), nil
	}
	p, err := r.prepare(req, st, decode)
	if err != nil {
		return sdk.Decoding{}, err
	}
	scores := &mat.Dense{}
	pred, ties, err := codes.DecodeAll(p.dec, scores, req.Scores)
	if err != nil {
		return sdk.Decoding{}, err
	}
	if p.ties != nil {
		p.ties.apply(scores, pred, req.Scores)
	}
	probs := &mat.Dense{}
	codes.Softmax(probs, scores)
	return sdk.Decoding{Predicted: pred, ClassScores: probs, Ties: ties}, nil
}

// prepare returns the code matrix and decoder of state st and decoder
// name decode, made afresh or kept from an earlier call with the same
// scheme, decoder and state. A coverage decoder, made from the training
// scores, is made afresh each time.
func (r *Reducer) prepare(req sdk.DecodeRequest, st state, decode string) (*prepared, error) {
	key := req.Scheme + "\x00" + decode + "\x00" + string(req.State)
	if decode != codes.Coverage {
		r.mu.Lock()
		p := r.prepared[key]
		r.mu.Unlock()
		if p != nil {
			return p, nil
		}
	}
	m, err := st.matrix()
	if err != nil {
		return nil, err
	}
	var counts *mat.Dense
	if decode == codes.Coverage {
		if req.TrainingScores == nil {
			return nil, fmt.Errorf("coverage decoding needs the training scores")
		}
		if counts, err = codes.CoverageCounts(req.TrainingScores, st.Labels, st.K); err != nil {
			return nil, err
		}
	}
	p := &prepared{m: m}
	if st.Rank != nil {
		p.dec, err = codes.LibsvmVote(m, st.Rank)
	} else {
		p.dec, err = codes.NewDecoder(decode, m, counts)
	}
	if err != nil {
		return nil, err
	}
	if st.OVO && decode == codes.Vote && st.Rank == nil {
		p.ties = newVoteTies(m)
	}
	if decode == codes.Coverage {
		return p, nil
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.prepared == nil {
		r.prepared = map[string]*prepared{}
	}
	if _, ok := r.prepared[key]; !ok {
		if len(r.recent) == preparedStates {
			delete(r.prepared, r.recent[0])
			r.recent = r.recent[1:]
		}
		r.recent = append(r.recent, key)
	}
	r.prepared[key] = p
	return p, nil
}

// newState returns the state of a code plan of scheme sc and matrix m: the scheme, and
// the code itself when the scheme does not make it from K. Whether a
// one-vs-one code is asymmetric is read from m's K(K−1) columns, so the
// state remakes m whatever parameters made it.
func newState(sc scheme, m *codes.Matrix) state {
	K, L := m.Dims()
	st := state{K: K, L: L, OVA: sc.info.Name == OVA, OVO: sc.oneVsOne}
	switch {
	case st.OVO:
		st.Asymmetric = L == K*(K-1)
	case !st.OVA:
		st.Code = m.Entries()
	}
	return st
}

// matrix returns the plan's code matrix: the one-vs-all or one-vs-one
// code of K classes, else the code the state carries.
func (st state) matrix() (*codes.Matrix, error) {
	var m *codes.Matrix
	var err error
	switch {
	case st.OVA:
		m, err = codes.OVA(st.K)
	case st.OVO:
		m, err = codes.OVO(st.K, st.Asymmetric)
	default:
		return codes.NewMatrix(st.K, st.L, st.Code)
	}
	if err != nil {
		return nil, err
	}
	if _, L := m.Dims(); L != st.L {
		return nil, fmt.Errorf("state: the code of %d classes has %d columns, the plan %d", st.K, L, st.L)
	}
	return m, nil
}

// breakVoteTies adds scikit-learn's confidence term to one-vs-one votes
// (see voteTies).
func breakVoteTies(votes *mat.Dense, pred []int, s *mat.Dense, m *codes.Matrix) {
	newVoteTies(m).apply(votes, pred, s)
}

// voteTies is the index of a code matrix that breakVoteTies needs: the
// non-zero entries of each row, cols[start[k]:start[k+1]] with values
// vals, in column order.
type voteTies struct {
	m       *codes.Matrix
	entries []int8 // m's, row by row
	start   []int
	cols    []int
	vals    []float64
}

func newVoteTies(m *codes.Matrix) *voteTies {
	K, L := m.Dims()
	e := m.Entries()
	t := &voteTies{m: m, entries: e, start: make([]int, K+1)}
	for k := 0; k < K; k++ {
		for j, c := range e[k*L : (k+1)*L] {
			if c != 0 {
				t.cols = append(t.cols, j)
				t.vals = append(t.vals, float64(c))
			}
		}
		t.start[k+1] = len(t.cols)
	}
	return t
}

// apply adds scikit-learn's confidence term to one-vs-one votes: class k
// gets conf_k/(3(|conf_k|+1)), where conf_k sums the scores of its pairs
// signed in its favour. The term lies in (−⅓, ⅓), so it decides only
// between classes with equal votes, as sklearn's ovr_decision_function.
//
// conf_k is Σⱼ m[k][j]·s[j] over j in order. A 0 entry adds ±0, which
// leaves a sum that starts at +0 unchanged (it can never be −0), so only
// the non-zero entries are summed, in the same order, with the same result
// bit for bit; a row with an infinite score (0·∞ is NaN) takes every entry.
func (t *voteTies) apply(votes *mat.Dense, pred []int, s *mat.Dense) {
	K, L := t.m.Dims()
	n, _ := s.Dims()
	e := t.entries
	conf := make([]float64, K)
	for i := 0; i < n; i++ {
		row := s.RawRowView(i)[:L]
		if hasInf(row) {
			for k := range conf {
				var c float64
				for j, v := range e[k*L : (k+1)*L] {
					c += float64(v) * row[j]
				}
				conf[k] = c
			}
		} else {
			for k := range conf {
				var c float64
				for p, j := range t.cols[t.start[k]:t.start[k+1]] {
					c += t.vals[t.start[k]+p] * row[j]
				}
				conf[k] = c
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

// hasInf reports whether v holds +∞ or −∞.
func hasInf(v []float64) bool {
	for _, x := range v {
		if math.IsInf(x, 0) {
			return true
		}
	}
	return false
}

// argmax predicts the class of the largest score column. Class scores are
// the learner's probabilities normalised to sum to one when it has them
// (and the decoding says they are probabilities), else the softmax of the
// scores.
func argmax(req sdk.DecodeRequest, K int) sdk.Decoding {
	n, _ := req.Scores.Dims()
	d := sdk.Decoding{Predicted: make([]int, n), ClassScores: mat.NewDense(n, K, nil),
		ClassScoresAreProbabilities: req.Probabilities != nil}
	for i := 0; i < n; i++ {
		row := req.Scores.RawRowView(i)
		best, tie := 0, false
		for k := 1; k < K; k++ {
			switch {
			case row[k] > row[best]:
				best, tie = k, false
			case row[k] == row[best]:
				tie = true
			}
		}
		d.Predicted[i] = best
		if tie {
			d.Ties++
		}
		out := d.ClassScores.RawRowView(i)
		if req.Probabilities != nil {
			normalise(out, req.Probabilities.RawRowView(i))
		} else {
			codes.SoftmaxRow(out, row)
		}
	}
	return d
}

// normalise writes p scaled to sum to one (uniform if it sums to zero).
func normalise(dst, p []float64) {
	var s float64
	for _, v := range p {
		s += v
	}
	for k, v := range p {
		if s > 0 {
			dst[k] = v / s
		} else {
			dst[k] = 1 / float64(len(p))
		}
	}
}
