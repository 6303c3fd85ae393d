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
	var req pb.FitRequest
	throughWire(t, &pb.FitRequest{Problems: msgs, RowGroups: groups}, &req)
	got, err := ProblemsFromPB(req.GetProblems(), req.GetRowGroups())
	if err != nil {
		t.Fatal(err)
	}
	for j, p := range got {
		if c := p.Compact; c == nil || p.Targets != nil || &c.Groups[0] != &got[0].Compact.Groups[0] {
			t.Fatalf("problem %d read back with %d dense targets, compact %v; want compact targets over the request's groups", j, len(p.Targets), c)
		}
	}
	return dense(got), &req
}

// dense returns problems with their targets dense.
func dense(ps []problem.Problem) []problem.Problem {
	out := make([]problem.Problem, len(ps))
	for j, p := range ps {
		out[j] = p.Dense()
	}
	return out
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
// (325 problems × 18000 rows) into compact form, from dense targets
// (grouped afresh) and from compact targets over one groups slice (sent
// as they are), as a reducer and the host send it.
func BenchmarkCompactProblemsToPB(b *testing.B) {
	const K, n = 26, 18000
	ps := letterOneVsOne(n)
	labels := make([]int, n)
	for i := range labels {
		labels[i] = (i * 7) % K
	}
	code := make([]int8, K*len(ps))
	for j, p := range ps {
		for i, y := range labels {
			code[y*len(ps)+j] = int8(p.Targets[i])
		}
	}
	for _, bb := range []struct {
		name string
		ps   []problem.Problem
	}{{"dense", ps}, {"one-groups-slice", codeColumns(ps, code, labels)}} {
		b.Run(bb.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, _, ok := CompactProblemsToPB(bb.ps); !ok {
					b.Fatal("no compact form")
				}
			}
		})
	}
}

// Problems with compact targets over one groups slice (one-vs-one over
// 4 classes, with weights and seeds, from problem.CodeColumn) travel as
// they are: the rows' labels and one code column per problem, read back
// as the dense targets of the same code, bit for bit; a class without
// rows keeps its code entry.
func TestSharedCompactRoundTrip(t *testing.T) {
	code := []int8{
		1, 1, 1, 0, 0, 0,
		-1, 0, 0, 1, 1, 0,
		0, -1, 0, -1, 0, 1,
		0, 0, -1, 0, -1, -1,
	}
	labels := []int{2, 0, 1, 1, 0, 2, 0} // class 3 has no rows
	want := codeProblems(code, 6, labels)
	ps := codeColumns(want, code, labels)
	msgs, groups, ok := CompactProblemsToPB(ps)
	if !ok {
		t.Fatal("no compact form")
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
	if got := dense(ps); !reflect.DeepEqual(got, want) {
		t.Errorf("dense form %v, want %v", got, want)
	}
	for j, p := range ps {
		if got := ProblemToPB(p).GetTargets(); !slices.Equal(got, want[j].Targets) {
			t.Errorf("problem %d's dense message: targets %v, want %v", j, got, want[j].Targets)
		}
	}
}

// codeColumns returns problems ps (of a K × L code over rows of labels)
// with compact targets instead, one groups slice for all of them.
func codeColumns(ps []problem.Problem, code []int8, labels []int) []problem.Problem {
	L := len(ps)
	cm := problem.CodeMatrix{Rows: len(code) / L, Cols: L, Entries: code}
	groups := make([]int32, len(labels))
	for i, y := range labels {
		groups[i] = int32(y)
	}
	out := make([]problem.Problem, L)
	for j, p := range ps {
		out[j] = p
		out[j].Targets, out[j].Compact = nil, problem.CodeColumn(cm, j, groups)
	}
	return out
}

// Compact problems that do not share one groups slice, or that come with
// dense ones, are grouped afresh from their targets: the same targets on
// the wire, under the groups compactForm finds.
func TestCompactRegrouped(t *testing.T) {
	code := []int8{1, -1, 0, -1, 1, -1, 0, -1, 1} // one-vs-all-like 3 × 3
	labels := []int{0, 1, 2, 2, 1, 0}
	want := codeProblems(code, 3, labels)
	common := codeColumns(want, code, labels)
	apart := slices.Clone(common)
	apart[1].Compact = &problem.CompactTargets{Groups: slices.Clone(common[1].Compact.Groups), Code: common[1].Compact.Code}
	mixed := slices.Clone(common)
	mixed[2] = want[2]
	for name, ps := range map[string][]problem.Problem{"groups apart": apart, "mixed": mixed} {
		msgs, groups, ok := CompactProblemsToPB(ps)
		if !ok {
			t.Fatalf("%s: no compact form", name)
		}
		if got, _ := readBack(t, msgs, groups); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: read back %v, want %v", name, got, want)
		}
	}
	if _, groups, _ := CompactProblemsToPB(common); &groups[0] != &common[0].Compact.Groups[0] {
		t.Error("the problems' one groups slice was not sent as it is")
	}
}

// CheckCompact names the problem at fault and what is wrong with its
// compact targets; dense problems and good compact ones pass.
func TestCheckCompact(t *testing.T) {
	groups := []int32{0, 1, 1, 2}
	good := problem.Problem{Kind: problem.Binary, Compact: &problem.CompactTargets{Groups: groups, Code: []int8{1, -1, 0}}}
	if err := CheckCompact([]problem.Problem{{Kind: problem.Regression, Targets: []float64{1}}, good, good}); err != nil {
		t.Errorf("good problems: %v", err)
	}
	with := func(f func(p *problem.Problem)) problem.Problem {
		p := good
		c := *good.Compact
		p.Compact = &c
		f(&p)
		return p
	}
	for _, tt := range []struct {
		name string
		p    problem.Problem
		want string
	}{
		{"kind", with(func(p *problem.Problem) { p.Kind = problem.Multiclass }), "problem 1: compact targets on a multiclass problem"},
		{"targets", with(func(p *problem.Problem) { p.Targets = []float64{1, 1, 1, 1} }), "problem 1: compact targets on a binary problem with 4 dense targets"},
		{"short code", with(func(p *problem.Problem) { p.Compact.Code = []int8{1, -1} }), "problem 1: row 3 is in group 2, outside the code's 0..1"},
		{"negative group", with(func(p *problem.Problem) { p.Compact.Groups = []int32{0, -1} }), "problem 1: row 1 is in group -1"},
		{"entry", with(func(p *problem.Problem) { p.Compact.Code = []int8{1, 2, 0} }), "problem 1: code entry 1 is 2"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if err := CheckCompact([]problem.Problem{good, tt.p}); err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %v, want one containing %q", err, tt.want)
			}
		})
	}
}

// FuzzProblemsFromPB reads compact problems of arbitrary row groups and
// code entries: an error, or problems whose every target is −1, 0 or +1
// (no index out of range), which go back to the same message.
func FuzzProblemsFromPB(f *testing.F) {
	f.Add([]byte{0, 1, 2, 1}, []byte{1, 0xff, 0}, []byte{0, 1, 0xff})
	f.Add([]byte{3}, []byte{1}, []byte{})
	f.Fuzz(func(t *testing.T, groupBytes, code0, code1 []byte) {
		groups := make([]int32, len(groupBytes))
		for i, b := range groupBytes {
			groups[i] = int32(int8(b))
		}
		var msgs []*pb.Problem
		for _, c := range [][]byte{code0, code1} {
			code := make([]int32, len(c))
			for g, b := range c {
				code[g] = int32(int8(b))
			}
			msgs = append(msgs, &pb.Problem{Kind: pb.Problem_BINARY, Code: code})
		}
		ps, err := ProblemsFromPB(msgs, groups)
		if err != nil {
			return
		}
		for j, p := range ps {
			if p.Compact == nil {
				continue
			}
			for i := range p.Rows() {
				if v := p.Target(i); v != -1 && v != 0 && v != 1 {
					t.Fatalf("problem %d, row %d: target %v", j, i, v)
				}
			}
		}
		if err := CheckCompact(ps); err != nil {
			t.Fatalf("problems read from the wire fail the check: %v", err)
		}
		if back, g, ok := CompactProblemsToPB(ps); ok && len(groups) > 0 {
			if !slices.Equal(g, groups) || !slices.EqualFunc(back, msgs, func(a, b *pb.Problem) bool { return slices.Equal(a.GetCode(), b.GetCode()) }) {
				t.Fatalf("sent back as groups %v, codes %v; read from %v, %v", g, back, groups, msgs)
			}
		}
	})
}
