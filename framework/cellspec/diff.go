package cellspec

import (
	"encoding/json"
	"fmt"
	"regexp"
	"sort"
	"strings"
)

// Diff names the inputs that differ between two specs of one cell, one
// line each, in the spec's order of parts: `dataset "glass": sha256
// 3f2a9c1d… → 91c0aa7e…`, `learner "sk": scikit-learn 1.2.1 → 1.4.2`,
// `learner "logreg": C 1 → 10`, `seed: 1 → 2`. Digests are cut to 8 hex
// digits; an input one spec lacks is "(none)". Equal specs give none.
func Diff(old, new *Spec) []string {
	a, b := flatten(old), flatten(new)
	keys := map[string]bool{}
	for k := range a {
		keys[k] = true
	}
	for k := range b {
		keys[k] = true
	}
	order := make([]string, 0, len(keys))
	for k := range keys {
		order = append(order, k)
	}
	sort.Slice(order, func(i, j int) bool {
		pi, pj := partRank(order[i]), partRank(order[j])
		if pi != pj {
			return pi < pj
		}
		return order[i] < order[j]
	})
	var out []string
	for _, k := range order {
		x, okx := a[k]
		y, oky := b[k]
		if okx && oky && x == y {
			continue
		}
		if !okx {
			x = "(none)"
		}
		if !oky {
			y = "(none)"
		}
		label, key, _ := strings.Cut(k, "\x00")
		out = append(out, fmt.Sprintf("%s: %s%s%s → %s", label, key, sep(key), x, y))
	}
	return out
}

// sep is the space between a key and its values, none for no key.
func sep(key string) string {
	if key == "" {
		return ""
	}
	return " "
}

// parts orders the lines of a diff as the spec orders its parts.
var parts = []string{"format", "cell", "seed", "dataset", "folds", "pipeline", "learner", "reduction", "class_weight", "tune", "metrics", "bench"}

func partRank(k string) int {
	for i, p := range parts {
		if strings.HasPrefix(k, p) {
			return i
		}
	}
	return len(parts)
}

var hexDigest = regexp.MustCompile(`^[0-9a-f]{64}$`)

// flatten maps each leaf of a spec to its text, keyed by "LABEL\x00KEY":
// the label names the part (`dataset "glass"`, `pipeline step 2 "std"`),
// the key the input within it ("sha256", "option with_mean",
// "scikit-learn").
func flatten(s *Spec) map[string]string {
	out := map[string]string{}
	if s == nil {
		return out
	}
	var v map[string]any
	if err := json.Unmarshal(s.Canonical(), &v); err != nil {
		return out
	}
	for part, x := range v {
		label := part
		switch part {
		case "dataset", "learner", "reduction":
			if m, ok := x.(map[string]any); ok {
				label = fmt.Sprintf("%s %q", part, m["name"])
				delete(m, "name")
			}
		case "pipeline":
			steps, _ := x.([]any)
			for i, st := range steps {
				m, _ := st.(map[string]any)
				walk(out, fmt.Sprintf("pipeline step %d %q", i+1, m["name"]), "", m)
			}
			if len(steps) == 0 {
				out["pipeline\x00"] = "(no steps)"
			}
			continue
		}
		walk(out, label, "", x)
	}
	return out
}

// walk adds the leaves of x under label, their keys prefixed by key.
func walk(out map[string]string, label, key string, x any) {
	join := func(k string) string {
		switch {
		case key == "":
			return k
		case key == "params" || strings.HasSuffix(key, "runtime"):
			return k // learner "sk": scikit-learn 1.4.2, learner "logreg": C 10
		case key == "options":
			return "option " + k
		}
		return key + " " + k
	}
	switch v := x.(type) {
	case map[string]any:
		for k, e := range v {
			walk(out, label, join(k), e)
		}
		if len(v) == 0 && key != "" {
			out[label+"\x00"+key] = "{}"
		}
	default:
		out[label+"\x00"+key] = text(v)
	}
}

// text writes a leaf: a digest cut to 8 hex digits, a list as written in
// an experiment file.
func text(x any) string {
	switch v := x.(type) {
	case string:
		if hexDigest.MatchString(v) {
			return v[:8] + "…"
		}
		return v
	case []any:
		parts := make([]string, len(v))
		for i, e := range v {
			parts[i] = text(e)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	case nil:
		return "null"
	}
	b, _ := json.Marshal(x)
	return string(b)
}
