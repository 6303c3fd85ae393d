package convert

import (
	pb "github.com/polyclass/polyclass/framework/internal/protov1"
	"github.com/polyclass/polyclass/framework/problem"
)

// ProblemToPB returns the message form of p, with dense targets (compact
// ones expanded: see ProblemsToPB for the compact form).
func ProblemToPB(p problem.Problem) *pb.Problem {
	p = p.Dense()
	return &pb.Problem{
		Kind: pb.Problem_Kind(p.Kind), Targets: classesToWire(p.Kind, p.Targets), NumClasses: int32(p.NumClasses),
		Weights: p.Weights, Seed: p.Seed,
	}
}

// ProblemFromPB returns the problem of message p.
func ProblemFromPB(p *pb.Problem) problem.Problem {
	return problem.Problem{
		Kind: problem.ProblemKind(p.GetKind()), Targets: classesFromWire(problem.ProblemKind(p.GetKind()), p.GetTargets()), NumClasses: int(p.GetNumClasses()),
		Weights: p.GetWeights(), Seed: p.GetSeed(),
	}
}

// CodeToPB returns the message form of c; nil stays nil.
func CodeToPB(c *problem.CodeMatrix) *pb.CodeMatrix {
	if c == nil {
		return nil
	}
	e := make([]int32, len(c.Entries))
	for i, v := range c.Entries {
		e[i] = int32(v)
	}
	return &pb.CodeMatrix{Rows: int32(c.Rows), Cols: int32(c.Cols), Entries: e}
}

// CodeFromPB returns the code matrix of message c; nil stays nil.
func CodeFromPB(c *pb.CodeMatrix) *problem.CodeMatrix {
	if c == nil {
		return nil
	}
	e := make([]int8, len(c.GetEntries()))
	for i, v := range c.GetEntries() {
		e[i] = int8(v)
	}
	return &problem.CodeMatrix{Rows: int(c.GetRows()), Cols: int(c.GetCols()), Entries: e}
}
