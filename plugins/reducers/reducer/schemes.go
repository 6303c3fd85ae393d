package reducer

import (
	"errors"
	"fmt"
	"strings"

	"github.com/polyclass/polyclass/framework/sdk"
	"github.com/polyclass/polyclass/plugins/reducers/codes"
)

// The multiclass schemes' names.
const (
	OVA     = "ova"
	Ordered = "ordered"
	OVO     = "ovo"
	ECOC    = "ecoc"
	None    = "none"
)

// scheme is one multiclass reduction scheme: all the plugin knows of it,
// in one place (as package metrics' catalog is for the metrics). Info
// lists its info, Plan builds its matrix, describe words it.
type scheme struct {
	// info is what Info says of it: name, description, parameters (the
	// decoders it allows among them).
	info sdk.Scheme
	// matrix builds its code matrix for a request; nil for the native
	// scheme (none), which plans one multiclass problem.
	matrix func(req sdk.PlanRequest) (*codes.Matrix, error)
	// code describes its code matrix in words, the same for every dataset
	// where the parameters allow (sdk.PlanDescription.Code).
	code func(p sdk.Params) string
	// check reports what is wrong with its parameters whatever the
	// classes (CheckScheme); nil where Plan alone can tell.
	check func(p sdk.Params) error
	// argmax, the decoder's words when decode = argmax applies (ova,
	// none): "" where it does not.
	argmax string
	// oneVsOne marks the one-vs-one code: its ties parameter and vote
	// tie-breaks, and complementary columns that are no defect
	// (asymmetric pairs).
	oneVsOne bool
}

// schemes returns the multiclass schemes, in the order Info lists them.
func schemes() []scheme {
	return []scheme{
		{
			info: sdk.Scheme{Name: OVA, RowWiseDecode: true,
				Description: "one-vs-all: K problems, class k = +1, the rest −1; predict the argmax of the scores",
				Params:      []sdk.ParamSpec{decodeSpec(Argmax, append([]string{Argmax}, codeDecoders()...))}},
			matrix: func(req sdk.PlanRequest) (*codes.Matrix, error) { return codes.OVA(req.NumClasses) },
			code:   func(sdk.Params) string { return "one-vs-all: K columns, class k +1, the rest −1" },
			argmax: "the class of the largest score (the learners' probabilities, normalised, when they have them)",
		},
		{
			info: sdk.Scheme{Name: Ordered, RowWiseDecode: true,
				Description: "ordered one-vs-rest (decision list): C1 vs {C2..CK}, C2 vs {C3..CK}, …; K−1 problems",
				Params: []sdk.ParamSpec{decodeSpec(codes.Sequential, codes.DecoderNames()),
					{Name: "order", Type: sdk.StringListParam, Description: "class names in decision order (default: by descending training frequency)"}}},
			matrix: orderedMatrix,
			code:   orderedWords,
		},
		{
			info: sdk.Scheme{Name: OVO, RowWiseDecode: true,
				Description: "one-vs-one: K(K−1)/2 problems class i (+1) vs class j (−1); asymmetric adds the swapped pairs",
				Params: []sdk.ParamSpec{decodeSpec(codes.Vote, append(codeDecoders(), codes.DAG)),
					{Name: "asymmetric", Type: sdk.BoolParam, Default: sdk.Bool(false), Description: "also train j vs i for every pair (K(K−1) problems)"},
					{Name: "ties", Type: sdk.StringParam, Default: sdk.String(TiesConfidence), Allowed: []string{TiesConfidence, TiesLibsvm},
						Description: "decode = vote: confidence breaks equal votes by scikit-learn's confidence term (OneVsOneClassifier, SVC); libsvm votes as LIBSVM's svm-predict: a pair's vote goes to its class seen first in the training rows when the score for it is positive, else to the other, and equal votes to the class seen first"}}},
			matrix: func(req sdk.PlanRequest) (*codes.Matrix, error) {
				return codes.OVO(req.NumClasses, req.Params.Bool("asymmetric"))
			},
			code:     ovoWords,
			oneVsOne: true,
		},
		{
			info: sdk.Scheme{Name: ECOC, RowWiseDecode: true,
				Description: "error-correcting output codes: a user matrix (matrix, classes) or a generated code (code)",
				Params: []sdk.ParamSpec{decodeSpec(codes.Hamming, codeDecoders()),
					{Name: "matrix", Type: sdk.NumberMatrixParam, Description: "K×L matrix of +1/0/−1, one row per class"},
					{Name: "classes", Type: sdk.StringListParam, Description: "class name of each matrix row (default: sorted class names)"},
					{Name: "code", Type: sdk.StringParam, Allowed: []string{codeRandomDense, codeRandomSparse, codeExhaustive}, Description: "generated code when no matrix is given"},
					{Name: "length", Type: sdk.IntegerParam, Min: sdk.Bound(1), Description: "columns of a random code (default ⌈factor·log2 K⌉)"},
					{Name: "factor", Type: sdk.NumberParam, Min: sdk.Bound(0), MinExclusive: true, Description: "random code length factor (default 10 dense, 15 sparse)"},
				}},
			matrix: ecocMatrix,
			code:   ecocWords,
			check:  checkEcoc,
		},
		{
			info: sdk.Scheme{Name: None, RowWiseDecode: true,
				Description:     "no reduction: one native multiclass problem",
				NeedsMulticlass: true,
				Params:          []sdk.ParamSpec{decodeSpec(Argmax, []string{Argmax})}},
			code:   func(sdk.Params) string { return "none: one multiclass problem for the learner" },
			argmax: "the class of the largest score (the learner's probabilities when it has them)",
		},
	}
}

// lookupScheme returns the multiclass scheme called name.
func lookupScheme(name string) (scheme, bool) {
	for _, s := range schemes() {
		if s.info.Name == name {
			return s, true
		}
	}
	return scheme{}, false
}

// schemeInfos is the Info of each multiclass scheme, in table order.
func schemeInfos() []sdk.Scheme {
	var infos []sdk.Scheme
	for _, s := range schemes() {
		infos = append(infos, s.info)
	}
	return infos
}

// The generated codes of the ecoc scheme (its code parameter).
const (
	codeRandomDense  = "random_dense"
	codeRandomSparse = "random_sparse"
	codeExhaustive   = "exhaustive"
)

// orderedMatrix is the decision list of the ordered scheme: in the order
// the order parameter gives, else by descending training frequency.
func orderedMatrix(req sdk.PlanRequest) (*codes.Matrix, error) {
	names := req.Params.Strings("order")
	if names == nil {
		order, err := codes.FrequencyOrder(req.Labels, req.NumClasses)
		if err != nil {
			return nil, err
		}
		return codes.Ordered(order)
	}
	order, err := classIndices(names, req.ClassNames, "order")
	if err != nil {
		return nil, sdk.WithParam("order", err)
	}
	m, err := codes.Ordered(order)
	return m, sdk.WithParam("order", err)
}

// ecocMatrix is the ecoc scheme's code: the user's matrix, else the code
// generated as the code parameter says.
func ecocMatrix(req sdk.PlanRequest) (*codes.Matrix, error) {
	p := req.Params
	if rows := p.Matrix("matrix"); rows != nil {
		if p.Str("code") != "" {
			return nil, errMatrixAndCode
		}
		return userMatrix(req, rows)
	}
	switch code := p.Str("code"); code {
	case codeExhaustive:
		m, err := codes.Exhaustive(req.NumClasses)
		return m, sdk.WithParam("code", err)
	case codeRandomDense, codeRandomSparse:
		return randomMatrix(req, code)
	case "":
		return nil, errNoCode
	default:
		return nil, sdk.WithParam("code", fmt.Errorf("unknown code %q", code))
	}
}

// checkEcoc reports the ecoc scheme's faults that show without data: a
// user matrix beside a generated code, the matrix's own faults (an entry
// outside {−1, 0, +1}, ragged or identical rows; not its row count, which
// needs the classes), and neither a matrix nor a code.
func checkEcoc(p sdk.Params) error {
	rows := p.Matrix("matrix")
	switch {
	case rows != nil && p.Str("code") != "":
		return errMatrixAndCode
	case rows != nil:
		if err := codes.CheckRows(rows, codes.UnknownClasses); err != nil {
			return sdk.WithParam("matrix", err)
		}
		return nil
	case p.Str("code") == "":
		return errNoCode
	}
	return nil
}

// The ecoc scheme's faults of its parameters as a whole, which Plan and
// CheckScheme both report.
var (
	errMatrixAndCode = sdk.WithParam("matrix", errors.New("give either matrix or code, not both"))
	errNoCode        = errors.New(`scheme ecoc needs matrix = [[...], ...] or code = "random_dense" | "random_sparse" | "exhaustive"`)
)

// userMatrix is the code matrix the ecoc scheme's matrix parameter gives,
// its rows in class index order (row r is class classes[r] when the
// classes parameter is given).
func userMatrix(req sdk.PlanRequest, rows [][]float64) (*codes.Matrix, error) {
	K := req.NumClasses
	// Every problem of the matrix and of its classes at once, not one per
	// pass: each error blames its own parameter.
	names := req.Params.Strings("classes")
	var idx []int
	rowsErr := codes.CheckRows(rows, K)
	var classesErr error
	if names != nil {
		idx, classesErr = classIndices(names, req.ClassNames, "classes")
	}
	switch {
	case rowsErr != nil && classesErr != nil:
		return nil, fmt.Errorf("%w; %w", sdk.WithParam("matrix", rowsErr), sdk.WithParam("classes", classesErr))
	case rowsErr != nil:
		return nil, sdk.WithParam("matrix", rowsErr)
	case classesErr != nil:
		return nil, sdk.WithParam("classes", classesErr)
	}
	m, err := codes.FromRows(rows)
	if err != nil {
		return nil, sdk.WithParam("matrix", err)
	}
	if names == nil {
		return m, nil
	}
	_, L := m.Dims()
	entries := make([]int8, K*L)
	for r, k := range idx {
		copy(entries[k*L:(k+1)*L], m.Row(r))
	}
	return codes.NewMatrix(K, L, entries)
}

// randomMatrix is a random dense or sparse code of the length the length
// parameter gives, else ⌈factor·log₂ K⌉ columns.
func randomMatrix(req sdk.PlanRequest, code string) (*codes.Matrix, error) {
	K, p := req.NumClasses, req.Params
	L := randomLength(req, code)
	blame := "code"
	if p.Int("length") != 0 {
		blame = "length"
	}
	if code == codeRandomDense {
		m, err := codes.RandomDense(K, L, req.Seed)
		return m, sdk.WithParam(blame, err)
	}
	m, err := codes.RandomSparse(K, L, req.Seed)
	return m, sdk.WithParam(blame, err)
}

// randomLength is the length of the request's random code: the length
// parameter, else ⌈factor·log₂ K⌉ columns, else the code's default.
func randomLength(req sdk.PlanRequest, code string) int {
	K, p := req.NumClasses, req.Params
	if L := p.Int("length"); L != 0 {
		return L
	}
	if f := p.Float("factor"); f > 0 {
		return codes.DefaultLength(K, f)
	}
	if code == codeRandomDense {
		return codes.DefaultDenseLength(K)
	}
	return codes.DefaultSparseLength(K)
}

// ovoWords describes a one-vs-one code.
func ovoWords(p sdk.Params) string {
	if p.Bool("asymmetric") {
		return "asymmetric one-vs-one: K(K−1) columns, each pair of classes both ways"
	}
	return "one-vs-one: K(K−1)/2 columns, class i +1 against class j −1, other classes left out"
}

// orderedWords describes an ordered one-vs-rest code.
func orderedWords(p sdk.Params) string {
	order := "classes by descending training frequency"
	if names := p.Strings("order"); names != nil {
		order = "classes in the order " + strings.Join(names, ", ")
	}
	return "ordered one-vs-rest (decision list): K−1 columns, each class against the classes after it, " + order
}
