package server

import (
	"reflect"
	"strings"
	"testing"

	"github.com/polyclass/polyclass/framework/internal/convert"
	pb "github.com/polyclass/polyclass/framework/internal/protov1"
	"github.com/polyclass/polyclass/framework/plugin"
)

// codeFitRequest returns a Fit request whose problems are the columns of
// a K×L code matrix over rows labelled labels, in compact form, with
// weights when weighted.
func codeFitRequest(t testing.TB, code [][]int8, labels []int, weighted bool) *pb.FitRequest {
	t.Helper()
	ps := make([]plugin.Problem, len(code[0]))
	for j := range ps {
		ps[j] = plugin.Problem{Kind: plugin.Binary, NumClasses: 2, Seed: uint64(j + 1), Targets: make([]float64, len(labels))}
		if weighted {
			ps[j].Weights = make([]float64, len(labels))
		}
		for i, y := range labels {
			ps[j].Targets[i] = float64(code[y][j])
			if weighted {
				ps[j].Weights[i] = 0.5 + float64((i*j)%7)/4
			}
		}
	}
	msgs, groups, ok := convert.CompactProblemsToPB(ps)
	if !ok {
		t.Fatal("the problems have no compact form")
	}
	return &pb.FitRequest{Problems: msgs, RowGroups: groups}
}

// Converting a compact problem gives the input and rows that converting
// its dense expansion gives, whichever groups it uses.
func TestConvertCompactProblems(t *testing.T) {
	for _, tt := range []struct {
		name     string
		code     [][]int8
		labels   []int
		weighted bool
	}{
		{"one-vs-one", [][]int8{{1, 1, 0}, {-1, 0, 1}, {0, -1, -1}}, []int{0, 1, 2, 2, 1, 0, 1, 2}, false},
		{"one-vs-all weighted", [][]int8{{1, -1, -1}, {-1, 1, -1}, {-1, -1, 1}}, []int{2, 1, 0, 0, 2, 1}, true},
		{"sparse code weighted", [][]int8{{1, 0, 0, -1}, {0, 0, 1, 1}, {0, 1, 0, -1}, {-1, -1, -1, 0}, {0, 1, 1, 0}}, []int{4, 0, 3, 3, 1, 2, 4, 0, 1}, true},
		{"class without rows", [][]int8{{1, -1}, {-1, 1}, {1, 1}}, []int{0, 1, 1, 0}, false},
		{"one row per class", [][]int8{{1, -1}, {-1, 1}}, []int{1, 0}, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			req := codeFitRequest(t, tt.code, tt.labels, tt.weighted)
			rows := make([]int, len(tt.labels))
			for i := range rows {
				rows[i] = 100 + 3*i
			}
			problems, members, err := fitProblems(req)
			if err != nil {
				t.Fatal(err)
			}
			for j, p := range problems {
				if p.Compact == nil || p.Targets != nil {
					t.Fatalf("problem %d is not compact: %+v", j, p)
				}
				in, used, err := convertProblem(rows, members, p)
				wantIn, wantUsed, wantErr := convertDense(rows, p.Dense())
				if (err == nil) != (wantErr == nil) {
					t.Fatalf("problem %d: error %v, want %v", j, err, wantErr)
				}
				if !reflect.DeepEqual(in, wantIn) || !reflect.DeepEqual(used, wantUsed) {
					t.Errorf("problem %d:\n got %+v rows %v\nwant %+v rows %v", j, in, used, wantIn, wantUsed)
				}
			}
		})
	}
}

// A one-vs-one problem's input holds its two classes' rows in row order.
func TestConvertCompactOneVsOne(t *testing.T) {
	req := codeFitRequest(t, [][]int8{{1}, {0}, {-1}}, []int{2, 1, 0, 2, 0, 1}, true)
	problems, members, err := fitProblems(req)
	if err != nil {
		t.Fatal(err)
	}
	in, used, err := convertProblem([]int{10, 11, 12, 13, 14, 15}, members, problems[0])
	if err != nil {
		t.Fatal(err)
	}
	if want := []int{10, 12, 13, 14}; !reflect.DeepEqual(used, want) {
		t.Errorf("rows %v, want %v", used, want)
	}
	if want := []float64{-1, 1, -1, 1}; !reflect.DeepEqual(in.Targets, want) {
		t.Errorf("targets %v, want %v", in.Targets, want)
	}
	if want := []float64{0.5, 0.5, 0.5, 0.5}; !reflect.DeepEqual(in.Weights, want) {
		t.Errorf("weights %v, want %v", in.Weights, want)
	}
}

// Malformed compact requests are errors that say what is wrong.
func TestFitProblemsBadGroups(t *testing.T) {
	code := []int32{1, -1}
	for _, tt := range []struct {
		name   string
		groups []int32
		want   string
	}{
		{"negative group", []int32{0, -1}, "row 1 is in group -1"},
		{"group beyond the code", []int32{0, 2, 1}, "row 1 is in group 2, outside the code's 0..1"},
	} {
		req := &pb.FitRequest{Problems: []*pb.Problem{{Kind: pb.Problem_BINARY, Code: code}}, RowGroups: tt.groups}
		if _, _, err := fitProblems(req); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: error %v, want %q", tt.name, err, tt.want)
		}
	}
}

// A compact problem must match the request's rows and use some of them.
func TestConvertCompactErrors(t *testing.T) {
	req := &pb.FitRequest{
		Problems: []*pb.Problem{
			{Kind: pb.Problem_BINARY, Code: []int32{0, 0}},
			{Kind: pb.Problem_BINARY, Code: []int32{1, -1}, Weights: []float64{1}},
			{Kind: pb.Problem_BINARY, Code: []int32{1, -1}},
		},
		RowGroups: []int32{0, 1, 1},
	}
	problems, members, err := fitProblems(req)
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		p    int
		rows []int
		want string
	}{
		{0, []int{0, 1, 2}, "the problem uses no rows"},
		{1, []int{0, 1, 2}, "1 weights for 3 rows"},
		{2, []int{0, 1}, "3 targets for 2 rows"},
	} {
		if _, _, err := convertProblem(tt.rows, members, problems[tt.p]); err == nil || err.Error() != tt.want {
			t.Errorf("problem %d: error %v, want %q", tt.p, err, tt.want)
		}
	}
}

func TestMergeRuns(t *testing.T) {
	runs := [][]int{{1, 7, 9}, {0, 2}, {3, 8}, {4, 5, 6}, {10}}
	if got, want := mergeRuns(runs, 11), []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10}; !reflect.DeepEqual(got, want) {
		t.Errorf("merge %v, want %v", got, want)
	}
	if got := mergeRuns(runs[:1], 3); &got[0] != &runs[0][0] {
		t.Error("a single run is copied")
	}
}

// letterOneVsOneRequest returns a Fit request for the one-vs-one problems
// of 26 classes (325, as for letter) over n rows whose classes cycle.
func letterOneVsOneRequest(b testing.TB, n int) *pb.FitRequest {
	const K = 26
	code := make([][]int8, K)
	for a := range code {
		code[a] = make([]int8, K*(K-1)/2)
	}
	j := 0
	for a := 0; a < K; a++ {
		for c := a + 1; c < K; c++ {
			code[a][j], code[c][j] = 1, -1
			j++
		}
	}
	labels := make([]int, n)
	for i := range labels {
		labels[i] = (i * 7) % K
	}
	return codeFitRequest(b, code, labels, false)
}

// BenchmarkConvertOneVsOne converts the 325 one-vs-one problems of a
// letter fold (18000 rows) to fit inputs: "dense" expands every problem's
// targets first, as the learner server did; "compact" visits only the
// rows of each problem's two classes.
func BenchmarkConvertOneVsOne(b *testing.B) {
	const n = 18000
	req := letterOneVsOneRequest(b, n)
	rows := make([]int, n)
	for i := range rows {
		rows[i] = i
	}
	b.Run("dense", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			ps, err := convert.ProblemsFromPB(req.GetProblems(), req.GetRowGroups())
			if err != nil {
				b.Fatal(err)
			}
			for _, p := range ps {
				if _, _, err := convertDense(rows, p.Dense()); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
	b.Run("compact", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			ps, members, err := fitProblems(req)
			if err != nil {
				b.Fatal(err)
			}
			for _, p := range ps {
				if _, _, err := convertProblem(rows, members, p); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
}
