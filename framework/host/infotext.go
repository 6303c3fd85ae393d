package host

import (
	"errors"
	"fmt"

	"github.com/polyclass/polyclass/framework/plugin"
	"github.com/polyclass/polyclass/framework/safetext"
)

// field is one string of a plugin's answer, named as a message names it.
// A visible field (a name, a version, a path that the report's
// "Computed by" line and the manifest show) must also hold no character
// that does not show (safetext.CheckVisible); the others (descriptions)
// no control character (safetext.Check).
type field struct {
	name, value string
	visible     bool
}

// check returns the error of f's value by f's rule.
func (f field) check() error {
	if f.visible {
		return safetext.CheckVisible(f.value)
	}
	return safetext.Check(f.value)
}

// badInfoText reports every string of a plugin's Info answers that
// its rule refuses (field.check: a newline, a control character, a byte
// that is not UTF-8; in a name or version, also a bidi control or other
// invisible character): they reach the tables, the report and the
// set-up listings, where a newline in a version or a parameter name
// splits a Markdown row.
func badInfoText(li *plugin.LearnerInfo, ri *plugin.ReducerInfo) error {
	var fs []field
	if li != nil {
		fs = append(fs, learnerFields(li)...)
	}
	if ri != nil {
		fs = append(fs, reducerFields(ri)...)
	}
	return badText("Info", fs)
}

// CheckRuntime reports every name, version and path of the runtime
// components cs of a plugin's answer to the call named call
// ("CheckParams") that Info's rule refuses (see badInfoText): they reach
// the report's "Computed by" line, the cells' specs and manifest.json
// as the components of Info do, and are held to the same rule.
func CheckRuntime(call string, cs []plugin.Component) error {
	return badText(call, runtimeFields(cs))
}

// badText joins the errors of the fields fs of the answer to call, each
// value quoted with its invisible characters escaped (quoteHidden).
func badText(call string, fs []field) error {
	var errs []error
	for _, f := range fs {
		if err := f.check(); err != nil {
			errs = append(errs, fmt.Errorf("the %s answer's %s %s %w; a plugin's names, versions and descriptions may hold no control character, and its names, versions and paths no invisible or bidi control character", call, f.name, quoteHidden(f.value), err))
		}
	}
	return errors.Join(errs...)
}

// learnerFields lists the strings of a learner's Info answer.
func learnerFields(li *plugin.LearnerInfo) []field {
	fs := []field{{"learner name", li.Name, true}, {"learner version", li.Version, true}, {"learner description", li.Description, false}}
	fs = append(fs, paramFields("learner "+li.Name, li.Params)...)
	return append(fs, runtimeFields(li.Runtime)...)
}

// reducerFields lists the strings of a reducer's Info answer; a scheme's
// name, like the reducer's, is visible text.
func reducerFields(ri *plugin.ReducerInfo) []field {
	fs := []field{{"reducer name", ri.Name, true}, {"reducer version", ri.Version, true}, {"reducer description", ri.Description, false}}
	for _, sc := range ri.Schemes {
		fs = append(fs, field{name: "scheme name", value: sc.Name, visible: true}, field{name: "scheme " + showPath(sc.Name) + " description", value: sc.Description})
		fs = append(fs, paramFields("scheme "+showPath(sc.Name), sc.Params)...)
	}
	return append(fs, runtimeFields(ri.Runtime)...)
}

// paramFields lists the strings of the parameters of owner; a
// parameter's name is visible text (the report and the manifest show
// it), its description, default_means and allowed values are not.
func paramFields(owner string, specs []plugin.ParamSpec) []field {
	var fs []field
	for _, s := range specs {
		fs = append(fs, field{name: owner + " parameter name", value: s.Name, visible: true})
		p := owner + " parameter " + showPath(s.Name)
		fs = append(fs, field{name: p + " description", value: s.Description}, field{name: p + " default_means", value: s.DefaultMeans})
		for _, a := range s.Allowed {
			fs = append(fs, field{name: p + " allowed value", value: a})
		}
	}
	return fs
}

// runtimeFields lists the names, versions and paths of a plugin's
// runtime components (the report's "Computed by"), each visible text.
func runtimeFields(cs []plugin.Component) []field {
	var fs []field
	for _, c := range cs {
		label := "runtime component " + showPath(c.Name)
		fs = append(fs, field{"runtime component name", c.Name, true}, field{label + " version", c.Version, true}, field{label + " path", c.Path, true})
	}
	return fs
}
