package config

import (
	"math"
	"sort"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
)

// Tune declares that a learner's list-valued parameters are tuned by an
// inner cross-validation on each outer training part instead of crossed
// into the grid: one cell, refitted with the best combination per fold.
type Tune struct {
	// Folds is the number of inner folds (default 5).
	Folds int
	// Metric picks the best combination by its mean over the inner folds
	// (default: the experiment's first metric); ties go to the first
	// combination in grid order, as scikit-learn's GridSearchCV.
	Metric      string
	MetricRange hcl.Range
	// InnerSeed, when set (≥ 0), makes the inner split scikit-learn's
	// StratifiedKFold(Folds, shuffle=True, random_state=InnerSeed) (KFold
	// for unstratified or multi-label data); otherwise the inner split is
	// seeded from the cell and the outer fold. -1 means not set.
	InnerSeed int64

	// Strategy is how the candidates are searched: StrategyGrid (the
	// default: every combination of the listed values), StrategyRandom
	// (NIter candidates drawn from the lists and distributions) or
	// StrategyHalving (successive halving over the grid, or over NIter
	// drawn candidates) or StrategyHyperband (Li et al.'s brackets of
	// successive halving over the same candidates).
	Strategy      string
	StrategyRange hcl.Range
	// NIter is the number of candidates drawn (0: not set).
	NIter      int
	NIterRange hcl.Range
	// Halving's settings, as scikit-learn's HalvingGridSearchCV: Factor
	// (default 3) divides the candidates and multiplies the rows per
	// round; MinResources is the rows of the first round, 0 for
	// "exhaust" (the default), -1 for "smallest"; Resource is what grows,
	// "n_samples" or a parameter the plugin's schema declares a budget
	// (max_iter, epochs: each round sets it on every row); AggressiveElimination replays
	// the first round's rows until few enough candidates are left.
	Factor                int
	MinResources          int
	MinResourcesRange     hcl.Range
	Resource              string
	AggressiveElimination bool
	ResourceRange         hcl.Range
	// HalvingRange locates the first halving setting given, for the
	// error when the strategy is not halving.
	HalvingRange hcl.Range

	// MaxEvals bounds the candidate evaluations of a search on one
	// outer fold (0: no bound): a candidate scored in a round, on its
	// inner folds, is one evaluation, as mlr3's "evals" terminator
	// counts them. MaxTime bounds the search's wall time on one outer
	// fold (0: no bound); it makes the results depend on the machine.
	// A round (a random search's candidate) starts only within both.
	MaxEvals      int
	MaxEvalsRange hcl.Range
	MaxTime       time.Duration
	MaxTimeRange  hcl.Range

	DeclRange hcl.Range
}

// The tune strategies.
const (
	StrategyGrid      = "grid"
	StrategyRandom    = "random"
	StrategyHalving   = "halving"
	StrategyHyperband = "hyperband"
)

// Halving's defaults and MinResources' words.
const (
	DefaultFactor    = 3
	MinExhaust       = 0
	MinSmallest      = -1
	ResourceNSamples = "n_samples"
)

// DefaultTuneFolds is the number of inner folds of a tune block.
const DefaultTuneFolds = 5

// MaxInnerSeed bounds inner_seed: the inner split is made as
// scikit-learn's with random_state = inner_seed, which NumPy takes from 0
// to 2^32 − 1.
const MaxInnerSeed = 1<<32 - 1

// MaxNIter bounds n_iter. The candidates are drawn before the first fit
// (every cell and outer fold searches the same ones), so n_iter is
// memory held up front: 10,000 candidates take a few MB, while each one
// still costs tune folds fits per outer fold, hours of fitting at the
// least; scikit-learn's RandomizedSearchCV defaults to 10.
const MaxNIter = 10000

// IsGrid reports whether the strategy is the exhaustive grid (also when
// a Tune built in code leaves Strategy empty).
func (t *Tune) IsGrid() bool { return t.Strategy != StrategyRandom && !t.Halves() }

// Halves reports whether the search runs rounds of successive halving:
// strategy "halving", or "hyperband" (its brackets).
func (t *Tune) Halves() bool { return t.Strategy == StrategyHalving || t.Strategy == StrategyHyperband }

// OverParam reports whether the rounds grow a budget parameter of the
// plugin (resource = "max_iter") rather than the rows.
func (t *Tune) OverParam() bool { return t.Resource != "" && t.Resource != ResourceNSamples }

// Sampled reports whether the candidates are drawn (NIter of them)
// rather than the whole grid.
func (t *Tune) Sampled() bool { return t.Strategy == StrategyRandom || t.NIter > 0 }

// tuneBlock is a tune block as written.
type tuneBlock struct {
	DefRange   hcl.Range      `hcl:",def_range"`
	Folds      *float64       `hcl:"folds,optional"`
	FoldsR     hcl.Range      `hcl:"folds,attr_value_range"`
	Metric     *string        `hcl:"metric,optional"`
	MetricR    hcl.Range      `hcl:"metric,attr_value_range"`
	InnerSeed  *float64       `hcl:"inner_seed,optional"`
	InnerSeedR hcl.Range      `hcl:"inner_seed,attr_value_range"`
	Strategy   *string        `hcl:"strategy,optional"`
	StrategyR  hcl.Range      `hcl:"strategy,attr_value_range"`
	NIter      *float64       `hcl:"n_iter,optional"`
	NIterR     hcl.Range      `hcl:"n_iter,attr_value_range"`
	Factor     *float64       `hcl:"factor,optional"`
	FactorR    hcl.Range      `hcl:"factor,attr_value_range"`
	MinRes     *hcl.Attribute `hcl:"min_resources,optional"`
	Resource   *string        `hcl:"resource,optional"`
	ResourceR  hcl.Range      `hcl:"resource,attr_value_range"`
	Aggressive *bool          `hcl:"aggressive_elimination,optional"`
	AggrR      hcl.Range      `hcl:"aggressive_elimination,attr_value_range"`
	MaxEvals   *float64       `hcl:"max_evals,optional"`
	MaxEvalsR  hcl.Range      `hcl:"max_evals,attr_value_range"`
	MaxTime    *string        `hcl:"max_time,optional"`
	MaxTimeR   hcl.Range      `hcl:"max_time,attr_value_range"`
}

// tune checks a learner's tune block.
func (d *decoder) tune(b *tuneBlock) *Tune {
	t := &Tune{Folds: DefaultTuneFolds, InnerSeed: -1, DeclRange: b.DefRange,
		Strategy: StrategyGrid, Factor: DefaultFactor, Resource: ResourceNSamples}
	integer(d, &t.Folds, "folds", b.Folds, b.FoldsR, 2)
	if b.Metric != nil {
		t.Metric, t.MetricRange = *b.Metric, b.MetricR
	}
	integerTo(d, &t.InnerSeed, "inner_seed", b.InnerSeed, b.InnerSeedR, 0, MaxInnerSeed)
	if b.Strategy != nil {
		t.Strategy, t.StrategyRange = *b.Strategy, b.StrategyR
		if t.Strategy != StrategyGrid && t.Strategy != StrategyRandom && t.Strategy != StrategyHalving && t.Strategy != StrategyHyperband {
			d.errorf(b.StrategyR, "Invalid strategy", `strategy is "grid", "random", "halving" or "hyperband", not %q.`, t.Strategy)
		}
	}
	integer(d, &t.NIter, "n_iter", b.NIter, b.NIterR, 1)
	t.NIterRange = b.NIterR
	if t.NIter > MaxNIter {
		d.errorf(b.NIterR, "Too many candidates", "n_iter = %d draws more than the %d candidates a search holds; use a smaller n_iter.", t.NIter, MaxNIter)
		t.NIter = MaxNIter
	}
	d.halving(b, t)
	d.budgets(b, t)
	switch {
	case t.Strategy == StrategyRandom && b.NIter == nil:
		d.errorf(b.StrategyR, "Missing n_iter", `strategy = "random" draws n_iter candidates: set n_iter, such as n_iter = 20.`)
	case t.Strategy == StrategyGrid && b.NIter != nil:
		d.errorf(b.NIterR, "Invalid n_iter", `n_iter draws candidates for strategy "random", "halving" or "hyperband"; strategy "grid" tries every combination.`)
	}
	return t
}

// halving reads the settings of successive halving into t and reports
// them under another strategy.
func (d *decoder) halving(b *tuneBlock, t *Tune) {
	integer(d, &t.Factor, "factor", b.Factor, b.FactorR, 2)
	if b.MinRes != nil {
		d.minResources(b.MinRes, t)
		t.MinResourcesRange = b.MinRes.Expr.Range()
	}
	if b.Resource != nil {
		// A parameter's name is checked against the plugin's schema
		// where the learner binds (engine): it must be a budget.
		t.Resource, t.ResourceRange = *b.Resource, b.ResourceR
		if t.Resource == "" {
			d.errorf(b.ResourceR, "Invalid resource", `resource is "n_samples" or a budget parameter of the learner's plugin, such as "max_iter", not "".`)
		}
	}
	if b.Aggressive != nil {
		t.AggressiveElimination = *b.Aggressive
	}
	var given []hcl.Range
	for _, r := range []hcl.Range{b.FactorR, b.ResourceR, b.AggrR} {
		if r != (hcl.Range{}) {
			given = append(given, r)
		}
	}
	if b.MinRes != nil {
		given = append(given, b.MinRes.Expr.Range())
	}
	if len(given) == 0 {
		return
	}
	sort.Slice(given, func(i, j int) bool { return given[i].Start.Byte < given[j].Start.Byte })
	t.HalvingRange = given[0]
	switch {
	case !t.Halves():
		d.errorf(t.HalvingRange, "Not a halving search", `factor, min_resources, resource and aggressive_elimination set successive halving: add strategy = "halving" (or "hyperband").`)
	case t.Strategy == StrategyHyperband && b.Aggressive != nil:
		d.errorf(b.AggrR, "Not a halving search", `aggressive_elimination is strategy "halving"'s: hyperband's brackets each start from their own number of rows.`)
	}
}

// budgets reads max_evals and max_time, which bound a random, halving or
// hyperband search; max_time is warned about, since how far a search gets
// in a time then depends on the machine, its load and -j.
func (d *decoder) budgets(b *tuneBlock, t *Tune) {
	integer(d, &t.MaxEvals, "max_evals", b.MaxEvals, b.MaxEvalsR, 1)
	t.MaxEvalsRange = b.MaxEvalsR
	if b.MaxTime != nil {
		t.MaxTimeRange = b.MaxTimeR
		v, err := time.ParseDuration(*b.MaxTime)
		switch {
		case err != nil || v <= 0:
			d.errorf(b.MaxTimeR, "Invalid max_time", `max_time is a positive duration such as "30s", "5m" or "1h30m", not %q.`, *b.MaxTime)
		default:
			t.MaxTime = v
			d.warnf(b.MaxTimeR, "Results depend on the machine", `max_time = %q stops each outer fold's search after that long: how many candidates and rounds it reaches, and so the choices and every score, then depend on the machine, its load and -j; max_evals bounds the search the same on every machine.`, *b.MaxTime)
		}
	}
	for _, r := range []hcl.Range{b.MaxEvalsR, b.MaxTimeR} {
		if r != (hcl.Range{}) && t.IsGrid() {
			d.errorf(r, "Budget of a grid", `max_evals and max_time bound a search of strategy "random", "halving" or "hyperband"; strategy "grid" scores every combination.`)
			return
		}
	}
}

// minResources reads min_resources: a whole number of rows ≥ 1,
// "exhaust" or "smallest".
func (d *decoder) minResources(a *hcl.Attribute, t *Tune) {
	v, ok := d.value(a)
	if !ok {
		return
	}
	switch {
	case v.Type() == cty.String && v.AsString() == "exhaust":
		t.MinResources = MinExhaust
		return
	case v.Type() == cty.String && v.AsString() == "smallest":
		t.MinResources = MinSmallest
		return
	case v.Type() == cty.Number:
		f, _ := v.AsBigFloat().Float64()
		if f == math.Trunc(f) && f >= 1 && f <= math.MaxInt32 {
			t.MinResources = int(f)
			return
		}
	}
	d.errorf(a.Expr.Range(), "Invalid min_resources", `min_resources is a whole number of rows >= 1, "exhaust" or "smallest".`)
}
