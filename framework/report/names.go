package report

import (
	"fmt"
	"slices"
	"strings"

	"github.com/polyclass/polyclass/framework/setup"
)

// tunedMark is what a tuned learner's parameters end in (engine.Cell.ID).
const tunedMark = " (tuned)"

// nameParts is a row's coordinates cut into the parts a name is made of:
// the encoder, the learner, each parameter ("C=1"), whether it is tuned,
// and the reduction (with the parameters its block varies: "ecoc[decode=hamming]").
type nameParts struct {
	encoder, learner, reduction string
	params                      []param1
	tuned                       bool
}

// param1 is one parameter of a row: its name and value as the tables
// write them.
type param1 struct{ name, value string }

// partsOf cuts a row's coordinates into their parts.
func partsOf(k setup.Key) nameParts {
	p := nameParts{encoder: k.Encoder, learner: k.Learner, reduction: k.Reduction}
	params, tuned := strings.CutSuffix(k.Params, tunedMark)
	if params == "(tuned)" { // a labelled tuned learner shows only this
		params, tuned = "", true
	}
	p.tuned = tuned
	for _, s := range splitParams(params) {
		name, value, _ := strings.Cut(s, "=")
		p.params = append(p.params, param1{name, value})
	}
	return p
}

// splitParams cuts "C=[0.1, 1],kernel=rbf" (param.Params.String) into
// "C=[0.1, 1]" and "kernel=rbf": at the commas outside brackets that
// begin a new name=value.
func splitParams(s string) []string {
	if s == "" {
		return nil
	}
	var out []string
	depth, start := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '[':
			depth++
		case ']':
			depth--
		case ',':
			if depth == 0 && startsParam(s[i+1:]) {
				out = append(out, s[start:i])
				start = i + 1
			}
		}
	}
	return append(out, s[start:])
}

// startsParam tells whether s begins with a parameter's name and "=".
func startsParam(s string) bool {
	name, _, ok := strings.Cut(s, "=")
	if !ok || name == "" {
		return false
	}
	for i, r := range name {
		if !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || i > 0 && r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}

// words are the parts in the order of a row's label, empty ones left out.
func (p nameParts) words() []string {
	var w []string
	if p.encoder != "" {
		w = append(w, p.encoder)
	}
	w = append(w, p.learner)
	for _, q := range p.params {
		w = append(w, q.name+"="+q.value)
	}
	if p.tuned {
		w = append(w, strings.TrimSpace(tunedMark))
	}
	if p.reduction != "" {
		w = append(w, p.reduction)
	}
	return w
}

// ShortNames returns the short name of each row, given what the tables
// show for its coordinates (setup.Row.Show): its learner (the learner's
// label when its block has one) followed by what tells it apart from the
// other rows of that learner — the pipeline, the parameters and the
// tuning mark, the reduction — each only when it differs between those
// rows, in the order of the full label. "logreg C=[0.1, 1, 10] (tuned)
// ova" beside "svm ova" is "logreg"; logreg under ova and ovo is "logreg
// ova" and "logreg ovo". The names depend on the set of rows only, not
// on their order. Rows that would still share a name (a learner's label
// with spaces, "LR ova", beside learner LR's rows "LR ova" and "LR ovo")
// take their full labels, and a number after them if they still do.
func ShortNames(shown []setup.Key) []string {
	parts := make([]nameParts, len(shown))
	groups := map[string][]int{}
	for i, k := range shown {
		parts[i] = partsOf(k)
		groups[k.Learner] = append(groups[k.Learner], i)
	}
	names := make([]string, len(shown))
	for _, rows := range groups {
		v := varying(parts, rows)
		for _, i := range rows {
			names[i] = v.name(parts[i])
		}
	}
	return disambiguate(names, shown)
}

// varied says which parts differ between some rows of one learner.
type varied struct {
	encoder, tuned, reduction bool
	params                    map[string]bool
}

// varying returns the parts that differ between the rows of parts that
// rows picks.
func varying(parts []nameParts, rows []int) varied {
	v := varied{params: map[string]bool{}}
	first := parts[rows[0]]
	values := map[string]map[string]bool{}
	for _, i := range rows {
		p := parts[i]
		v.encoder = v.encoder || p.encoder != first.encoder
		v.tuned = v.tuned || p.tuned != first.tuned
		v.reduction = v.reduction || p.reduction != first.reduction
		for _, q := range p.params {
			if values[q.name] == nil {
				values[q.name] = map[string]bool{}
			}
			values[q.name][q.value] = true
		}
	}
	for name, vals := range values {
		// A parameter some rows lack differs too.
		v.params[name] = len(vals) > 1 || countWith(parts, rows, name) < len(rows)
	}
	return v
}

// countWith counts the rows that have parameter name.
func countWith(parts []nameParts, rows []int, name string) int {
	n := 0
	for _, i := range rows {
		if slices.ContainsFunc(parts[i].params, func(q param1) bool { return q.name == name }) {
			n++
		}
	}
	return n
}

// name is a row's name with the parts v says differ.
func (v varied) name(p nameParts) string {
	q := nameParts{learner: p.learner, tuned: v.tuned && p.tuned}
	if v.encoder {
		q.encoder = p.encoder
	}
	for _, x := range p.params {
		if v.params[x.name] {
			q.params = append(q.params, x)
		}
	}
	if v.reduction {
		q.reduction = p.reduction
	}
	return strings.Join(q.words(), " ")
}

// disambiguate gives the rows whose names are alike their full labels
// (with the pipeline), then a number in the order of those labels.
func disambiguate(names []string, shown []setup.Key) []string {
	for pass := range 2 {
		seen := map[string][]int{}
		for i, n := range names {
			seen[n] = append(seen[n], i)
		}
		for _, same := range seen {
			if len(same) < 2 {
				continue
			}
			if pass == 0 {
				for _, i := range same {
					names[i] = shown[i].Label(shown[i].Encoder != "")
				}
				continue
			}
			slices.SortFunc(same, func(a, b int) int { return strings.Compare(fmt.Sprint(shown[a]), fmt.Sprint(shown[b])) })
			for n, i := range same[1:] {
				names[i] = fmt.Sprintf("%s (%d)", names[i], n+2)
			}
		}
	}
	return names
}

// nameRows sets the rows' short names (Label) from what they show.
func nameRows(rows []Row) {
	shown := make([]setup.Key, len(rows))
	for i, r := range rows {
		shown[i] = setup.Key{Encoder: r.Encoder, Learner: r.Learner, Params: r.Params, Reduction: r.Reduction}
	}
	for i, n := range ShortNames(shown) {
		rows[i].Label = n
	}
}
