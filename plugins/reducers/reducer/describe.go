package reducer

import (
	"fmt"
	"strconv"

	"github.com/polyclass/polyclass/framework/sdk"
	"github.com/polyclass/polyclass/plugins/reducers/codes"
)

// describe says in words what a plan of req is (sdk.Plan.Description),
// the same for every dataset where it can: the number of columns as a
// formula in K unless the parameters fix it.
func describe(req sdk.PlanRequest) sdk.PlanDescription {
	p := req.Params
	switch req.Scheme {
	case BinaryRelevance:
		return sdk.PlanDescription{Code: "binary relevance: one binary problem per label", Decoder: thresholdWords(p)}
	case Stacking:
		return sdk.PlanDescription{
			Code: fmt.Sprintf("2BR stacking: binary relevance, then binary relevance on the features and the %d-fold out-of-fold outputs of the first",
				p.Int("inner_folds")),
			Decoder: thresholdWords(p) + ", on the second stage's outputs"}
	case PLST:
		return sdk.PlanDescription{
			Code:    fmt.Sprintf("PLST: %d regressions on the top right singular vectors of the centred label matrix", p.Int("components")),
			Decoder: thresholdWords(p) + ", on the reconstructed label values"}
	}
	d := sdk.PlanDescription{Decoder: decoderWords(p.Str("decode"))}
	sc, ok := lookupScheme(req.Scheme)
	if !ok {
		return d
	}
	d.Code = sc.code(p)
	if sc.argmax != "" && p.Str("decode") == Argmax {
		d.Decoder = sc.argmax
	}
	return d
}

// ecocWords describes the code of an ecoc plan.
func ecocWords(p sdk.Params) string {
	if rows := p.Matrix("matrix"); rows != nil {
		cols := 0
		if len(rows) > 0 {
			cols = len(rows[0])
		}
		return fmt.Sprintf("user code matrix, %d × %d", len(rows), cols)
	}
	code := p.Str("code")
	if code == codeExhaustive {
		return "exhaustive code: 2^(K−1) − 1 columns, every split of the classes in two"
	}
	kind, factor, most := "dense {−1, +1}", float64(codes.DenseFactor), "2^(K−1) − 1"
	if code == codeRandomSparse {
		kind, factor, most = "sparse {−1, 0, +1}", codes.SparseFactor, "(3^K − 2^(K+1) + 1)/2"
	}
	length := ""
	switch {
	case p.Int("length") > 0:
		length = fmt.Sprintf("%d columns", p.Int("length"))
	default:
		if f := p.Float("factor"); f > 0 {
			factor = f
		}
		length = fmt.Sprintf("⌈%s·log₂ K⌉ columns (at most %s)", number(factor), most)
	}
	return fmt.Sprintf("random %s code, %s", kind, length)
}

// lossNames name the margin losses of the loss-based decoders.
var lossNames = map[string]string{
	codes.LossExp: "exponential", codes.LossHinge: "hinge", codes.LossLogit: "logistic",
	codes.LossSquared: "squared", codes.LossZeroOne: "0–1", codes.LossLinear: "linear",
}

// decoderWords describes a code decoder.
func decoderWords(name string) string {
	if loss, ok := lossNames[name]; ok {
		return "loss-based decoding (Allwein, Schapire & Singer 2000), " + loss + " loss of the scores"
	}
	switch name {
	case Argmax:
		return "the class of the largest score"
	case codes.Hamming:
		return "Hamming decoding: the class whose code word is nearest the scores' signs"
	case codes.Vote:
		return "votes: each column's sign votes for its classes, the most votes win"
	case codes.Coverage:
		return "coverage: the positive classifiers' training coverage of each class, summed"
	case codes.Sequential:
		return "sequential: the first class in the order whose classifier claims the row"
	}
	return name
}

// thresholdWords describes the multi-label decoders' threshold.
func thresholdWords(p sdk.Params) string {
	return fmt.Sprintf("a label when its probability is at least %s (its score at least 0 without probabilities)",
		number(p.Float("threshold")))
}

// number formats a parameter's number as the experiment file would.
func number(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }
