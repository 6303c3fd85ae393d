package main

import (
	"bytes"
	"flag"
	"fmt"
	"strings"
	"testing"

	"github.com/polyclass/polyclass/framework/host"
	"github.com/polyclass/polyclass/internal/adversarial"
)

var _ = flag.Bool("update", false, "rewrite the want files of the adversarial corpus")

// TestAdversarialExperiments runs the corpus of experiment files
// (testdata/adversarial/experiments) as bench validate does (prepare:
// parse, resolve against the data and the plugins, check the grid): each
// case's first file is the experiment, the others its data, folds and
// test files. What validate prints (every diagnostic with its file:line:col
// and the source line it points at), followed, when the file is accepted,
// by "ok: N cells" and the code matrices' diagnostics, must be the case's want ($PLUGINS stands for the
// plugins directory). One host serves every case,
// so that each plugin process starts once.
func TestAdversarialExperiments(t *testing.T) {
	h := host.New(pluginsDir, nil)
	defer h.Close()
	adversarial.Run(t, "experiments", func(t *testing.T, c *adversarial.Case, dir string) string {
		file := c.WriteFiles(t, dir)
		var stderr bytes.Buffer
		g, _, err := prepare(commandContext(t), h, file, nil, 0, &stderr)
		out := strings.ReplaceAll(strings.TrimRight(stderr.String(), "\n"), pluginsDir, "$PLUGINS")
		if err == nil {
			var codes bytes.Buffer
			writeCodes(&codes, g.Codes)
			out = strings.TrimLeft(out+fmt.Sprintf("\n%s%d cells", adversarial.Accepted, len(g.Cells))+strings.TrimRight(codes.String(), "\n"), "\n")
		}
		return out
	})
}
