package host

import (
	"errors"
	"fmt"

	"github.com/polyclass/polyclass/framework/plugin"
	"github.com/polyclass/polyclass/framework/safetext"
)

// field is one string of a plugin's Info answer, named as a message names
// it.
type field struct{ name, value string }

// badInfoText reports every string of a plugin's Info answers that
// safetext.Check refuses (a newline, a control character, a byte that is
// not UTF-8): they reach the tables, the report and the set-up listings,
// where a newline in a version or a parameter name splits a Markdown row.
func badInfoText(li *plugin.LearnerInfo, ri *plugin.ReducerInfo) error {
	var fs []field
	if li != nil {
		fs = append(fs, learnerFields(li)...)
	}
	if ri != nil {
		fs = append(fs, reducerFields(ri)...)
	}
	var errs []error
	for _, f := range fs {
		if err := safetext.Check(f.value); err != nil {
			errs = append(errs, fmt.Errorf("the Info answer's %s %q %w; a plugin's names, versions and descriptions may hold no control character", f.name, f.value, err))
		}
	}
	return errors.Join(errs...)
}

// learnerFields lists the strings of a learner's Info answer.
func learnerFields(li *plugin.LearnerInfo) []field {
	fs := []field{{"learner name", li.Name}, {"learner version", li.Version}, {"learner description", li.Description}}
	fs = append(fs, paramFields("learner "+li.Name, li.Params)...)
	return append(fs, runtimeFields(li.Runtime)...)
}

// reducerFields lists the strings of a reducer's Info answer.
func reducerFields(ri *plugin.ReducerInfo) []field {
	fs := []field{{"reducer name", ri.Name}, {"reducer version", ri.Version}, {"reducer description", ri.Description}}
	for _, sc := range ri.Schemes {
		fs = append(fs, field{"scheme name", sc.Name}, field{"scheme " + showPath(sc.Name) + " description", sc.Description})
		fs = append(fs, paramFields("scheme "+showPath(sc.Name), sc.Params)...)
	}
	return append(fs, runtimeFields(ri.Runtime)...)
}

// paramFields lists the strings of the parameters of owner.
func paramFields(owner string, specs []plugin.ParamSpec) []field {
	var fs []field
	for _, s := range specs {
		fs = append(fs, field{owner + " parameter name", s.Name})
		p := owner + " parameter " + showPath(s.Name)
		fs = append(fs, field{p + " description", s.Description}, field{p + " default_means", s.DefaultMeans})
		for _, a := range s.Allowed {
			fs = append(fs, field{p + " allowed value", a})
		}
	}
	return fs
}

// runtimeFields lists the names and versions of a plugin's runtime
// components (the report's "Computed by").
func runtimeFields(cs []plugin.Component) []field {
	var fs []field
	for _, c := range cs {
		fs = append(fs, field{"runtime component name", c.Name}, field{"runtime component " + showPath(c.Name) + " version", c.Version})
	}
	return fs
}
