package client

import (
	"errors"
	"fmt"

	"github.com/polyclass/polyclass/framework/plugin"
	"github.com/polyclass/polyclass/framework/safetext"
)

// badPlanText reports every warning and phrase of the description of a
// reducer's plan p that holds a character safetext.CheckVisible refuses
// (a control character, an escape, a bidi control or other invisible
// character): the host prints the warnings on the terminal and writes
// them, with the description, into the report and manifest.json, so an
// answer holding one is refused, as Info's names are (campaign 10's
// E10/E11/E13: a reducer's warning set a terminal's title and colours).
func badPlanText(p plugin.Plan) error {
	var errs []error
	bad := func(what, s string) {
		if err := safetext.CheckVisible(s); err != nil {
			errs = append(errs, fmt.Errorf("the Plan answer's %s %s %w; a reducer's warnings and plan description may hold no control, bidi control or other invisible character", what, safetext.Show(s), err))
		}
	}
	for i, w := range p.Warnings {
		bad(fmt.Sprintf("warning %d", i+1), w)
	}
	bad("description code", p.Description.Code)
	bad("description decoder", p.Description.Decoder)
	return errors.Join(errs...)
}
