package report

import (
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/polyclass/polyclass/framework/outcome"
	"github.com/polyclass/polyclass/framework/setup"
)

// EdgeChoice is a tuned parameter whose inner cross-validations chose the
// lowest or the highest value of its grid in most outer folds of a cell
// (e.g. C = 100 of C = [0.01, 0.1, 1, 10, 100] in 10 of 10 folds): the
// best value may lie beyond the grid.
type EdgeChoice struct {
	Dataset string `json:"dataset"`
	// Row is the cell's row as the tables name it ("logreg"), set by
	// BuildTables and NamedTuningEdges; TuningEdges leaves it empty.
	Row       string `json:"row,omitempty"`
	Encoder   string `json:"encoder"`
	Learner   string `json:"learner"`
	Reduction string `json:"reduction"`
	Param     string `json:"param"`
	// Value is the edge value chosen, as the candidates name it; Highest
	// tells which edge it is.
	Value   string `json:"value"`
	Highest bool   `json:"highest"`
	// Folds of the Of outer folds chose it.
	Folds int `json:"folds"`
	Of    int `json:"of"`
	// Grid is the parameter's values in increasing order.
	Grid []string `json:"grid"`
	// cell is the index of the cell among those TuningEdges was given.
	cell int
}

// String describes the choice in a sentence: "iris: logreg chose
// C = 100, the highest value of its grid (0.01 … 100), in 10 of 10 outer
// folds; the best C may lie beyond the grid: widen it if C can go
// higher", naming the row as the tables do (its learner and reduction
// when Row is not set).
func (e EdgeChoice) String() string {
	edge, dir := "lowest", "lower"
	if e.Highest {
		edge, dir = "highest", "higher"
	}
	who := e.Row
	if who == "" {
		who = e.Learner
		if e.Reduction != "" {
			who += " " + e.Reduction
		}
	}
	return fmt.Sprintf("%s: %s chose %s = %s, the %s value of its grid (%s), in %d of %d outer folds; the best %s may lie beyond the grid: widen it if %s can go %s",
		e.Dataset, who, e.Param, e.Value, edge, strings.Join(e.Grid, ", "), e.Folds, e.Of, e.Param, e.Param, dir)
}

// candidateParam finds where each "name=" of a candidate's name starts:
// Params.String joins its parameters as "a=1,b=x" (a list value's
// elements are joined by ", ", so a comma followed by a name and "=" only
// starts a parameter).
var candidateParam = regexp.MustCompile(`(?:^|,)([A-Za-z_][A-Za-z0-9_.]*)=`)

// parseCandidate splits a tuned candidate's name ("C=10,gamma=0.1") into
// its parameters' values.
func parseCandidate(s string) map[string]string {
	idx := candidateParam.FindAllStringSubmatchIndex(s, -1)
	out := make(map[string]string, len(idx))
	for i, m := range idx {
		end := len(s)
		if i+1 < len(idx) {
			end = idx[i+1][0]
		}
		out[s[m[2]:m[3]]] = s[m[1]:end]
	}
	return out
}

// MinEdgeGrid is the number of distinct numeric values a tuned parameter
// needs for its edges to be worth a warning: with two, every choice is an
// edge.
const MinEdgeGrid = 3

// TuningEdges returns, for every tuned cell in cell order and each of its
// numeric tuned parameters with at least MinEdgeGrid values (by name),
// the choice of the lowest or the highest value of the grid in more than
// half of the cell's outer folds (over every repeat).
func TuningEdges(cells []*outcome.CellResult) []EdgeChoice {
	var out []EdgeChoice
	for i, c := range cells {
		if c.Failed() || len(c.TuneCandidates) == 0 {
			continue
		}
		grids := map[string][]float64{}
		numeric := map[string]bool{}
		names := map[string]map[float64]string{} // each value as the candidates write it
		for _, cand := range c.TuneCandidates {
			for p, v := range parseCandidate(cand) {
				x, err := strconv.ParseFloat(v, 64)
				if _, seen := numeric[p]; !seen {
					numeric[p], names[p] = true, map[float64]string{}
				}
				numeric[p] = numeric[p] && err == nil
				if err == nil && !slices.Contains(grids[p], x) {
					grids[p] = append(grids[p], x)
					names[p][x] = v
				}
			}
		}
		params := make([]string, 0, len(grids))
		for p, g := range grids {
			if numeric[p] && len(g) >= MinEdgeGrid {
				params = append(params, p)
			}
		}
		sort.Strings(params)
		for _, p := range params {
			if e, ok := edgeOf(c, p, grids[p], names[p]); ok {
				e.cell = i
				out = append(out, e)
			}
		}
	}
	return out
}

// NamedTuningEdges is TuningEdges with each choice's row named as the
// tables of cells name it (shown: what the set-up records the tables show
// of each row, as Spec.Setup's Rows), for the warnings a run prints
// before its tables are written.
func NamedTuningEdges(shown []setup.Row, cells []*outcome.CellResult) []EdgeChoice {
	rows, _, rowOf := rowsOf(cells, newShown(shown))
	return nameEdges(TuningEdges(cells), rows, rowOf)
}

// nameEdges sets the Row of each of edges: the label of its cell's row,
// rowOf giving each cell's row among rows.
func nameEdges(edges []EdgeChoice, rows []Row, rowOf []int) []EdgeChoice {
	for i, e := range edges {
		edges[i].Row = rows[rowOf[e.cell]].Label
	}
	return edges
}

// edgeOf counts the outer folds of c whose choice of p is the lowest or
// the highest of grid and returns the edge chosen in more than half.
func edgeOf(c *outcome.CellResult, p string, grid []float64, names map[float64]string) (EdgeChoice, bool) {
	slices.Sort(grid)
	lo, hi := grid[0], grid[len(grid)-1]
	var nLo, nHi, of int
	for _, f := range c.Folds {
		if f.Chosen == "" {
			continue
		}
		of++
		x, err := strconv.ParseFloat(parseCandidate(f.Chosen)[p], 64)
		switch {
		case err != nil:
		case x == lo:
			nLo++
		case x == hi:
			nHi++
		}
	}
	e := EdgeChoice{Dataset: c.Dataset, Encoder: c.Encoder, Learner: c.Learner, Reduction: c.Reduction, Param: p, Of: of}
	for _, x := range grid {
		e.Grid = append(e.Grid, names[x])
	}
	switch {
	case 2*nHi > of:
		e.Value, e.Highest, e.Folds = names[hi], true, nHi
	case 2*nLo > of:
		e.Value, e.Folds = names[lo], nLo
	default:
		return EdgeChoice{}, false
	}
	return e, true
}

// edgeLines are the warnings under the tuning tables, one per edge choice.
func edgeLines(edges []EdgeChoice, esc func(string) string) []string {
	out := make([]string, len(edges))
	for i, e := range edges {
		out[i] = "Warning: " + esc(e.String()) + "."
	}
	return out
}
