package engine

import (
	"context"
	"testing"

	"github.com/polyclass/polyclass/framework/host"
	"github.com/polyclass/polyclass/framework/internal/plugintest"
	"github.com/polyclass/polyclass/framework/sdk"
)

// pairwise is a reducer with one scheme, one-vs-one: one problem per pair
// of classes, the rows of the other classes left out (target 0).
type pairwise struct{}

func (pairwise) Info() sdk.ReducerInfo {
	return sdk.ReducerInfo{Name: "pairs", Version: "1", Schemes: []sdk.Scheme{{Name: "ovo"}}}
}

func (pairwise) Plan(_ context.Context, req sdk.PlanRequest) (sdk.Plan, error) {
	var plan sdk.Plan
	for a := 0; a < req.NumClasses; a++ {
		for b := a + 1; b < req.NumClasses; b++ {
			p := sdk.Problem{Kind: sdk.Binary, Targets: make([]float64, len(req.Labels))}
			for i, y := range req.Labels {
				switch y {
				case a:
					p.Targets[i] = 1
				case b:
					p.Targets[i] = -1
				}
			}
			plan.Problems = append(plan.Problems, p)
		}
	}
	return plan, nil
}

func (pairwise) Decode(context.Context, sdk.DecodeRequest) (sdk.Decoding, error) {
	return sdk.Decoding{}, nil
}

// TestFoldRows: the rows one fold's models train on, as the shard
// estimate counts them, on the 12 rows of 3 classes (4 each) of
// pluginGrid: one-vs-all trains 3 models on all 12 rows (36); one-vs-one 3
// models on the 8 rows of their two classes (24). FoldFits counts 3 binary
// models either way.
func TestFoldRows(t *testing.T) {
	tests := []struct {
		name    string
		reducer sdk.Reducer
		rows    int64
	}{
		{"one-vs-all", oneVsAll{}, 36},
		{"one-vs-one", pairwise{}, 24},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g, _ := pluginGrid(t)
			r := host.NewReducerClient(plugintest.Conn(t, sdk.WithReducer(tt.reducer)))
			info := tt.reducer.Info()
			red := g.Cells[0].Reduction
			red.Plugin = &host.Plugin{Binary: host.Binary{Name: info.Name}, Reducer: r, ReducerInfo: &info}
			red.Scheme = info.Schemes[0]
			rows, err := g.FoldRows(context.Background(), g.Cells[0])
			if err != nil || rows != tt.rows {
				t.Errorf("FoldRows = %d, %v; want %d", rows, err, tt.rows)
			}
			fits, err := g.FoldFits(context.Background(), g.Cells[0])
			if err != nil || fits != (Fits{Binary: 3}) {
				t.Errorf("FoldFits = %+v, %v; want 3 binary", fits, err)
			}
		})
	}
}
