package main

import (
	"flag"
	"fmt"
	"strings"

	"github.com/polyclass/polyclass/framework/safetext"
)

// gateArgs refuses a flag given or an argument that holds a character
// safetext refuses, naming it, before anything is read or written: the
// strings bench puts into a job script, a manifest or a printed command
// come from them, from the experiment file (the parser gates its paths)
// or from the system (the bench binary's path, the working directory:
// the writers gate those).
func gateArgs(fs *flag.FlagSet, args []string) error {
	var err error
	fs.Visit(func(f *flag.Flag) {
		if err == nil {
			err = gateValue(flagName(f.Name), f.Value.String())
		}
	})
	for _, a := range args {
		if err == nil {
			err = gateValue("argument", a)
		}
	}
	return err
}

// flagName is the flag as its synopsis writes it (-o, --plugins).
func flagName(name string) string {
	if doc, ok := flagDocs[name]; ok {
		return strings.Fields(doc[0])[0]
	}
	return "--" + name
}

// gateValue refuses a value that safetext.CheckVisible refuses (a
// control, invisible or bidi control character), naming what it is.
func gateValue(what, value string) error {
	if err := safetext.CheckVisible(value); err != nil {
		return fmt.Errorf("%s %s: %w; %s", what, safetext.Show(value), err, safetext.Rule)
	}
	return nil
}
