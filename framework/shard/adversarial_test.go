package shard

import (
	"flag"
	"strings"
	"testing"

	"github.com/polyclass/polyclass/internal/adversarial"
)

var _ = flag.Bool("update", false, "rewrite the want files of the adversarial corpus")

// TestAdversarialShardSpecs runs the corpus of shard specs
// (testdata/adversarial/shards): each case's "spec" file holds what
// bench run --shard is given, which Parse must refuse with the case's
// message or accept ("ok: I/N").
func TestAdversarialShardSpecs(t *testing.T) {
	adversarial.Run(t, "shards", func(t *testing.T, c *adversarial.Case, _ string) string {
		b, _ := c.File("spec")
		s, err := Parse(strings.TrimSuffix(string(b), "\n"))
		if err != nil {
			return err.Error()
		}
		return adversarial.Accepted + s.String()
	})
}
