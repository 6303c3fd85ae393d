package engine

import (
	"fmt"
	"slices"
	"strings"

	"github.com/polyclass/polyclass/framework/config"
	"github.com/polyclass/polyclass/framework/encode"
	"github.com/polyclass/polyclass/framework/safetext"
	"github.com/polyclass/polyclass/framework/suggest"
)

// encoderColumns records, for each encoder with a columns option, what
// each entry meets on the frames its steps get in the dry runs
// (encodable): an entry that meets a column the encoder takes on some
// dataset is fine; one that meets none on every dataset it was tried on
// is an error at the columns option (reportEncoderColumns), since the
// step would leave it alone without a word.
type encoderColumns map[*config.Encoder]map[string]*columnEntry

// columnEntry is what one entry of an encoder's columns option met: taken
// when some step's frame had it as a column the encoder takes, and else
// why not on the first dataset that lacked it (why) and the names of the
// datasets that lacked it.
type columnEntry struct {
	taken    bool
	why      string
	datasets []string
}

// stepColumns records what the columns of encoder e, step of a pipeline
// that gets frame f on dataset d, meet (see encoderColumns).
func (ec encoderColumns) stepColumns(e *config.Encoder, d *Dataset, p *Pipeline, f *encode.Frame) {
	opt, ok := e.Options["columns"]
	kind, known := encode.Kinds()[e.Type]
	if !ok || !known {
		return
	}
	var columns []string
	for _, v := range opt.Value.Elems() {
		columns = append(columns, v.Str())
	}
	if ec[e] == nil {
		ec[e] = map[string]*columnEntry{}
	}
	missed := map[string]encode.Unselected{}
	for _, u := range kind.Takes.Unselected(columns, f) {
		missed[u.Name] = u
	}
	for _, n := range columns {
		ent := ec[e][n]
		if ent == nil {
			ent = &columnEntry{}
			ec[e][n] = ent
		}
		u, miss := missed[n]
		if !miss {
			ent.taken = true
			continue
		}
		if ent.why == "" {
			ent.why = whyUnselected(e, kind.Takes, u, d, p, f)
		}
		if !slices.Contains(ent.datasets, d.Config.Name) {
			ent.datasets = append(ent.datasets, d.Config.Name)
		}
	}
}

// whyUnselected says why entry u of encoder e's columns, an encoder of
// columns of kind takes, names no column it takes of the frame f that
// its step in pipeline p gets on dataset d.
func whyUnselected(e *config.Encoder, takes encode.Takes, u encode.Unselected, d *Dataset, p *Pipeline, f *encode.Frame) string {
	c := d.Config
	name := safetext.Show(u.Name)
	switch {
	case u.OtherKind != "":
		fix := "list it in the dataset's categorical to read it as text, or take it out of columns"
		if takes == encode.TakesNumeric {
			fix = "encode it with onehot, hash or counts, or take it out of columns"
		}
		return fmt.Sprintf("%s is a %s column of dataset %q, and a %s encoder takes %s columns only (%s)", name, u.OtherKind, c.Name, e.Type, takes, fix)
	case u.Name == c.Target:
		return fmt.Sprintf("%s is the target of dataset %q, which no encoder takes", name, c.Name)
	case slices.Contains(c.Ignore, u.Name):
		return fmt.Sprintf("%s is in the ignore list of dataset %q", name, c.Name)
	case slices.Contains(encode.TakesBoth.Taken(d.Features), u.Name):
		return fmt.Sprintf("%s, a column of dataset %q, is gone when the step runs: an earlier step of pipeline %q has encoded it", name, c.Name, p.Config.Name)
	case slices.Contains(d.Table.ColumnNames(), u.Name):
		return fmt.Sprintf("%s is a label column of dataset %q, which no encoder takes", name, c.Name)
	}
	taken := takes.Taken(f)
	if len(taken) == 0 {
		return fmt.Sprintf("%s is not a column of dataset %q, which has no %s column at this step", name, c.Name, takes)
	}
	return fmt.Sprintf("%s is not a column of dataset %q%s; its %s columns at this step are: %s", name, c.Name,
		suggest.DidYouMean(u.Name, taken), takes, safetext.Few(taken, safetext.Listed, safetext.Show))
}

// reportEncoderColumns reports each entry of an encoder's columns option
// that named no column the encoder takes on any dataset it met, at the
// option, in the order of the encoders and of their entries.
func (r *resolver) reportEncoderColumns(ec encoderColumns) {
	for _, e := range r.exp.Encoders {
		entries := ec[e]
		if entries == nil {
			continue
		}
		for _, v := range e.Options["columns"].Value.Elems() {
			ent := entries[v.Str()]
			if ent == nil || ent.taken || ent.why == "" {
				continue
			}
			entries[v.Str()] = nil // an entry given twice is reported once
			also := ""
			if len(ent.datasets) > 1 {
				others := make([]string, len(ent.datasets)-1)
				for i, n := range ent.datasets[1:] {
					others[i] = fmt.Sprintf("%q", n)
				}
				also = fmt.Sprintf(" The same holds on dataset(s) %s.", strings.Join(others, ", "))
			}
			r.errorf(e.Options["columns"].Range, "Encoder column not encoded",
				"Encoder %q (%s): columns names %s, which the step would leave alone without a word: %s.%s",
				e.Name, e.Type, safetext.Show(v.Str()), ent.why, also)
		}
	}
}

// encoder returns the experiment's encoder named name, nil when there is
// none.
func (r *resolver) encoder(name string) *config.Encoder {
	for _, e := range r.exp.Encoders {
		if e.Name == name {
			return e
		}
	}
	return nil
}
