package convert

import (
	pb "github.com/polyclass/polyclass/framework/internal/protov1"
	"github.com/polyclass/polyclass/framework/problem"
)

// CodeDiagnosticsToPB returns the message form of d; nil stays nil.
func CodeDiagnosticsToPB(d *problem.CodeDiagnostics) *pb.CodeDiagnostics {
	if d == nil {
		return nil
	}
	return &pb.CodeDiagnostics{
		Classes: int32(d.Classes), Columns: int32(d.Columns),
		MinDistance: d.MinDistance, MeanDistance: d.MeanDistance, Correcting: int32(d.Correcting),
	}
}

// CodeDiagnosticsFromPB converts a plan's diagnostics; a plan without them
// (or a v1 plugin that sends only the deprecated string map, which the host
// does not read) gives nil.
func CodeDiagnosticsFromPB(d *pb.CodeDiagnostics) *problem.CodeDiagnostics {
	if d == nil {
		return nil
	}
	return &problem.CodeDiagnostics{
		Classes: int(d.GetClasses()), Columns: int(d.GetColumns()),
		MinDistance: d.GetMinDistance(), MeanDistance: d.GetMeanDistance(), Correcting: int(d.GetCorrecting()),
	}
}
