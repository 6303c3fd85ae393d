package main

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"

	"github.com/hashicorp/hcl/v2"

	"github.com/polyclass/polyclass/framework/config"
	"github.com/polyclass/polyclass/framework/safetext"
)

// parseChecked reads the experiment file once and parses it, refusing
// bytes whose SHA-256 is not wantSHA256 (when set) before the parse.
func parseChecked(p *config.Parser, file, wantSHA256 string) (*config.Experiment, hcl.Diagnostics, error) {
	src, diags := config.ReadSource(file)
	if diags != nil {
		return nil, diags, nil
	}
	if wantSHA256 != "" {
		sum := sha256.Sum256(src)
		if got := hex.EncodeToString(sum[:]); got != wantSHA256 {
			return nil, nil, fmt.Errorf("%s changed as it was read: its sha256 is now %s…, the run's %s…: not the recorded experiment file",
				safetext.Quote(file), shortDigest(got), shortDigest(wantSHA256))
		}
	}
	exp, diags := p.ParseSource(src, file)
	return exp, diags, nil
}
