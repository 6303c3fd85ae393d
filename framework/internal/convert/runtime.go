package convert

import (
	pb "github.com/polyclass/polyclass/framework/internal/protov1"
	"github.com/polyclass/polyclass/framework/software"
)

// ComponentsToPB converts a runtime report to its protocol form.
func ComponentsToPB(cs []software.Component) []*pb.Component {
	if len(cs) == 0 {
		return nil
	}
	out := make([]*pb.Component, len(cs))
	for i, c := range cs {
		out[i] = &pb.Component{Name: c.Name, Version: c.Version, Path: c.Path}
	}
	return out
}

// ComponentsFromPB converts a protocol runtime report; nil when empty (a
// plugin from before the report, or one that sends none).
func ComponentsFromPB(cs []*pb.Component) []software.Component {
	if len(cs) == 0 {
		return nil
	}
	out := make([]software.Component, len(cs))
	for i, c := range cs {
		out[i] = software.Component{Name: c.GetName(), Version: c.GetVersion(), Path: c.GetPath()}
	}
	return out
}
