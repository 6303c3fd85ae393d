package report

import (
	"strings"

	"github.com/polyclass/polyclass/framework/config"
	"github.com/polyclass/polyclass/framework/setup"
)

// paramsSep separates the parameters of a params cell: a semicolon, since
// a searched parameter's values are separated by commas.
const paramsSep = "; "

// tunedWord ends each searched parameter of a tuned row's params cell.
const tunedWord = "tuned"

// distKinds are the search-space distributions a tuned parameter's value
// may be written as (config.Distribution.String: "loguniform(0.001, 1000)").
var distKinds = []config.DistKind{config.LogUniform, config.Uniform, config.RandInt, config.Choice}

// paramsCell writes a row's parameters (outcome.ID.Params: "C=[0.1, 1,
// 10],solver=lbfgs (tuned)") as a paper does, for the tables' params
// column: a fixed parameter "solver = lbfgs", a tuned row's searched
// parameter its candidates as a set, "C ∈ {0.1, 1, 10} tuned", or its
// search distribution, "C ~ loguniform(0.001, 1000) tuned"; the searched
// first, each in name order, joined by "; " (a set's values are
// separated by commas). A tuned row that names no searched parameter
// (a labelled tuned learner shows only "(tuned)") says "tuned" first. The
// text is plain: each format escapes it as it escapes any cell. "–" for
// no parameters.
//
// A tuned row's value in brackets is taken for its candidates: the
// coordinates do not tell a searched number from a list-typed parameter
// fixed to a list (hidden = [10, 10]) beside a search; an untuned row's
// list is its value.
func paramsCell(params string) string {
	p := partsOf(setup.Key{Params: params})
	var searched, fixed []string
	for _, q := range p.params {
		if s, ok := searchedParam(q, p.tuned); ok {
			searched = append(searched, s)
			continue
		}
		fixed = append(fixed, q.name+" = "+q.value)
	}
	if p.tuned && len(searched) == 0 {
		searched = []string{tunedWord}
	}
	cell := strings.Join(append(searched, fixed...), paramsSep)
	if cell == "" {
		return "–"
	}
	return cell
}

// searchedParam writes parameter q of a row as a searched one, "C ∈ {0.1,
// 1, 10} tuned" or "C ~ loguniform(0.001, 1000) tuned", when the row is
// tuned and q's value is a list of candidates or a distribution.
func searchedParam(q param1, tuned bool) (string, bool) {
	if !tuned {
		return "", false
	}
	if inner, ok := strings.CutPrefix(q.value, "["); ok && strings.HasSuffix(inner, "]") {
		return q.name + " ∈ {" + strings.TrimSuffix(inner, "]") + "} " + tunedWord, true
	}
	if isDistribution(q.value) {
		return q.name + " ~ " + q.value + " " + tunedWord, true
	}
	return "", false
}

// isDistribution tells whether v is a search distribution as
// config.Distribution.String writes it.
func isDistribution(v string) bool {
	for _, k := range distKinds {
		if strings.HasPrefix(v, string(k)+"(") && strings.HasSuffix(v, ")") {
			return true
		}
	}
	return false
}
