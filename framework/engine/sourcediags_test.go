package engine_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/polyclass/polyclass/framework/config"
	"github.com/polyclass/polyclass/framework/engine"
	"github.com/polyclass/polyclass/framework/host"
	"github.com/polyclass/polyclass/framework/report"
	"github.com/polyclass/polyclass/framework/sdk"
	"github.com/polyclass/polyclass/plugins/reducers/reducer"
)

// resolveSource writes files (name: text) into a new directory, parses
// src there as exp.hcl and resolves it with a host that runs learner,
// in process, as the plugin named plugin, and the reducers. It returns
// the diagnostics as bench writes them, the directory's path dropped
// ("exp.hcl:4:12: error: …"), and whether any of them is an error.
func resolveSource(t *testing.T, files map[string]string, plugin string, learner sdk.Learner, src string) (text string, hasErrors bool) {
	t.Helper()
	dir := t.TempDir()
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	h := host.New("", nil)
	h.Register(plugin, host.InProcess{Learner: learner})
	h.Register("reducers", host.InProcess{Reducer: reducer.New()})
	t.Cleanup(h.Close)
	file := filepath.Join(dir, "exp.hcl")
	p := config.NewParser(report.FormatNames())
	exp, diags := p.ParseSource([]byte(src), file)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	_, diags = engine.Resolve(context.Background(), exp, h, engine.ResolveOptions{})
	var out bytes.Buffer
	if err := config.WriteDiagnostics(&out, p.Files(), diags); err != nil {
		t.Fatal(err)
	}
	return strings.ReplaceAll(out.String(), dir+string(filepath.Separator), ""), diags.HasErrors()
}
