package report

import (
	"github.com/polyclass/polyclass/framework/outcome"
	"github.com/polyclass/polyclass/framework/setup"
)

// shownNames maps the coordinates of a table row (as its cells name it)
// to what the tables show for it: the blocks' labels (setup.Row.Show).
// Rows it does not know show their names.
type shownNames map[setup.Key]setup.Key

// newShown returns the shown names of rows.
func newShown(rows []setup.Row) shownNames {
	s := make(shownNames, len(rows))
	for _, r := range rows {
		s[r.Key] = r.Show
	}
	return s
}

// of returns the coordinates of a cell's row and what the tables show
// for them.
func (s shownNames) of(id outcome.ID) (key, show setup.Key) {
	key = setup.Key{Encoder: id.Encoder, Learner: id.Learner, Params: id.Params, Reduction: id.Reduction}
	if sh, ok := s[key]; ok {
		return key, sh
	}
	return key, key
}

// shownRows returns the set-up rows of a spec, when it has them.
func shownRows(s *Setup) []setup.Row {
	if s == nil {
		return nil
	}
	return s.Rows
}
