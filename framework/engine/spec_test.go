package engine

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"

	"github.com/polyclass/polyclass/framework/cellspec"
	"github.com/polyclass/polyclass/framework/config"
	"github.com/polyclass/polyclass/framework/host"
	"github.com/polyclass/polyclass/framework/param"
	"github.com/polyclass/polyclass/framework/sdk"
)

// specGrid is a one-cell grid that sets every part of a spec, optional
// ones included (test file, tune block, class weight, calibration), with
// the config blocks it was resolved from, by type name.
func specGrid() (*Grid, map[string]any) {
	ds := &config.Dataset{Name: "glass", Path: "glass.csv", Target: "type", TargetDefaulted: true, Labels: []string{"l1"},
		LabelsPrefix: "label_", Categorical: []string{"c"}, Numeric: []string{"n"}, Ignore: []string{"id"},
		Missing: []string{"?"}, Delimiter: ";", FoldsFile: "glass.folds.csv", TestPath: "glass_test.csv"}
	enc := &config.Encoder{Name: "std", Type: "standardize", Options: map[string]config.Param{}}
	pl := &config.Pipeline{Name: "p", Steps: []string{"std"}}
	tune := &config.Tune{Folds: 5, Metric: "accuracy", InnerSeed: 0}
	cw := &config.ClassWeight{ByClass: map[string]float64{"a": 2}}
	lr := &config.Learner{Name: "logreg", Plugin: "logreg", Params: map[string]config.Param{"C": {Value: param.Number(1)}}, ClassWeight: cw, Tune: tune}
	rd := &config.Reduction{Name: "ova", Plugin: "reducers", Scheme: "ova", Calibrate: "platt"}
	exp := &config.Experiment{Name: "e", Seed: 1, Datasets: []*config.Dataset{ds}, Encoders: []*config.Encoder{enc},
		Pipelines: []*config.Pipeline{pl}, Learners: []*config.Learner{lr}, Reductions: []*config.Reduction{rd},
		CV: config.CV{Folds: 10, Repeats: 1, Stratified: true}, Metrics: []string{"accuracy", "log_loss"}}
	def := param.Number(1e-6)
	lp := &host.Plugin{Binary: host.Binary{Name: "logreg", SHA256: strings.Repeat("a", 64)},
		LearnerInfo: &sdk.LearnerInfo{Version: "1.0", Runtime: []sdk.Component{{Name: "go", Version: "1.26.8"}, {Name: "numpy", Version: "1.24.2", Path: "/usr/lib"}}, Params: []sdk.ParamSpec{{Name: "C", Type: param.NumberParam}, {Name: "tol", Type: param.NumberParam, Default: def}}}}
	rp := &host.Plugin{Binary: host.Binary{Name: "reducers", SHA256: strings.Repeat("b", 64)}, ReducerInfo: &sdk.ReducerInfo{Version: "2.0"}}
	d := &Dataset{Config: ds, SHA256: strings.Repeat("c", 64), TestSHA256: strings.Repeat("d", 64), Classes: []string{"a", "b"},
		MultiLabel: true, Folds: [][]int{{0, 1, 0, 1}}, NumFolds: 2}
	l := &Learner{Config: lr, Plugin: lp, Info: lp.LearnerInfo, TuneMetric: "accuracy"}
	r := &Reduction{Config: rd, Plugin: rp, Scheme: sdk.Scheme{Name: "ova", Params: []sdk.ParamSpec{{Name: "decode", Type: param.StringParam, Default: param.String("hamming")}}}}
	g := &Grid{Experiment: exp, Metrics: exp.Metrics, Datasets: []*Dataset{d}, Pipelines: []*Pipeline{{Config: pl}},
		Learners: []*Learner{l}, Reductions: []*Reduction{r}}
	g.Cells = []*Cell{{Dataset: d, Pipeline: g.Pipelines[0], Learner: l, Params: param.Params{"C": param.Number(1)}, Reduction: r, RedParams: param.Params{}}}
	return g, map[string]any{"Experiment": exp, "Dataset": ds, "Encoder": enc, "Pipeline": pl, "Learner": lr,
		"Reduction": rd, "Tune": tune, "ClassWeight": cw, "CV": &exp.CV, "Output": &exp.Output}
}

// schemaFields lists the fields of the experiment schema: every field of
// the struct types of package config reachable from config.Experiment, as
// TYPE.FIELD, with its type; hcl.Range fields (source locations) left out.
func schemaFields() map[string]reflect.Type {
	out := map[string]reflect.Type{}
	pkg := reflect.TypeFor[config.Experiment]().PkgPath()
	seen := map[reflect.Type]bool{}
	var walk func(reflect.Type)
	walk = func(ty reflect.Type) {
		for ty.Kind() == reflect.Pointer || ty.Kind() == reflect.Slice || ty.Kind() == reflect.Map {
			ty = ty.Elem()
		}
		if ty.Kind() != reflect.Struct || ty.PkgPath() != pkg || seen[ty] {
			return
		}
		seen[ty] = true
		for f := range ty.Fields() {
			if f.Type == reflect.TypeFor[hcl.Range]() || f.Type == reflect.TypeFor[[]hcl.Range]() {
				continue
			}
			out[ty.Name()+"."+f.Name] = f.Type
			walk(f.Type)
		}
	}
	walk(reflect.TypeFor[config.Experiment]())
	return out
}

// TestSpecAccountsForSchema: every field of the experiment schema is in
// the cell spec or listed, with its reason, as not changing a cell's
// numbers (schemaAccount); each "spec PATH" claim holds (changing the
// field changes the digest) and each PATH names a part of the spec.
func TestSpecAccountsForSchema(t *testing.T) {
	fields := schemaFields()
	for _, name := range slices.Sorted(mapsKeys(fields)) {
		if _, ok := schemaAccount[name]; !ok {
			t.Errorf("config.%s (%s) is neither in the cell spec nor listed as not changing a cell's numbers: "+
				"put what it determines into the spec (engine/spec.go) and list it in schemaAccount as \"spec PATH\" or \"from PATH: HOW\", "+
				"or list it there as \"not: REASON\"", name, fields[name])
		}
	}
	for name := range schemaAccount {
		if _, ok := fields[name]; !ok {
			t.Errorf("schemaAccount lists %s, which is no field of the experiment schema", name)
		}
	}
	g, blocks := specGrid()
	base := Specs(g, cellspec.Build{})[0]
	var doc any
	if err := json.Unmarshal(base.Canonical(), &doc); err != nil {
		t.Fatal(err)
	}
	for name, claim := range schemaAccount {
		kind, rest, _ := strings.Cut(claim, " ")
		switch kind {
		case "not:":
			if strings.TrimSpace(rest) == "" {
				t.Errorf("%s: no reason given", name)
			}
			continue
		case "spec", "from":
		default:
			t.Errorf("%s: %q is neither \"spec PATH\", \"from PATH: HOW\" nor \"not: REASON\"", name, claim)
			continue
		}
		path, _, _ := strings.Cut(rest, ":")
		if !hasPath(doc, strings.Split(path, ".")) {
			t.Errorf("%s: the spec has no %s (sample spec %s)", name, path, base.Canonical())
		}
		if kind != "spec" {
			continue
		}
		typ, field, _ := strings.Cut(name, ".")
		v := reflect.ValueOf(blocks[typ]).Elem().FieldByName(field)
		old := reflect.New(v.Type()).Elem()
		old.Set(v)
		if !mutate(v) {
			t.Errorf("%s: the test cannot change a %s", name, v.Type())
			continue
		}
		if d := Specs(g, cellspec.Build{})[0].Digest(); d == base.Digest() {
			t.Errorf("%s is listed as in the spec at %s, but changing it leaves the digest as it was", name, path)
		}
		v.Set(old)
	}
}

func mapsKeys[V any](m map[string]V) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

// hasPath reports whether the JSON document doc has the object path p
// (through any element of an array).
func hasPath(doc any, p []string) bool {
	if len(p) == 0 {
		return true
	}
	switch v := doc.(type) {
	case map[string]any:
		x, ok := v[p[0]]
		return ok && hasPath(x, p[1:])
	case []any:
		for _, e := range v {
			if hasPath(e, p) {
				return true
			}
		}
	}
	return false
}

// mutate changes v to another value of its type.
func mutate(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.String:
		v.SetString(v.String() + "x")
	case reflect.Bool:
		v.SetBool(!v.Bool())
	case reflect.Int, reflect.Int64:
		v.SetInt(v.Int() + 1)
	case reflect.Uint64:
		v.SetUint(v.Uint() + 1)
	case reflect.Float64:
		v.SetFloat(v.Float() + 1)
	case reflect.Slice:
		if v.Type().Elem().Kind() != reflect.String {
			return false
		}
		v.Set(reflect.Append(reflect.AppendSlice(reflect.MakeSlice(v.Type(), 0, v.Len()+1), v), reflect.ValueOf("x")))
	case reflect.Map:
		m := reflect.MakeMap(v.Type())
		for _, k := range v.MapKeys() {
			m.SetMapIndex(k, v.MapIndex(k))
		}
		var e reflect.Value
		switch v.Type().Elem() {
		case reflect.TypeFor[float64]():
			e = reflect.ValueOf(7.0)
		case reflect.TypeFor[config.Param]():
			e = reflect.ValueOf(config.Param{Value: param.Number(7)})
		default:
			return false
		}
		m.SetMapIndex(reflect.ValueOf(fmt.Sprint("x", v.Len())), e)
		v.Set(m)
	default:
		return false
	}
	return true
}

// TestSpecOfSampleCell: the spec holds the plugins' runtimes without their
// paths, every parameter with the plugin's defaults, and the digest
// changes with a runtime version but not with a component's path.
func TestSpecOfSampleCell(t *testing.T) {
	g, _ := specGrid()
	s := Specs(g, cellspec.Build{Version: "v1"})[0]
	if got := fmt.Sprint(s.Learner.Plugin.Runtime); got != "map[go:1.26.8 numpy:1.24.2]" {
		t.Errorf("runtime %s", got)
	}
	if got := fmt.Sprint(s.Learner.Params, s.Reduction.Params); got != "map[C:1 tol:1e-06] map[decode:hamming]" {
		t.Errorf("params with defaults %s", got)
	}
	info := g.Learners[0].Info
	info.Runtime[1].Path = "/opt/other"
	if Specs(g, cellspec.Build{Version: "v1"})[0].Digest() != s.Digest() {
		t.Error("a component's path changed the digest")
	}
	info.Runtime[1].Version = "1.26.4"
	again := Specs(g, cellspec.Build{Version: "v1"})[0]
	if d := cellspec.Diff(s, again); fmt.Sprint(d) != `[learner "logreg": numpy 1.24.2 → 1.26.4]` {
		t.Errorf("diff %q", d)
	}
}
