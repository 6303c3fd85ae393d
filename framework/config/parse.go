package config

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"math"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync/atomic"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/gohcl"
	"github.com/hashicorp/hcl/v2/hclparse"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
	"github.com/zclconf/go-cty/cty/function/stdlib"

	"github.com/polyclass/polyclass/framework/param"
	"github.com/polyclass/polyclass/framework/safetext"
	"github.com/polyclass/polyclass/framework/suggest"
	"github.com/polyclass/polyclass/internal/regfile"
)

// rootSchema and variableSchema are the parts of the file read by hand (the
// blocks in order, variables before everything else); every other block is
// decoded by gohcl into a struct whose tags are its schema, as in Nomad's
// jobspec2.
var (
	rootSchema = &hcl.BodySchema{
		Attributes: []hcl.AttributeSchema{{Name: "metrics"}},
		Blocks: []hcl.BlockHeaderSchema{
			{Type: "experiment", LabelNames: []string{"name"}},
			{Type: "variable", LabelNames: []string{"name"}},
			{Type: "locals"},
			{Type: "dataset", LabelNames: []string{"name"}},
			{Type: "encoder", LabelNames: []string{"name"}},
			{Type: "pipeline", LabelNames: []string{"name"}},
			{Type: "learner", LabelNames: []string{"name"}},
			{Type: "reduction", LabelNames: []string{"name"}},
			{Type: "cv"},
			{Type: "output"},
		},
	}
	variableSchema = &hcl.BodySchema{Attributes: []hcl.AttributeSchema{{Name: "default"}, {Name: "description"}}}
)

// Defaults applied to attributes a file leaves out.
const (
	DefaultFolds = 10
	DefaultAlpha = 0.05
	// DefaultTimeout bounds one fold of one cell: one hour.
	DefaultTimeout = 3600
)

// DefaultMetrics returns the metrics reported when a file names none, for
// the kinds of data of its datasets: accuracy and macro_f1 for multiclass
// data; hamming_loss, subset_accuracy and macro_f1 for multi-label data
// (scikit-learn's hamming_loss, accuracy_score and f1_score(average="macro")
// on label matrices); both lists, in that order and without repeats, when
// the file has datasets of both kinds. A file of no multi-label dataset
// gets the multiclass list.
func DefaultMetrics(datasets []*Dataset) []string {
	multiclass, multiLabel := len(datasets) == 0, false
	for _, ds := range datasets {
		if ds.MultiLabel() {
			multiLabel = true
		} else {
			multiclass = true
		}
	}
	var out []string
	if multiclass {
		out = append(out, "accuracy", "macro_f1")
	}
	if multiLabel {
		for _, m := range []string{"hamming_loss", "subset_accuracy", "macro_f1"} {
			if !slices.Contains(out, m) {
				out = append(out, m)
			}
		}
	}
	return out
}

// MultiLabel reports whether the dataset declares label columns (labels or
// labels_prefix) and no target; one that sets both, an error (Conflicting
// targets), counts as multiclass, so that its default metrics add no
// error of their own.
func (ds *Dataset) MultiLabel() bool {
	return ds.Target == "" && (len(ds.Labels) > 0 || ds.LabelsPrefix != "")
}

// Functions are the functions experiment files may call: go-cty's standard
// library (range, pow, concat, format, merge, ...) and the search spaces of tuned
// parameters (loguniform, uniform, randint, choice; see Distribution).
// Those that build lists or text are bounded (MaxFunctionValues,
// MaxFunctionText).
func Functions() map[string]function.Function {
	fs := map[string]function.Function{
		"abs": stdlib.AbsoluteFunc, "ceil": stdlib.CeilFunc, "floor": stdlib.FloorFunc,
		"log": logFunc, "max": stdlib.MaxFunc, "min": stdlib.MinFunc, "pow": powFunc,
		"range": stdlib.RangeFunc, "concat": stdlib.ConcatFunc, "length": stdlib.LengthFunc,
		"format": stdlib.FormatFunc, "join": stdlib.JoinFunc, "lower": stdlib.LowerFunc,
		"upper": stdlib.UpperFunc, "flatten": stdlib.FlattenFunc, "distinct": stdlib.DistinctFunc,
		"reverse": stdlib.ReverseListFunc, "sort": stdlib.SortFunc, "zipmap": stdlib.ZipmapFunc,
		"setproduct": setProductFunc, "tolist": stdlib.MakeToFunc(cty.List(cty.DynamicPseudoType)),
		"merge": stdlib.MergeFunc,
	}
	// The functions that build lists, maps or text, refused beyond
	// MaxFunctionValues values or MaxFunctionText bytes (setproduct has
	// its own bound, range go-cty's).
	for _, name := range []string{"concat", "format", "join", "lower", "upper", "flatten",
		"distinct", "reverse", "sort", "zipmap", "tolist", "merge"} {
		fs[name] = bounded(name, fs[name])
	}
	maps.Copy(fs, distFuncs())
	return fs
}

// DefaultFormats returns the output formats written when a file names
// none.
func DefaultFormats() []string { return []string{"markdown", "csv"} }

// Parser reads experiment files, keeping their sources for diagnostics.
type Parser struct {
	p       *hclparse.Parser
	formats []string
	// evalLimit bounds the time decoding one file may take
	// (DefaultEvalLimit unless SetEvalLimit lowered it).
	evalLimit time.Duration
}

// DefaultEvalLimit bounds the time evaluating one experiment file may
// take: 10 s, far beyond what a file naming its grid needs, far below the
// minutes nested for expressions over range(1024) take (campaign 5 h07,
// h08).
const DefaultEvalLimit = 10 * time.Second

// SetEvalLimit sets the time evaluating a file may take, DefaultEvalLimit
// unless set to more than 0 (tests lower it).
func (p *Parser) SetEvalLimit(d time.Duration) { p.evalLimit = d }

// NewParser returns a Parser that accepts the output formats named by
// formats in output { formats = [...] }: those the application can write
// (bench passes report.FormatNames). The formats are passed in because
// the package that writes them reads experiments, so this one cannot ask
// it.
func NewParser(formats []string) *Parser {
	return &Parser{p: hclparse.NewParser(), formats: slices.Clone(formats), evalLimit: DefaultEvalLimit}
}

// Files returns the sources read so far, for printing diagnostics.
func (p *Parser) Files() map[string]*hcl.File { return p.p.Files() }

// ParseFile reads and decodes an experiment file. The Experiment is
// returned whenever the file could be read, with every diagnostic found
// (see ParseSource); it is complete only when they hold no error.
func (p *Parser) ParseFile(path string) (*Experiment, hcl.Diagnostics) {
	src, diags := ReadSource(path)
	if diags != nil {
		return nil, diags
	}
	return p.ParseSource(src, path)
}

// ReadSource reads the experiment file at path, a regular file (a named
// pipe or a device is refused, never waited on), up to one byte beyond
// MaxFileBytes, for ParseSource: a caller that checks the bytes (their
// digest) before they are parsed checks the very bytes parsed, read once.
// A file that cannot be read is one error saying why.
func ReadSource(path string) ([]byte, hcl.Diagnostics) {
	src, err := readBounded(path)
	if err != nil {
		// Say why: no such file, permission denied, a directory.
		reason := err
		var pe *fs.PathError
		if errors.As(err, &pe) {
			reason = pe.Err
		}
		return nil, hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Cannot read experiment file",
			Detail:   fmt.Sprintf("The experiment file %q cannot be read: %v.", path, reason),
		}}
	}
	return src, nil
}

// readBounded reads the experiment file at path, a regular file, up to
// one byte beyond MaxFileBytes: enough for checkBounds to refuse a larger
// one without reading it whole.
func readBounded(path string) ([]byte, error) {
	f, err := regfile.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, MaxFileBytes+1))
}

// ParseSource decodes an experiment from src, named filename in
// diagnostics and resolved against filename's directory.
//
// A file with syntax errors is decoded as far as the HCL parser read it
// (it goes on past an error where it can), so that one pass reports the
// syntax errors and every other error found in the rest of the file. What
// a syntax error may have caused is left out: any diagnostic within the
// top-level block or attribute that holds it, and the checks that need
// the whole file (names referring to other blocks, the blocks a file
// must have), since the parser may have skipped a declaration. The
// Experiment returned with a syntax error is then partial.
//
// A file larger than MaxFileBytes, or nested deeper than MaxNesting, is
// refused before it is parsed: the result is nil and one error, at the
// first byte beyond the bound. So is a file saved as UTF-16 (checkUTF16),
// with one error at its first byte, where the HCL parser gave one per
// character.
func (p *Parser) ParseSource(src []byte, filename string) (*Experiment, hcl.Diagnostics) {
	if d := checkUTF16(src, filename); d != nil {
		return nil, hcl.Diagnostics{d}
	}
	if d := checkBounds(src, filename); d != nil {
		if s := boundSnippet(src, d.Subject.Start.Byte); s != nil {
			p.p.AddFile(filename, &hcl.File{Bytes: s})
		}
		return nil, hcl.Diagnostics{d}
	}
	f, diags := p.p.ParseHCL(src, filename)
	if f == nil {
		return nil, diags
	}
	whole := !diags.HasErrors()
	var inText map[[2]string]bool
	if !whole {
		inText = declaredInText(src, filename)
	}
	exp, more := p.decodeWithin(f.Body, filename, inText)
	if exp == nil {
		return nil, append(diags, more...)
	}
	if !whole {
		exp.Partial = true
		exp.InText = inText
		more = Outside(more, faulty(f.Body, diags))
	}
	exp.Faulty = append(faulty(f.Body, diags), decodeFaulty(f.Body, more)...)
	exp.Source = src
	diags = append(diags, more...)
	return exp, diags
}

// checkUTF16 returns the error of src, the text of file filename, when it
// is UTF-16 rather than UTF-8 (safetext.UTF16), at its first two bytes;
// else nil. The error shows no source line: a UTF-16 line printed as
// UTF-8 is noise.
func checkUTF16(src []byte, filename string) *hcl.Diagnostic {
	enc := safetext.UTF16(src)
	if enc == "" {
		return nil
	}
	rng := hcl.Range{Filename: filename, Start: hcl.Pos{Line: 1, Column: 1, Byte: 0}, End: hcl.Pos{Line: 1, Column: 2, Byte: 2}}
	return &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Experiment file in UTF-16",
		Detail:  fmt.Sprintf("The file is encoded as %s; an experiment file must be UTF-8. Save it as UTF-8 (in your editor's Save As, or: iconv -f UTF-16 -t UTF-8 FILE > NEW).", enc),
		Subject: &rng}
}

// decodeWithin is decode bounded by p.evalLimit: past it, the result is
// nil and one error naming the file and the block being evaluated. HCL
// evaluation cannot be stopped, so the abandoned decode goes on in the
// background until it ends or the process exits (bench exits on the
// error).
func (p *Parser) decodeWithin(body hcl.Body, filename string, inText map[[2]string]bool) (*Experiment, hcl.Diagnostics) {
	type result struct {
		exp   *Experiment
		diags hcl.Diagnostics
	}
	var at atomic.Pointer[hcl.Block]
	done, started := make(chan result, 1), make(chan struct{})
	go func() {
		close(started)
		exp, diags := decode(body, filename, p.formats, inText, &at)
		done <- result{exp, diags}
	}()
	// The limit counts from the start of the decode, not of the goroutine
	// that runs it: on a busy machine the goroutine may wait longer than
	// the limit to be run, and the error would then name no block.
	<-started
	limit := p.evalLimit
	if limit <= 0 {
		limit = DefaultEvalLimit
	}
	timer := time.NewTimer(limit)
	defer timer.Stop()
	select {
	case r := <-done:
		return r.exp, withoutStacks(r.diags)
	case <-timer.C:
		return nil, hcl.Diagnostics{evalTooLong(filename, at.Load(), limit)}
	}
}

// evalTooLong is the error of a file whose evaluation passed limit while
// at b (nil before the first block).
func evalTooLong(filename string, b *hcl.Block, limit time.Duration) *hcl.Diagnostic {
	dg := &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Evaluation too long",
		Detail: fmt.Sprintf("Evaluating %s took more than %v, the most an experiment file may take; its for expressions or functions build too much.", filename, limit)}
	if b != nil {
		name := strings.Join(append([]string{b.Type}, quoted(b.Labels)...), " ")
		dg.Detail = fmt.Sprintf("Evaluating %s of %s took more than %v, the most an experiment file may take; its for expressions or functions build too much.", name, filename, limit)
		dg.Subject = b.DefRange.Ptr()
	}
	return dg
}

// quoted returns labels each in double quotes, as a file writes them.
func quoted(labels []string) []string {
	out := make([]string, len(labels))
	for i, l := range labels {
		out[i] = strconv.Quote(l)
	}
	return out
}

// faulty returns the ranges of body that the errors in diags may have
// left incomplete: each error's own range and the top-level block or
// attribute that holds it.
func faulty(body hcl.Body, diags hcl.Diagnostics) []hcl.Range {
	return faultyIn(body, diags, false)
}

// decodeFaulty returns the ranges of body that the decoder's errors in
// diags may have left incomplete, as faulty does, except that an error
// inside a nested block (a learner's tune block) faults only its own
// range: the decoder keeps a nested block's defaults for a setting it
// refuses, so that the rest of the nested block and its parent are whole,
// and a later check of them (the learner's parameters, the tune metric)
// reports what it finds there.
func decodeFaulty(body hcl.Body, diags hcl.Diagnostics) []hcl.Range {
	return faultyIn(body, diags, true)
}

// faultyIn is faulty, and decodeFaulty when nested is set.
func faultyIn(body hcl.Body, diags hcl.Diagnostics, nested bool) []hcl.Range {
	var items []hcl.Range
	var inner []hcl.Range
	if b, ok := body.(*hclsyntax.Body); ok {
		for _, blk := range b.Blocks {
			items = append(items, blk.Range())
			for _, sub := range blk.Body.Blocks {
				inner = append(inner, sub.Range())
			}
		}
		for _, a := range b.Attributes {
			items = append(items, a.SrcRange)
		}
	}
	var out []hcl.Range
	for _, d := range diags {
		if _, whole := d.Extra.(readWhole); d.Severity != hcl.DiagError || d.Subject == nil || whole {
			continue
		}
		out = append(out, *d.Subject)
		if nested && slices.ContainsFunc(inner, func(r hcl.Range) bool { return r.ContainsPos(d.Subject.Start) }) {
			continue
		}
		for _, it := range items {
			if it.ContainsPos(d.Subject.Start) {
				out = append(out, it)
			}
		}
	}
	return out
}

// Outside returns the diagnostics of diags whose subject overlaps none of
// ranges (such as an Experiment's Faulty), and those about no place.
func Outside(diags hcl.Diagnostics, ranges []hcl.Range) hcl.Diagnostics {
	var out hcl.Diagnostics
	for _, d := range diags {
		if d.Subject == nil || !slices.ContainsFunc(ranges, d.Subject.Overlaps) {
			out = append(out, d)
		}
	}
	return out
}

// decoder accumulates diagnostics while decoding.
type decoder struct {
	ctx   *hcl.EvalContext
	diags hcl.Diagnostics
	dir   string
	// formats are the output formats the application writes.
	formats []string
	// whole is false for a body the parser read only in part (a syntax
	// error): the checks that need every block are left out.
	whole bool
	// inText holds the type and name of every block the file's text
	// declares, parsed or not (declaredInText), when !whole: a name that
	// refers to none of them is unknown even in a file read in part.
	inText map[[2]string]bool
	// at is the block being evaluated, for the error of an evaluation
	// that takes too long (decodeWithin).
	at *atomic.Pointer[hcl.Block]
}

// warnf adds a warning at rng.
func (d *decoder) warnf(rng hcl.Range, summary, format string, args ...any) {
	d.diags = append(d.diags, &hcl.Diagnostic{Severity: hcl.DiagWarning, Summary: summary, Detail: fmt.Sprintf(format, args...), Subject: &rng})
}

// errorf adds an error at rng, or about the whole file when rng is empty.
func (d *decoder) errorf(rng hcl.Range, summary, format string, args ...any) {
	dg := &hcl.Diagnostic{Severity: hcl.DiagError, Summary: summary, Detail: fmt.Sprintf(format, args...)}
	if rng != (hcl.Range{}) {
		dg.Subject = &rng
	}
	d.diags = append(d.diags, dg)
}

// readWhole marks the diagnostic of a value the decoder read whole (a
// metric listed twice, an unknown output format): it leaves the block or
// attribute that holds it out of the faulty ones (see faulty), so that
// the checks of what it holds (the other metrics, the baseline) still run
// in the same pass.
type readWhole struct{}

// wholef reports an error, at rng, about a value read whole (readWhole).
func (d *decoder) wholef(rng hcl.Range, summary, format string, args ...any) {
	d.errorf(rng, summary, format, args...)
	d.diags[len(d.diags)-1].Extra = readWhole{}
}

func decode(body hcl.Body, path string, formats []string, inText map[[2]string]bool, at *atomic.Pointer[hcl.Block]) (*Experiment, hcl.Diagnostics) {
	whole := inText == nil
	d := &decoder{dir: filepath.Dir(path), formats: formats, whole: whole, inText: inText, at: at}
	content, diags := body.Content(rootSchema)
	d.diags = append(d.diags, diags...)
	exp := &Experiment{File: path, Dir: d.dir, CV: CV{Folds: DefaultFolds, Repeats: 1, Stratified: true, Timeout: DefaultTimeout},
		Output: Output{Formats: DefaultFormats(), Alpha: DefaultAlpha}}

	d.ctx = d.evalContext(content.Blocks)

	seen := map[[2]string]hcl.Range{} // type and name of each block
	var firstExperiment *hcl.Block
	for _, b := range content.Blocks {
		if b.Type == "experiment" && d.repeatedExperiment(b, &firstExperiment) {
			continue
		}
		if !d.unique(b, seen) {
			continue
		}
		d.at.Store(b)
		switch b.Type {
		case "experiment":
			d.experiment(b, exp)
		case "dataset":
			exp.Datasets = append(exp.Datasets, d.dataset(b))
		case "encoder":
			exp.Encoders = append(exp.Encoders, d.encoder(b))
		case "pipeline":
			exp.Pipelines = append(exp.Pipelines, d.pipeline(b))
		case "learner":
			exp.Learners = append(exp.Learners, d.learner(b))
		case "reduction":
			exp.Reductions = append(exp.Reductions, d.reduction(b))
		case "cv":
			d.cv(b, &exp.CV)
		case "output":
			d.output(b, &exp.Output)
		}
	}
	if firstExperiment == nil && whole {
		// At the file's first block, where the experiment block goes (the
		// body's missing-item range is the file's start, which may be a
		// blank line or a comment).
		at := body.MissingItemRange()
		if len(content.Blocks) > 0 {
			at = content.Blocks[0].DefRange
		}
		d.diags = append(d.diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Missing experiment block",
			Detail: `An experiment file needs an experiment "NAME" { seed = N } block (seed is optional; it is 0 when left out).`, Subject: &at})
	}
	if a, ok := content.Attributes["metrics"]; ok {
		d.decodeExpr(a, &exp.Metrics)
		exp.MetricsRange = a.Expr.Range()
		exp.MetricRanges = d.metricList(a, exp.Metrics, exp.Datasets)
	} else {
		exp.Metrics = DefaultMetrics(exp.Datasets)
		exp.MetricsRange = body.MissingItemRange()
	}
	if exp.Output.Dir == "" {
		// Like most command-line tools: relative to the working directory.
		exp.Output.Dir = filepath.Join("results", exp.Name)
	}
	d.crossCheck(exp)
	return exp, d.diags
}

// unique checks the name of block b and reports whether it is the first
// block of its type and name; seen holds the ones before it.
func (d *decoder) unique(b *hcl.Block, seen map[[2]string]hcl.Range) bool {
	key := [2]string{b.Type, ""}
	if len(b.Labels) > 0 {
		key[1] = b.Labels[0]
		if why := labelProblem(key[1]); why != "" {
			d.errorf(b.LabelRanges[0], "Invalid "+b.Type+" name",
				"%s %s: a name is made of letters, digits, _, - and . (at most %d bytes) and does not start with a dot, since it names files in the results directory.", quoteShort(key[1]), why, MaxNameBytes)
		}
	}
	prev, dup := seen[key]
	switch {
	case dup && len(b.Labels) == 0:
		d.errorf(b.DefRange, "Duplicate "+b.Type+" block", "Only one %s block is allowed; the first is at %s.", b.Type, prev)
	case dup:
		d.errorf(b.LabelRanges[0], "Duplicate "+b.Type+" name", "A %s named %q is already declared at %s.", b.Type, key[1], prev)
	default:
		seen[key] = b.DefRange
	}
	return !dup
}

// evalContext evaluates variable defaults and locals first, so that every
// other block may refer to var.NAME and local.NAME.
func (d *decoder) evalContext(blocks hcl.Blocks) *hcl.EvalContext {
	vars := map[string]cty.Value{}
	for _, b := range blocks.OfType("variable") {
		d.at.Store(b)
		c, diags := b.Body.Content(variableSchema)
		d.diags = append(d.diags, diags...)
		if a, ok := c.Attributes["default"]; ok {
			v, diags := a.Expr.Value(&hcl.EvalContext{Functions: Functions()})
			d.diags = append(d.diags, diags...)
			vars[b.Labels[0]] = v
		} else {
			d.errorf(b.DefRange, "Variable without default", "Variable %q needs a default value.", b.Labels[0])
		}
	}
	ctx := &hcl.EvalContext{Functions: Functions(), Variables: map[string]cty.Value{
		"var": cty.ObjectVal(vars), "local": cty.EmptyObjectVal,
	}}
	var pending []*hcl.Attribute
	for _, b := range blocks.OfType("locals") {
		d.at.CompareAndSwap(nil, b) // the first locals block names them all
		attrs, diags := b.Body.JustAttributes()
		d.diags = append(d.diags, diags...)
		pending = slices.AppendSeq(pending, maps.Values(attrs))
	}
	locals := evalLocals(vars, pending, &d.diags)
	ctx.Variables["local"] = cty.ObjectVal(locals)
	return ctx
}

// evalLocals evaluates the locals attrs, which may refer to each other
// (local.NAME) and to vars (var.NAME), and returns their values; the
// diagnostics of those that do not resolve go to diags. Each is
// evaluated after the locals it names (dependencies first, else in file
// order) and sees only those: the work grows with the file, not with its
// square (campaign 5 h01: 3,000 locals written last-needed-first took
// 39 s, as every pass evaluated every pending local and copied every
// value). Passes continue while one resolves more, so that a local
// that names the others through an expression (local[var.k]) still
// resolves once all the others have.
func evalLocals(vars map[string]cty.Value, attrs []*hcl.Attribute, diags *hcl.Diagnostics) map[string]cty.Value {
	pending := dependencyOrder(attrs)
	locals := map[string]cty.Value{}
	varObj, fns := cty.ObjectVal(vars), Functions()
	for len(pending) > 0 {
		var next []*hcl.Attribute
		for _, a := range pending {
			ctx := &hcl.EvalContext{Functions: fns, Variables: map[string]cty.Value{
				"var": varObj, "local": cty.ObjectVal(visibleLocals(a, locals)),
			}}
			v, ds := a.Expr.Value(ctx)
			if ds.HasErrors() {
				next = append(next, a)
				continue
			}
			locals[a.Name] = v
		}
		if len(next) == len(pending) {
			// Their diagnostics in file order, each local seeing all
			// those that resolved, as before.
			sort.Slice(next, func(i, j int) bool { return next[i].Range.Start.Byte < next[j].Range.Start.Byte })
			all := &hcl.EvalContext{Functions: fns, Variables: map[string]cty.Value{"var": varObj, "local": cty.ObjectVal(locals)}}
			for _, a := range next {
				_, ds := a.Expr.Value(all)
				*diags = append(*diags, ds...)
			}
			break
		}
		pending = next
	}
	return locals
}

// localRefs returns the names of the locals a's expression names as
// local.NAME or local["NAME"], and whether it also uses the object local
// whole (local[expression], or local alone).
func localRefs(a *hcl.Attribute) (names []string, whole bool) {
	for _, tr := range a.Expr.Variables() {
		if tr.RootName() != "local" {
			continue
		}
		if len(tr) < 2 {
			whole = true
			continue
		}
		switch step := tr[1].(type) {
		case hcl.TraverseAttr:
			names = append(names, step.Name)
		case hcl.TraverseIndex:
			if step.Key.Type() == cty.String && step.Key.IsKnown() && !step.Key.IsNull() {
				names = append(names, step.Key.AsString())
			} else {
				whole = true
			}
		default:
			whole = true
		}
	}
	return names, whole
}

// visibleLocals is the part of locals a's expression may see: the locals
// it names, or all of them when it uses the object whole.
func visibleLocals(a *hcl.Attribute, locals map[string]cty.Value) map[string]cty.Value {
	names, whole := localRefs(a)
	if whole {
		return locals
	}
	seen := make(map[string]cty.Value, len(names))
	for _, n := range names {
		if v, ok := locals[n]; ok {
			seen[n] = v
		}
	}
	return seen
}

// dependencyOrder sorts attrs so that each comes after the locals it
// names (a cycle is broken where it is met), in file order otherwise.
func dependencyOrder(attrs []*hcl.Attribute) []*hcl.Attribute {
	sorted := slices.Clone(attrs)
	sort.Slice(sorted, func(i, j int) bool { return sorted[i].Range.Start.Byte < sorted[j].Range.Start.Byte })
	byName := make(map[string]*hcl.Attribute, len(sorted))
	for _, a := range sorted {
		byName[a.Name] = a
	}
	const (
		unseen = iota
		open
		done
	)
	state := map[string]int{}
	out := make([]*hcl.Attribute, 0, len(sorted))
	// An explicit stack: a chain of locals 45,000 long (a 1 MiB file)
	// would be as deep a recursion.
	type frame struct {
		a    *hcl.Attribute
		deps []string
	}
	for _, root := range sorted {
		if state[root.Name] != unseen {
			continue
		}
		deps, _ := localRefs(root)
		stack := []frame{{root, deps}}
		state[root.Name] = open
		for len(stack) > 0 {
			top := &stack[len(stack)-1]
			if len(top.deps) == 0 {
				state[top.a.Name] = done
				out = append(out, top.a)
				stack = stack[:len(stack)-1]
				continue
			}
			name := top.deps[0]
			top.deps = top.deps[1:]
			if dep, ok := byName[name]; ok && state[name] == unseen {
				state[name] = open
				ds, _ := localRefs(dep)
				stack = append(stack, frame{dep, ds})
			}
		}
	}
	return out
}

func (d *decoder) value(a *hcl.Attribute) (cty.Value, bool) {
	v, diags := a.Expr.Value(d.ctx)
	d.diags = append(d.diags, diags...)
	if diags.HasErrors() {
		return cty.NilVal, false
	}
	if v.IsNull() || !v.IsWhollyKnown() {
		d.errorf(a.Expr.Range(), "Invalid value", "%s must have a known, non-null value.", a.Name)
		return cty.NilVal, false
	}
	return v, true
}

// MaxParamChars bounds the length of a string parameter value in
// characters: the value is shown in every table row of its block and in
// each cell's key, as a label is (MaxLabelChars), yet a regular
// expression or a file path must fit. The quoted strings in the shipped
// experiments and the docs are at most 67 characters long.
const MaxParamChars = 1000

// toValue converts an HCL value to a parameter value, refusing a string
// that holds a character the gate of names refuses
// (safetext.CheckVisible) or that is longer than MaxParamChars
// characters.
func toValue(v cty.Value) (param.Value, error) {
	if v.IsNull() {
		return param.Value{}, fmt.Errorf("null is not a parameter value: leave the parameter out to keep its default (a scikit-learn estimator's is often None; docs/shipped-plugins.md says how to grid over None)")
	}
	if !v.IsWhollyKnown() {
		// An expression the parser could not read (a syntax error).
		return param.Value{}, fmt.Errorf("the value is not known")
	}
	t := v.Type()
	switch {
	case t == cty.Number:
		f, _ := v.AsBigFloat().Float64()
		return param.Number(f), nil
	case t == cty.String:
		s := v.AsString()
		if err := safetext.CheckVisible(s); err != nil {
			// A parameter value is shown in every table, the report and
			// the cell files' keys: it is held to the gate of names.
			return param.Value{}, fmt.Errorf("the string %s %w; a parameter value is shown in the tables, so it may hold no control, bidi control or other invisible character", safetext.Show(s), err)
		}
		if n := utf8.RuneCountInString(s); n > MaxParamChars {
			return param.Value{}, fmt.Errorf("the string %s is %d characters long, more than the %d a parameter value may have; it is shown in every table and in the cells' keys", safetext.Show(s), n, MaxParamChars)
		}
		return param.String(s), nil
	case t == cty.Bool:
		return param.Bool(v.True()), nil
	case t.IsTupleType() || t.IsListType() || t.IsSetType():
		var out []param.Value
		for _, e := range v.AsValueSlice() {
			if _, ok := asDistribution(e); ok {
				return param.Value{}, fmt.Errorf("a distribution such as loguniform(a, b) is a parameter's whole value, not an element of a list")
			}
			ev, err := toValue(e)
			if err != nil {
				return param.Value{}, err
			}
			out = append(out, ev)
		}
		return param.List(out...), nil
	}
	name := t.FriendlyName()
	article := "a"
	if strings.ContainsRune("aeiou", rune(name[0])) {
		article = "an"
	}
	return param.Value{}, fmt.Errorf("%s %s is not a parameter value (use numbers, strings, bools and lists)", article, name)
}

// param decodes the value of parameter name of block (such as
// `Learner "svm"`), named at nameRange.
func (d *decoder) param(block, name string, nameRange hcl.Range, expr hcl.Expression) (Param, bool) {
	v, diags := expr.Value(d.ctx)
	d.diags = append(d.diags, diags...)
	if diags.HasErrors() {
		return Param{}, false
	}
	if dist, ok := asDistribution(v); ok {
		return Param{Dist: dist, Range: expr.Range(), NameRange: nameRange}, true
	}
	pv, err := toValue(v)
	if err != nil {
		d.errorf(expr.Range(), "Invalid parameter value", "%s: %s: %v.", block, name, err)
		return Param{}, false
	}
	return Param{Value: pv, Range: expr.Range(), NameRange: nameRange}, true
}

// decodeBody decodes body into v with gohcl (v's field tags are the
// block's schema).
func (d *decoder) decodeBody(body hcl.Body, v any) {
	d.typeDiags(gohcl.DecodeBody(body, d.ctx, v), func(r hcl.Range) string { return attributeAt(body, r) })
}

// decodeExpr decodes the value of a into v with gohcl.
func (d *decoder) decodeExpr(a *hcl.Attribute, v any) {
	d.typeDiags(gohcl.DecodeExpression(a.Expr, d.ctx, v), func(hcl.Range) string { return a.Name + ": " })
}

// typeDiags keeps diags, restating gohcl's type errors, which do not name
// the attribute, as "Incorrect attribute value type: NAME: a number is
// required." at the whole value; name gives "NAME: " for a value's range.
func (d *decoder) typeDiags(diags hcl.Diagnostics, name func(hcl.Range) string) {
	for _, dg := range diags {
		if dg.Summary != "Unsuitable value type" || dg.Context == nil {
			continue
		}
		detail := strings.TrimPrefix(dg.Detail, "Unsuitable value: ")
		if strings.HasPrefix(detail, "value must be a whole number") {
			detail = "a whole number is required"
		}
		dg.Summary, dg.Detail, dg.Subject = "Incorrect attribute value type", name(*dg.Context)+detail+".", dg.Context
	}
	d.diags = append(d.diags, diags...)
}

// attributeAt returns "NAME: " for the attribute of body whose value spans
// rng, or "" when there is none.
func attributeAt(body hcl.Body, rng hcl.Range) string {
	if sb, ok := body.(*hclsyntax.Body); ok {
		for name, a := range sb.Attributes {
			if a.Expr.Range() == rng {
				return name + ": "
			}
		}
	}
	return ""
}

// integer sets *dst to the number f of attribute name, given at rng,
// unless f is nil; f must be a whole number >= min and at most
// math.MaxInt32.
func integer[T int | int64](d *decoder, dst *T, name string, f *float64, rng hcl.Range, min int) {
	integerTo(d, dst, name, f, rng, min, math.MaxInt32)
}

// integerTo is integer with the bound max: a value above it is an error
// that names the bound. The value is shown in full (4294967296, not
// 4.294967296e+09).
func integerTo[T int | int64](d *decoder, dst *T, name string, f *float64, rng hcl.Range, min int, max int64) {
	switch {
	case f == nil:
	case *f != math.Trunc(*f) || *f < float64(min):
		d.errorf(rng, "Invalid value", "%s must be a whole number >= %d, not %s.", name, min, param.FormatNumber(*f))
	case *f > float64(max):
		d.errorf(rng, "Invalid value", "%s must be a whole number from %d to %d, not %s.", name, min, max, param.FormatNumber(*f))
	default:
		*dst = T(*f)
	}
}

// abs resolves a path against the directory of the file.
func (d *decoder) abs(p string) string {
	if p != "" && !filepath.IsAbs(p) {
		p = filepath.Join(d.dir, p)
	}
	return p
}

func (d *decoder) experiment(b *hcl.Block, exp *Experiment) {
	exp.Name, exp.DeclRange, exp.NameRange = b.Labels[0], b.DefRange, b.LabelRanges[0]
	var e struct {
		Seed      *float64  `hcl:"seed,optional"`
		SeedRange hcl.Range `hcl:"seed,attr_value_range"`
	}
	d.decodeBody(b.Body, &e)
	if f := e.Seed; f != nil {
		if *f < 0 || *f != math.Trunc(*f) || *f > 1<<53 {
			d.errorf(e.SeedRange, "Invalid seed", "seed must be a whole number from 0 to 2^53, not %v.", *f)
		} else {
			exp.Seed = uint64(*f)
		}
	}
}

// oneDelimiter reports whether s is one character that may separate
// fields: a tab or any character but a control one (NUL would read as
// no delimiter set, a comma).
func oneDelimiter(s string) bool {
	r := []rune(s)
	return len(r) == 1 && (r[0] == '\t' || !unicode.IsControl(r[0]))
}

func (d *decoder) dataset(b *hcl.Block) *Dataset {
	ds := &Dataset{Name: b.Labels[0], DeclRange: b.DefRange}
	d.decodeBody(b.Body, ds)
	d.pathGate(ds.PathRange, "path", ds.Path)
	d.pathGate(ds.TestPathRange, "test_path", ds.TestPath)
	d.pathGate(ds.FoldsFileRange, "folds_file", ds.FoldsFile)
	d.columnNames(b.Body, ds)
	ds.Path, ds.FoldsFile, ds.TestPath = d.abs(ds.Path), d.abs(ds.FoldsFile), d.abs(ds.TestPath)
	if ds.DelimiterRange != (hcl.Range{}) && !oneDelimiter(ds.Delimiter) {
		d.errorf(ds.DelimiterRange, "Invalid delimiter", "delimiter must be a single character other than a control character (a tab is allowed), not %q.", ds.Delimiter)
	}
	for i, l := range ds.Labels {
		if slices.Contains(ds.Labels[:i], l) {
			d.errorf(ds.LabelsRange, "Duplicate label", "Dataset %q lists label column %q twice in labels; list each label once.", ds.Name, l)
			break
		}
	}
	given := []bool{ds.Target != "", len(ds.Labels) > 0, ds.LabelsPrefix != ""}
	n := len(slices.DeleteFunc(given, func(set bool) bool { return !set }))
	if ds.TestPath != "" && ds.FoldsFile != "" {
		d.errorf(ds.TestPathRange, "Conflicting fold settings", "Dataset %q has a test file, which fixes its one split; drop folds_file.", ds.Name)
	}
	if n == 0 {
		ds.Target, ds.TargetDefaulted = "class", true
	} else if n > 1 {
		d.errorf(b.DefRange, "Conflicting targets", "Dataset %q sets more than one of target, labels and labels_prefix.", ds.Name)
	}
	d.targetListed(b.Body, ds, "ignore", ds.Ignore, ds.IgnoreRange, "cannot be ignored")
	d.targetListed(b.Body, ds, "numeric", ds.Numeric, ds.NumericRange, "is read as class names, not numbers")
	return ds
}

// columnNames reports, at the value, each column name of dataset ds that
// the gate of names refuses (safetext.CheckVisible): the target and the
// labels reach the cell files and the manifest, every name the messages
// that list columns, and a bidi control shows the name as another.
func (d *decoder) columnNames(body hcl.Body, ds *Dataset) {
	d.gate(ds.TargetRange, "target", ds.Target)
	d.gate(ds.LabelsPrefixRange, "labels_prefix", ds.LabelsPrefix)
	lists := []struct {
		attr  string
		names []string
		whole hcl.Range
	}{
		{"labels", ds.Labels, ds.LabelsRange}, {"categorical", ds.Categorical, ds.CategoricalRange},
		{"numeric", ds.Numeric, ds.NumericRange}, {"ignore", ds.Ignore, ds.IgnoreRange},
	}
	for _, l := range lists {
		for i, n := range l.names {
			d.gate(listEntry(body, l.attr, i, l.whole), l.attr+" column", n)
		}
	}
}

// targetListed reports dataset ds's target column among the names of its
// list attribute attr (ignore or numeric), at that entry: the target's
// values are class names, so it is neither ignored nor numeric.
func (d *decoder) targetListed(body hcl.Body, ds *Dataset, attr string, names []string, whole hcl.Range, why string) {
	i := slices.Index(names, ds.Target)
	if ds.Target == "" || i < 0 || ds.TargetDefaulted && multiLabelARFF(ds.Path) {
		return
	}
	what := fmt.Sprintf("%q is its target", ds.Target)
	if ds.TargetDefaulted {
		what = fmt.Sprintf("%q is its target (the default, as it sets no target)", ds.Target)
	}
	d.errorf(listEntry(body, attr, i, whole), "Target column listed",
		"Dataset %q lists %q in %s, but %s, which %s; remove it from %s.", ds.Name, ds.Target, attr, what, why, attr)
}

// multiLabelARFF reports whether path may be a MEKA/MULAN ARFF file that
// names its own labels, where a defaulted "class" need not be the target.
func multiLabelARFF(path string) bool {
	return strings.HasSuffix(strings.TrimSuffix(strings.ToLower(path), ".gz"), ".arff")
}

// listEntry returns the range of entry i of the list attribute attr of
// body, or whole when the list is not written as a literal.
func listEntry(body hcl.Body, attr string, i int, whole hcl.Range) hcl.Range {
	sb, ok := body.(*hclsyntax.Body)
	if !ok || sb.Attributes[attr] == nil {
		return whole
	}
	elems, diags := hcl.ExprList(sb.Attributes[attr].Expr)
	if diags.HasErrors() || i >= len(elems) {
		return whole
	}
	return elems[i].Range()
}

// params decodes a block's parameters: the params = { … } object and, as
// sugar in encoder and reduction blocks, the attributes outside the
// block's schema (rest). A name given both ways is an error.
func (d *decoder) params(a *hcl.Attribute, rest hcl.Attributes, block string) map[string]Param {
	out := map[string]Param{}
	if a != nil {
		d.paramsObject(a, out, block)
	}
	for name, ra := range rest {
		if _, dup := out[name]; dup {
			d.errorf(ra.NameRange, "Duplicate parameter", "%s %s sets %s both in params and as an attribute; keep one.", block, name, name)
			continue
		}
		if p, ok := d.param(block, name, ra.NameRange, ra.Expr); ok {
			out[name] = p
		}
	}
	return out
}

// paramsObject decodes params = { name = value, … } into out.
func (d *decoder) paramsObject(a *hcl.Attribute, out map[string]Param, block string) {
	pairs, diags := hcl.ExprMap(a.Expr)
	if diags.HasErrors() {
		// Not an object literal (e.g. a local): evaluate it whole.
		v, ok := d.value(a)
		if !ok {
			return
		}
		if !v.Type().IsObjectType() && !v.Type().IsMapType() {
			d.errorf(a.Expr.Range(), "Incorrect attribute value type", "params must be an object such as { C = [0.1, 1] }.")
			return
		}
		for k, ev := range v.AsValueMap() {
			if dist, ok := asDistribution(ev); ok {
				out[k] = Param{Dist: dist, Range: a.Expr.Range(), NameRange: a.Expr.Range()}
				continue
			}
			pv, err := toValue(ev)
			if err != nil {
				d.errorf(a.Expr.Range(), "Invalid parameter value", "%s: %s: %v.", block, k, err)
				continue
			}
			out[k] = Param{Value: pv, Range: a.Expr.Range(), NameRange: a.Expr.Range()}
		}
		return
	}
	for _, kv := range pairs {
		key := hcl.ExprAsKeyword(kv.Key)
		if key == "" {
			kval, diags := kv.Key.Value(d.ctx)
			d.diags = append(d.diags, diags...)
			if diags.HasErrors() || kval.Type() != cty.String || !kval.IsKnown() || kval.IsNull() {
				d.errorf(kv.Key.Range(), "Invalid parameter name", "Parameter names must be identifiers or strings.")
				continue
			}
			key = kval.AsString()
		}
		if p, ok := d.param(block, key, kv.Key.Range(), kv.Value); ok {
			out[key] = p
		}
	}
}

func (d *decoder) encoder(b *hcl.Block) *Encoder {
	e := &Encoder{Name: b.Labels[0], DeclRange: b.DefRange}
	var raw struct {
		Type      *string        `hcl:"type,optional"`
		TypeRange hcl.Range      `hcl:"type,attr_value_range"`
		Params    *hcl.Attribute `hcl:"params,optional"`
		Rest      hcl.Attributes `hcl:",remain"`
	}
	d.decodeBody(b.Body, &raw)
	e.Options = d.params(raw.Params, raw.Rest, "Encoder "+strconv.Quote(e.Name))
	d.noSearchSpaces(e.Options, "Encoder "+strconv.Quote(e.Name))
	if raw.Type != nil {
		e.Type, e.TypeRange = *raw.Type, raw.TypeRange
	} else {
		d.errorf(b.DefRange, "Missing required argument", `The argument "type" is required in encoder %q.`, e.Name)
	}
	return e
}

func (d *decoder) pipeline(b *hcl.Block) *Pipeline {
	p := &Pipeline{Name: b.Labels[0], DeclRange: b.DefRange}
	d.decodeBody(b.Body, p)
	return p
}

func (d *decoder) learner(b *hcl.Block) *Learner {
	l := &Learner{Name: b.Labels[0], Plugin: b.Labels[0], DeclRange: b.DefRange, PluginRange: b.LabelRanges[0]}
	raw := struct {
		Plugin      string         `hcl:"plugin,optional"`
		PluginRange hcl.Range      `hcl:"plugin,attr_value_range"`
		ClassWeight *hcl.Attribute `hcl:"class_weight,optional"`
		Params      *hcl.Attribute `hcl:"params,optional"`
		Tune        []*tuneBlock   `hcl:"tune,block"`
		Label       string         `hcl:"label,optional"`
		LabelRange  hcl.Range      `hcl:"label,attr_value_range"`
	}{Plugin: l.Plugin, PluginRange: l.PluginRange}
	d.decodeBody(b.Body, &raw)
	l.Plugin, l.PluginRange = raw.Plugin, raw.PluginRange
	l.Label, l.LabelRange = raw.Label, raw.LabelRange
	if raw.ClassWeight != nil {
		l.ClassWeight = d.classWeight(raw.ClassWeight)
	}
	for i, t := range raw.Tune {
		if i > 0 {
			d.errorf(t.DefRange, "Duplicate tune block", "Learner %q has more than one tune block.", l.Name)
			continue
		}
		l.Tune = d.tune(t)
	}
	if raw.Params != nil {
		l.ParamsRange = raw.Params.Expr.Range()
	}
	l.Params = d.params(raw.Params, nil, "Learner "+strconv.Quote(l.Name))
	d.searchSpaces(l)
	return l
}

// searchSpaces checks learner l's distributions: each needs a tune block
// that draws its candidates (strategy "random", or "halving" or "hyperband" with n_iter).
func (d *decoder) searchSpaces(l *Learner) {
	for _, n := range slices.Sorted(maps.Keys(l.Params)) {
		p := l.Params[n]
		switch {
		case p.Dist == nil:
		case l.Tune == nil:
			d.errorf(p.Range, "Search space without tune", `Learner %q: %s = %s is a search space: add tune { strategy = "random", n_iter = 20 } (or strategy = "halving" or "hyperband" with n_iter).`, l.Name, n, p.Dist)
		case !l.Tune.Sampled():
			d.errorf(p.Range, "Search space in a grid", `Learner %q: %s = %s is a search space, but strategy %q tries listed values only: set n_iter with strategy = "random", "halving" or "hyperband".`, l.Name, n, p.Dist, l.Tune.Strategy)
		}
	}
}

// noSearchSpaces reports the distributions among an encoder's or a
// reduction's parameters: only a learner's parameters are tuned.
func (d *decoder) noSearchSpaces(params map[string]Param, block string) {
	for _, n := range slices.Sorted(maps.Keys(params)) {
		if p := params[n]; p.Dist != nil {
			d.errorf(p.Range, "Invalid parameter value", "%s: %s = %s: only a learner's parameters take a search space (see tune).", block, n, p.Dist)
		}
	}
}

func (d *decoder) reduction(b *hcl.Block) *Reduction {
	r := &Reduction{Name: b.Labels[0], Scheme: b.Labels[0], DeclRange: b.DefRange, PluginRange: b.DefRange, SchemeRange: b.LabelRanges[0]}
	raw := struct {
		Plugin      string         `hcl:"plugin,optional"`
		PluginRange hcl.Range      `hcl:"plugin,attr_value_range"`
		Scheme      string         `hcl:"scheme,optional"`
		SchemeRange hcl.Range      `hcl:"scheme,attr_value_range"`
		ClassWeight *hcl.Attribute `hcl:"class_weight,optional"`
		Datasets    []string       `hcl:"datasets,optional"`
		DatasetsR   hcl.Range      `hcl:"datasets,attr_value_range"`
		Learners    []string       `hcl:"learners,optional"`
		LearnersR   hcl.Range      `hcl:"learners,attr_value_range"`
		Calibrate   *string        `hcl:"calibrate,optional"`
		CalibrateR  hcl.Range      `hcl:"calibrate,attr_value_range"`
		Label       string         `hcl:"label,optional"`
		LabelRange  hcl.Range      `hcl:"label,attr_value_range"`
		Params      *hcl.Attribute `hcl:"params,optional"`
		Rest        hcl.Attributes `hcl:",remain"`
	}{Plugin: r.Plugin, PluginRange: r.PluginRange, Scheme: r.Scheme, SchemeRange: r.SchemeRange}
	d.decodeBody(b.Body, &raw)
	r.Label, r.LabelRange = raw.Label, raw.LabelRange
	r.Datasets, r.DatasetsRange, r.Learners, r.LearnersRange = raw.Datasets, raw.DatasetsR, raw.Learners, raw.LearnersR
	d.emptyLimit(r.Name, "datasets", r.Datasets, r.DatasetsRange)
	d.emptyLimit(r.Name, "learners", r.Learners, r.LearnersRange)
	r.Plugin, r.PluginRange, r.Scheme, r.SchemeRange = raw.Plugin, raw.PluginRange, raw.Scheme, raw.SchemeRange
	if raw.ClassWeight != nil {
		r.ClassWeight = d.classWeight(raw.ClassWeight)
	}
	r.Params = d.params(raw.Params, raw.Rest, "Reduction "+strconv.Quote(r.Name))
	d.noSearchSpaces(r.Params, "Reduction "+strconv.Quote(r.Name))
	if raw.Calibrate != nil {
		r.Calibrate, r.CalibrateRange = *raw.Calibrate, raw.CalibrateR
	}
	if raw.Calibrate != nil && r.Calibrate != "platt" && r.Calibrate != "isotonic" {
		d.errorf(r.CalibrateRange, "Invalid calibrate", `calibrate is "platt" (a sigmoid per class) or "isotonic", not %q.`, r.Calibrate)
	}
	return r
}

// emptyLimit reports a reduction's datasets = [] or learners = []
// (attr, set at rng): a limit to nothing, so the reduction makes no cell.
func (d *decoder) emptyLimit(reduction, attr string, names []string, rng hcl.Range) {
	if rng != (hcl.Range{}) && len(names) == 0 {
		d.errorf(rng, "Empty "+attr+" list", "Reduction %q: %s = [] limits it to no %s, so it makes no cell. Name the %s it applies to, or drop %s to apply it to all of them.",
			reduction, attr, strings.TrimSuffix(attr, "s"), attr, attr)
	}
}

func (d *decoder) cv(b *hcl.Block, cv *CV) {
	var c struct {
		Folds        *float64       `hcl:"folds,optional"`
		Repeats      *float64       `hcl:"repeats,optional"`
		Stratified   *hcl.Attribute `hcl:"stratified,optional"`
		FoldsFile    *string        `hcl:"folds_file,optional"`
		Timeout      *float64       `hcl:"timeout,optional"`
		Holdout      *float64       `hcl:"holdout,optional"`
		FoldsRange   hcl.Range      `hcl:"folds,attr_value_range"`
		RepeatsRange hcl.Range      `hcl:"repeats,attr_value_range"`
		FileRange    hcl.Range      `hcl:"folds_file,attr_value_range"`
		TimeoutRange hcl.Range      `hcl:"timeout,attr_value_range"`
		HoldoutRange hcl.Range      `hcl:"holdout,attr_value_range"`
	}
	d.decodeBody(b.Body, &c)
	cv.FoldsRange, cv.RepeatsRange = c.FoldsRange, c.RepeatsRange
	integer(d, &cv.Folds, "folds", c.Folds, c.FoldsRange, 2)
	integer(d, &cv.Repeats, "repeats", c.Repeats, c.RepeatsRange, 1)
	if a := c.Stratified; a != nil {
		cv.StratifiedRange = a.Expr.Range()
		if v, diags := a.Expr.Value(d.ctx); !diags.HasErrors() && v.Type() == cty.String && v.IsKnown() && !v.IsNull() {
			if v.AsString() != "iterative" {
				d.errorf(a.Expr.Range(), "Invalid value", `stratified is true, false or "iterative" (multi-label data), not %q.`, v.AsString())
			}
			cv.Stratified, cv.Iterative = true, true
		} else {
			d.decodeExpr(a, &cv.Stratified)
		}
	}
	if c.FoldsFile != nil {
		d.pathGate(c.FileRange, "folds_file", *c.FoldsFile)
		cv.FoldsFile, cv.FoldsFileRange = d.abs(*c.FoldsFile), c.FileRange
	}
	if c.Timeout != nil {
		if msg := timeoutProblem(*c.Timeout); msg != "" {
			d.errorf(c.TimeoutRange, "Invalid timeout", "%s", msg)
		}
		cv.Timeout = *c.Timeout
	}
	if c.Holdout != nil {
		if f := *c.Holdout; !(f > 0 && f < 1) {
			d.errorf(c.HoldoutRange, "Invalid holdout", "holdout is the fraction of rows held out for testing, in (0, 1), not %v.", f)
		}
		cv.Holdout, cv.HoldoutRange = *c.Holdout, c.HoldoutRange
		if c.Folds != nil {
			d.errorf(c.HoldoutRange, "Conflicting fold settings", "holdout replaces k-fold cross-validation; drop folds.")
		}
	}
	cv.Repeats = cmp.Or(cv.Repeats, 1)
	if cv.FoldsFile != "" && cv.Holdout > 0 {
		d.errorf(cv.HoldoutRange, "Conflicting fold settings", "A folds_file fixes the folds; drop holdout.")
	}
}

func (d *decoder) output(b *hcl.Block, o *Output) {
	d.decodeBody(b.Body, o)
	d.pathGate(o.DirRange, "dir", o.Dir)
	o.Dir = d.abs(o.Dir)
	for i, f := range o.Formats {
		switch {
		case !slices.Contains(d.formats, f):
			d.wholef(o.FormatsRange, "Unknown output format", "%q is not an output format%s; choose from %s.", f, suggest.DidYouMean(f, d.formats), strings.Join(d.formats, ", "))
		case slices.Contains(o.Formats[:i], f):
			// Each format writes its files once; a second json wrote
			// NAME.json again and moved the first aside as not the run's.
			d.wholef(o.FormatsRange, "Duplicate output format", "Output format %q is listed twice.", f)
		}
	}
	first := map[string]int{}
	for i, name := range o.Confusion {
		o.ConfusionRanges = append(o.ConfusionRanges, listEntry(b.Body, "confusion", i, o.ConfusionRange))
		if j, dup := first[name]; dup {
			// Each entry draws its figures; a second one drew the same
			// figures again under another file name.
			d.errorf(o.ConfusionRanges[i], "Duplicate confusion row", "Confusion row %q is listed twice (first at %s).", name, at(o.ConfusionRanges[j]))
			continue
		}
		first[name] = i
	}
	if o.AlphaRange != (hcl.Range{}) && (o.Alpha <= 0 || o.Alpha >= 1) {
		d.errorf(o.AlphaRange, "Invalid alpha", "alpha is a significance level in (0, 1), not %v.", o.Alpha)
	}
	d.rope(o)
}

// rope checks the Bayesian comparisons' settings: a rope that is a finite
// number ≥ 0, something to compare with (a baseline or bayes_pairs), and
// no bayes_pairs without a rope.
func (d *decoder) rope(o *Output) {
	switch {
	case o.Rope != nil && (!(*o.Rope >= 0) || math.IsInf(*o.Rope, 0)):
		d.errorf(o.RopeRange, "Invalid rope", "rope is the half-width of the region of practical equivalence, a number ≥ 0 in the metrics' units (e.g. 0.01 for one point of accuracy), not %v.", *o.Rope)
	case o.Rope != nil && o.Baseline == "" && !o.BayesPairs:
		d.errorf(o.RopeRange, "Nothing to compare", "rope asks for Bayesian comparisons of the rows against the baseline: set baseline = \"...\" (a row of the tables), or bayes_pairs = true to compare every pair of rows.")
	case o.Rope == nil && o.BayesPairs:
		d.errorf(o.BayesPairsRange, "Missing rope", "bayes_pairs compares every pair of rows by the Bayesian tests, which need a region of practical equivalence: set rope = 0.01 (in the metrics' units; 0 for none).")
	}
}

// MaxNameBytes bounds the length of a block's name: names become parts
// of output file names (NAME.md, predictions/DATASET.csv,
// plots/confusion_DATASET_ROW.png), which a file system limits to 255
// bytes.
const MaxNameBytes = 100

// labelProblem says what makes a block label unfit to be an identifier
// (letters, digits, _, - and ., no leading dot, at most MaxNameBytes
// bytes), or "" when it is one.
func labelProblem(name string) string {
	if name == "" {
		return "is empty"
	}
	if name[0] == '.' {
		return "starts with a dot"
	}
	if len(name) > MaxNameBytes {
		return fmt.Sprintf("is %d bytes long, more than %d", len(name), MaxNameBytes)
	}
	for _, r := range name {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '_' && r != '-' && r != '.' {
			return fmt.Sprintf("holds %q", r)
		}
		if safetext.Hidden(r) {
			// A Hangul filler is a letter that does not show: "lda" and
			// "lda" with one would be two rows that look alike.
			return fmt.Sprintf("holds %U, a letter that does not show", r)
		}
	}
	return ""
}

// quoteShort quotes name, cut to its first 40 characters when longer.
func quoteShort(name string) string {
	if r := []rune(name); len(r) > 40 {
		return strconv.Quote(string(r[:40])) + "…"
	}
	return strconv.Quote(name)
}

// nameSet returns the names of xs as a set.
func nameSet[T any](xs []T, name func(T) string) map[string]bool {
	set := map[string]bool{}
	for _, x := range xs {
		set[name(x)] = true
	}
	return set
}

// declared reports, at rng, each of names that is not in set: who names a
// kind (encoder, dataset, learner) that the file does not declare, with
// the declared name it may mean.
func (d *decoder) declared(names []string, set map[string]bool, rng hcl.Range, kind, who string) {
	for _, n := range names {
		if !set[n] {
			d.errorf(rng, "Unknown "+kind, "%s names %s %q, which is not declared%s.", who, kind, n, suggest.DidYouMean(n, slices.Sorted(maps.Keys(set))))
		}
	}
}

// known returns the names of the blocks of kind a name may refer to:
// those parsed, and in a file read in part (a syntax error) those its
// text declares too, since the parser may have skipped their blocks.
func (d *decoder) known(kind string, parsed map[string]bool) map[string]bool {
	for k := range d.inText {
		if k[0] == kind {
			parsed[k[1]] = true
		}
	}
	return parsed
}

// declaredInText returns the type and name of every block that src's
// tokens declare (a block type followed by its quoted or bare name),
// whether the parser read the block or skipped it past a syntax error.
func declaredInText(src []byte, filename string) map[[2]string]bool {
	toks, _ := hclsyntax.LexConfig(src, filename, hcl.InitialPos)
	out := map[[2]string]bool{}
	for i := 0; i+1 < len(toks); i++ {
		if toks[i].Type != hclsyntax.TokenIdent {
			continue
		}
		kind := string(toks[i].Bytes)
		switch next := toks[i+1]; {
		case next.Type == hclsyntax.TokenIdent:
			out[[2]string{kind, string(next.Bytes)}] = true
		case next.Type == hclsyntax.TokenOQuote && i+3 < len(toks) && toks[i+2].Type == hclsyntax.TokenQuotedLit && toks[i+3].Type == hclsyntax.TokenCQuote:
			out[[2]string{kind, string(toks[i+2].Bytes)}] = true
		}
	}
	return out
}

// crossCheck checks references between blocks and fills the default
// pipeline. In a file read in part (a syntax error) a reference is
// checked against the blocks parsed and those the text declares, and the
// checks that need every block (unused encoders, uncovered learners,
// labels, the blocks a file must have) are left out.
func (d *decoder) crossCheck(exp *Experiment) {
	if len(exp.Pipelines) == 0 {
		def := &Pipeline{Name: "default", Default: true}
		for _, e := range exp.Encoders {
			def.Steps = append(def.Steps, e.Name)
		}
		if len(exp.Encoders) == 0 {
			def.Name = "none"
		}
		exp.Pipelines = []*Pipeline{def}
	} else {
		encoders := d.known("encoder", nameSet(exp.Encoders, func(e *Encoder) string { return e.Name }))
		for _, p := range exp.Pipelines {
			d.declared(p.Steps, encoders, p.StepsRange, "encoder", "Pipeline "+strconv.Quote(p.Name))
		}
		if d.whole {
			d.unusedEncoders(exp)
		}
	}
	if len(exp.Reductions) == 0 {
		// A learner used without a reduction runs natively.
		exp.Reductions = []*Reduction{{Name: "none", Scheme: "none", Params: map[string]Param{}}}
	}
	datasets := d.known("dataset", nameSet(exp.Datasets, func(ds *Dataset) string { return ds.Name }))
	learners := d.known("learner", nameSet(exp.Learners, func(l *Learner) string { return l.Name }))
	for _, r := range exp.Reductions {
		who := "Reduction " + strconv.Quote(r.Name)
		d.declared(r.Datasets, datasets, r.DatasetsRange, "dataset", who)
		d.declared(r.Learners, learners, r.LearnersRange, "learner", who)
	}
	if !d.whole {
		return
	}
	d.uncovered(exp)
	d.foldSettings(exp)
	d.checkLabels(exp)
	d.confusableNames(exp)
	if len(exp.Datasets) == 0 {
		d.errorf(hcl.Range{}, "No datasets", `Declare at least one dataset "NAME" { path = "..." } block.`)
	}
	if len(exp.Learners) == 0 {
		d.errorf(hcl.Range{}, "No learners", `Declare at least one learner "NAME" { plugin = "..." } block.`)
	}
}
