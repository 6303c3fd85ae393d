package main

import (
	"flag"
	"fmt"
	"strings"

	"github.com/polyclass/polyclass/framework/safetext"
)

// gateArgs refuses a flag given or an argument that holds a character
// safetext refuses, naming it: every string bench puts into a job script,
// a manifest or a printed command comes from one of them or from the
// experiment file, which the parser gates.
func gateArgs(fs *flag.FlagSet, args []string) error {
	var err error
	fs.Visit(func(f *flag.Flag) {
		if err == nil {
			err = gateValue(strings.Fields(flagDocs[f.Name][0])[0], f.Value.String())
		}
	})
	for _, a := range args {
		if err == nil {
			err = gateValue("argument", a)
		}
	}
	return err
}

// gateValue refuses a value that safetext refuses, naming what it is.
func gateValue(what, value string) error {
	if err := safetext.Check(value); err != nil {
		return fmt.Errorf("%s %s: %w; %s", what, safetext.Show(value), err, safetext.Rule)
	}
	return nil
}
