package config

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
)

// ClassWeight is a learner's or reduction's class_weight: "balanced", or a
// map of class name to weight (classes left out weigh 1). The host turns
// it into per-row weights of every problem the learner trains.
type ClassWeight struct {
	// Balanced weighs each class by n / (K · n_k), as scikit-learn's
	// class_weight = "balanced".
	Balanced bool
	// ByClass maps class names to weights (not Balanced).
	ByClass map[string]float64
	Range   hcl.Range
}

// String is "balanced" or the map in sorted order, e.g. "{a=2, b=0.5}".
func (w *ClassWeight) String() string {
	if w == nil {
		return ""
	}
	if w.Balanced {
		return "balanced"
	}
	names := slices.Sorted(maps.Keys(w.ByClass))
	parts := make([]string, len(names))
	for i, n := range names {
		parts[i] = fmt.Sprintf("%s=%v", n, w.ByClass[n])
	}
	return "{" + strings.Join(parts, ", ") + "}"
}

// classWeight decodes a class_weight attribute.
func (d *decoder) classWeight(a *hcl.Attribute) *ClassWeight {
	v, ok := d.value(a)
	if !ok {
		return nil
	}
	w := &ClassWeight{Range: a.Expr.Range()}
	if v.Type() == cty.String {
		if v.AsString() != "balanced" {
			d.errorf(a.Expr.Range(), "Invalid class_weight", `class_weight is "balanced" or a map of class to weight such as { tableware = 5 }, not %q.`, v.AsString())
			return nil
		}
		w.Balanced = true
		return w
	}
	m, err := convert.Convert(v, cty.Map(cty.Number))
	if err != nil || m.LengthInt() == 0 {
		d.errorf(a.Expr.Range(), "Invalid class_weight", `class_weight is "balanced" or a non-empty map of class to weight such as { tableware = 5 }.`)
		return nil
	}
	w.ByClass = map[string]float64{}
	for k, e := range m.AsValueMap() {
		f, _ := e.AsBigFloat().Float64()
		if !(f >= 0) || math.IsInf(f, 0) {
			d.errorf(a.Expr.Range(), "Invalid class_weight", "class_weight of class %q must be a finite number >= 0, not %v.", k, f)
			return nil
		}
		w.ByClass[k] = f
	}
	return w
}
