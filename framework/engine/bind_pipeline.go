package engine

import (
	"maps"
	"slices"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/polyclass/polyclass/framework/config"
	"github.com/polyclass/polyclass/framework/encode"
	"github.com/polyclass/polyclass/framework/param"
	"github.com/polyclass/polyclass/framework/suggest"
)

// bindPipeline binds pipeline block p, whose steps name encoders of
// encoders: each step becomes its encoder type's step, built from the
// encoder's options. It returns the pipeline (nil after an error) and the
// diagnostics.
func bindPipeline(p *config.Pipeline, encoders map[string]*config.Encoder) (*Pipeline, hcl.Diagnostics) {
	var ck checker
	out := &Pipeline{Config: p}
	ok := true
	for _, name := range p.Steps {
		e := encoders[name]
		if e == nil {
			ok = false // reported by the parser
			continue
		}
		step := ck.encoderStep(e)
		if step == nil {
			ok = false
			continue
		}
		out.Steps = append(out.Steps, step)
	}
	if !ok {
		return nil, ck.diags
	}
	return out, ck.diags
}

// encoderStep builds the step of encoder e: its type's, with its options
// checked against the type's (columns = [], which would encode nothing,
// is an error); nil after an error.
func (ck *checker) encoderStep(e *config.Encoder) encode.Step {
	kinds := encode.Kinds()
	kind, found := kinds[e.Type]
	if !found {
		names := slices.Sorted(maps.Keys(kinds))
		ck.errorf(e.TypeRange, "Unknown encoder type", "Encoder %q has type %q%s; the types are: %s.", e.Name, e.Type, suggest.DidYouMean(e.Type, names), strings.Join(names, ", "))
		return nil
	}
	params, diags := e.BindOptions(kind.Options)
	if params == nil {
		ck.diags = append(ck.diags, diags...)
		return nil
	}
	if c, ok := e.Options["columns"]; ok && c.Value.Kind() == param.ListValue && len(c.Value.Elems()) == 0 {
		ck.errorf(c.Range, "Encoder column not encoded", "Encoder %q (%s): columns = [] names no column, so the step would encode nothing; list the columns, or leave columns out for every %s column.", e.Name, e.Type, kind.Takes)
		return nil
	}
	step, err := kind.New(params)
	if err != nil {
		ck.errorf(e.DeclRange, "Invalid encoder", "Encoder %q: %v", e.Name, err)
		return nil
	}
	return step
}
