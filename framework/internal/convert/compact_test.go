package convert

import (
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"

	"google.golang.org/protobuf/proto"

	pb "github.com/polyclass/polyclass/framework/internal/protov1"
	"github.com/polyclass/polyclass/framework/problem"
)

// codeProblems returns the Binary problems of a K × L code matrix (row
// major) over rows of the given classes, with their weights and seeds.
func codeProblems(code []int8, L int, labels []int) []problem.Problem {
	ps := make([]problem.Problem, L)
	for j := range ps {
		t := make([]float64, len(labels))
		w := make([]float64, len(labels))
		for i, y := range labels {
			t[i] = float64(code[y*L+j])
			w[i] = float64(i%3) + 0.5
		}
		ps[j] = problem.Problem{Kind: problem.Binary, Targets: t, Weights: w, Seed: uint64(j + 7)}
	}
	return ps
}

// roundTrip sends problems in compact form through the wire and back.
func roundTrip(t *testing.T, ps []problem.Problem) ([]problem.Problem, *pb.FitRequest) {
	t.Helper()
	msgs, groups, ok := CompactProblemsToPB(ps)
	if !ok {
		t.Fatal("no compact form")
	}
	return readBack(t, msgs, groups)
}

// readBack marshals problem messages and their row groups in a Fit
// request, unmarshals it and reads the problems.
func readBack(t *testing.T, msgs []*pb.Problem, groups []int32) ([]problem.Problem, *pb.FitRequest) {
	t.Helper()
	b, err := proto.Marshal(&pb.FitRequest{Problems: msgs, RowGroups: groups})
	if err != nil {
		t.Fatal(err)
	}
	var req pb.FitRequest
	if err := proto.Unmarshal(b, &req); err != nil {
		t.Fatal(err)
	}
	got, err := ProblemsFromPB(req.GetProblems(), req.GetRowGroups())
	if err != nil {
		t.Fatal(err)
	}
	return got, &req
}

// One-vs-one over 4 classes: 6 problems, the rows of the other two
// classes 0 (unused) in each; the compact form has 4 groups (the classes)
// and gives the dense targets back bit for bit, weights and seeds
// untouched.
func TestCompactTargetsOVORoundTrip(t *testing.T) {
	const K = 4
	var code []int8
	L := K * (K - 1) / 2
	code = make([]int8, K*L)
	j := 0
	for a := 0; a < K; a++ {
		for b := a + 1; b < K; b++ {
			code[a*L+j], code[b*L+j] = 1, -1
			j++
		}
	}
	labels := []int{2, 0, 3, 3, 1, 0, 2, 1, 1, 3}
	ps := codeProblems(code, L, labels)
	got, req := roundTrip(t, ps)
	if !reflect.DeepEqual(got, ps) {
		t.Fatalf("round trip\n got %v\nwant %v", got, ps)
	}
	// Group g holds class 2, 0, 1, 3 for g = 0..3: the first class
	// keeps group 0, and each problem splits off the classes it sets apart.
	if want := []int32{0, 1, 3, 3, 2, 1, 0, 2, 2, 3}; !slices.Equal(req.GetRowGroups(), want) {
		t.Errorf("groups %v, want %v", req.GetRowGroups(), want)
	}
	for j, p := range req.GetProblems() {
		if len(p.GetTargets()) != 0 || len(p.GetCode()) != K {
			t.Errorf("problem %d: %d targets, %d code entries; want 0 and %d", j, len(p.GetTargets()), len(p.GetCode()), K)
		}
	}
	// Problem 0 separates class 0 (+1) from class 1 (−1).
	if want := []int32{0, 1, -1, 0}; !slices.Equal(req.GetProblems()[0].GetCode(), want) {
		t.Errorf("code of problem 0 %v, want %v", req.GetProblems()[0].GetCode(), want)
	}
}

// One problem alone still has a compact form: its groups are its values.
func TestCompactTargetsSingleProblem(t *testing.T) {
	ps := []problem.Problem{{Kind: problem.Binary, Targets: []float64{1, -1, 0, 1, -1}}}
	got, req := roundTrip(t, ps)
	if !reflect.DeepEqual(got, ps) {
		t.Fatalf("round trip %v, want %v", got, ps)
	}
	if want := []int32{0, 1, 2, 0, 1}; !slices.Equal(req.GetRowGroups(), want) {
		t.Errorf("groups %v, want %v", req.GetRowGroups(), want)
	}
}

// Problems without a compact form go dense: other kinds, other values,
// a −0 (which the compact form would turn into +0).
func TestCompactTargetsRefused(t *testing.T) {
	for name, ps := range map[string][]problem.Problem{
		"multiclass":  {{Kind: problem.Multiclass, Targets: []float64{0, 1, 0, 1}, NumClasses: 2}},
		"regression":  {{Kind: problem.Regression, Targets: []float64{1, 1, 1, 1}}},
		"value 2":     {{Kind: problem.Binary, Targets: []float64{1, 2, 1, 2}}},
		"minus zero":  {{Kind: problem.Binary, Targets: []float64{1, math.Copysign(0, -1), 1, 1}}},
		"NaN":         {{Kind: problem.Binary, Targets: []float64{1, math.NaN(), 1, 1}}},
		"no rows":     {{Kind: problem.Binary}},
		"none":        {},
		"row counts":  {{Kind: problem.Binary, Targets: []float64{1, -1, 1, 1}}, {Kind: problem.Binary, Targets: []float64{1, -1}}},
		"mixed kinds": {{Kind: problem.Binary, Targets: []float64{1, 1, -1, -1}}, {Kind: problem.Regression, Targets: []float64{1, 1, -1, -1}}},
	} {
		if _, _, ok := CompactProblemsToPB(ps); ok {
			t.Errorf("%s: compact form of %v", name, ps)
		}
	}
}

// Dense problems pass ProblemsFromPB as ProblemFromPB reads them, a
// Multiclass problem's unused rows (0 on the wire) as NotUsed.
func TestProblemsFromPBDense(t *testing.T) {
	ps := []problem.Problem{
		{Kind: problem.Multiclass, Targets: []float64{2, problem.NotUsed, 0}, NumClasses: 3},
		{Kind: problem.Binary, Targets: []float64{1, 0, -1}},
	}
	msgs := []*pb.Problem{ProblemToPB(ps[0]), ProblemToPB(ps[1])}
	got, err := ProblemsFromPB(msgs, nil)
	if err != nil || !reflect.DeepEqual(got, ps) {
		t.Fatalf("got %v, %v; want %v", got, err, ps)
	}
	if got, err := ProblemsFromPB(nil, nil); got != nil || err != nil {
		t.Errorf("no problems: %v, %v", got, err)
	}
}

// Malformed compact problems are errors, not targets.
func TestProblemsFromPBBadCode(t *testing.T) {
	for name, c := range map[string]struct {
		p      *pb.Problem
		groups []int32
	}{
		"group out of range": {&pb.Problem{Kind: pb.Problem_BINARY, Code: []int32{1, -1}}, []int32{0, 2}},
		"negative group":     {&pb.Problem{Kind: pb.Problem_BINARY, Code: []int32{1, -1}}, []int32{-1}},
		"entry 2":            {&pb.Problem{Kind: pb.Problem_BINARY, Code: []int32{1, 2}}, []int32{0, 1}},
		"regression":         {&pb.Problem{Kind: pb.Problem_REGRESSION, Code: []int32{1, -1}}, []int32{0, 1}},
		"targets and code":   {&pb.Problem{Kind: pb.Problem_BINARY, Code: []int32{1, -1}, Targets: []float64{1, -1}}, []int32{0, 1}},
	} {
		if got, err := ProblemsFromPB([]*pb.Problem{c.p}, c.groups); err == nil {
			t.Errorf("%s: no error, problems %v", name, got)
		}
	}
}

// letterOneVsOne returns the one-vs-one problems of 26 classes (325, as
// for letter) over n rows whose classes cycle.
func letterOneVsOne(n int) []problem.Problem {
	const K = 26
	L := K * (K - 1) / 2
	code := make([]int8, K*L)
	j := 0
	for a := 0; a < K; a++ {
		for b := a + 1; b < K; b++ {
			code[a*L+j], code[b*L+j] = 1, -1
			j++
		}
	}
	labels := make([]int, n)
	for i := range labels {
		labels[i] = (i * 7) % K
	}
	return codeProblems(code, L, labels)
}

// The compact form of the letter one-vs-one plan (325 problems over 18000
// training rows) takes a few kilobytes where the dense form takes 47 MB.
func TestCompactTargetsSize(t *testing.T) {
	const n = 18000
	ps := letterOneVsOne(n)
	for i := range ps {
		ps[i].Weights = nil
	}
	msgs, groups, ok := CompactProblemsToPB(ps)
	if !ok {
		t.Fatal("no compact form")
	}
	compact := proto.Size(&pb.FitRequest{Problems: msgs, RowGroups: groups})
	dense := &pb.FitRequest{}
	for _, p := range ps {
		dense.Problems = append(dense.Problems, ProblemToPB(p))
	}
	if d := proto.Size(dense); compact > 30000 || d < 8*n*len(ps) {
		t.Errorf("compact %d bytes, dense %d", compact, d)
	}
}

// BenchmarkCompactProblemsToPB: the letter one-vs-one plan of one fold
// (325 problems × 18000 rows) into compact form, as a reducer and the
// host send it.
func BenchmarkCompactProblemsToPB(b *testing.B) {
	ps := letterOneVsOne(18000)
	b.ReportAllocs()
	for b.Loop() {
		if _, _, ok := CompactProblemsToPB(ps); !ok {
			b.Fatal("no compact form")
		}
	}
}

// Problems left to a code matrix (one-vs-one over 4 classes, with weights
// and seeds) travel as the rows' labels and one code column per problem,
// and read back as the dense targets of the same code, bit for bit; a
// class without rows keeps its code entry.
func TestCodeProblemsRoundTrip(t *testing.T) {
	code := []int8{
		1, 1, 1, 0, 0, 0,
		-1, 0, 0, 1, 1, 0,
		0, -1, 0, -1, 0, 1,
		0, 0, -1, 0, -1, -1,
	}
	labels := []int{2, 0, 1, 1, 0, 2, 0} // class 3 has no rows
	want := codeProblems(code, 6, labels)
	ps := make([]problem.Problem, len(want))
	for j, p := range want {
		ps[j] = p
		ps[j].Targets = nil
	}
	cm := &problem.CodeMatrix{Rows: 4, Cols: 6, Entries: code}
	msgs, groups, err := CodeProblemsToPB(ps, cm, labels)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(groups, []int32{2, 0, 1, 1, 0, 2, 0}) {
		t.Errorf("row groups %v, want the labels", groups)
	}
	if got := msgs[3].GetCode(); !slices.Equal(got, []int32{0, 1, -1, 0}) {
		t.Errorf("problem 3's code %v, want column 3 of the matrix", got)
	}
	if got, _ := readBack(t, msgs, groups); !reflect.DeepEqual(got, want) {
		t.Errorf("read back %v, want %v", got, want)
	}
	dense, err := CodeProblemsToDense(ps, cm, labels)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(dense, want) {
		t.Errorf("dense form %v, want %v", dense, want)
	}
}

func TestCodeProblemsErrors(t *testing.T) {
	binary := func(n int) []problem.Problem {
		ps := make([]problem.Problem, n)
		for j := range ps {
			ps[j].Kind = problem.Binary
		}
		return ps
	}
	ova := &problem.CodeMatrix{Rows: 2, Cols: 2, Entries: []int8{1, -1, -1, 1}}
	withTargets := binary(2)
	withTargets[1].Targets = []float64{1, -1}
	multi := binary(2)
	multi[0].Kind = problem.Multiclass
	for _, tt := range []struct {
		name     string
		problems []problem.Problem
		code     *problem.CodeMatrix
		labels   []int
		want     string
	}{
		{"no code", binary(2), nil, []int{0, 1}, "need the plan's code matrix"},
		{"entries", binary(2), &problem.CodeMatrix{Rows: 2, Cols: 2, Entries: []int8{1, -1, -1}}, []int{0}, "2×2 has 3 entries"},
		{"count", binary(3), ova, []int{0, 1}, "3 problems without targets for the 2 columns"},
		{"targets", withTargets, ova, []int{0, 1}, "problem 1: a binary problem with 2 targets"},
		{"kind", multi, ova, []int{0, 1}, "problem 0: a multiclass problem"},
		{"entry", binary(2), &problem.CodeMatrix{Rows: 2, Cols: 2, Entries: []int8{1, -1, 2, 1}}, []int{0, 1}, "entry (1, 0) is 2"},
		{"label", binary(2), ova, []int{0, 2}, "row 1 has label 2, outside the code matrix's rows 0..1"},
		{"negative label", binary(2), ova, []int{-1}, "row 0 has label -1"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := CodeProblemsToPB(tt.problems, tt.code, tt.labels)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("CodeProblemsToPB: error %v, want one containing %q", err, tt.want)
			}
			if _, err := CodeProblemsToDense(tt.problems, tt.code, tt.labels); err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("CodeProblemsToDense: error %v, want one containing %q", err, tt.want)
			}
		})
	}
}
