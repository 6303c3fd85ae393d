package cv

import (
	"flag"
	"fmt"
	"testing"

	"github.com/polyclass/polyclass/internal/adversarial"
)

var _ = flag.Bool("update", false, "rewrite the want files of the adversarial corpus")

// TestAdversarialFoldsFiles runs the corpus of folds files
// (testdata/adversarial/folds): each case's file is read by ReadFoldsFile
// and must give the case's error, at its line and byte column, or, when
// accepted, the folds it holds ("ok: ...").
func TestAdversarialFoldsFiles(t *testing.T) {
	adversarial.Run(t, "folds", func(t *testing.T, c *adversarial.Case, dir string) string {
		folds, k, err := ReadFoldsFile(c.WriteFiles(t, dir))
		if err != nil {
			return err.Error()
		}
		sizes := make([]int, k)
		for _, f := range folds {
			sizes[f]++
		}
		return fmt.Sprintf("%s%d folds of %d rows, sizes %v", adversarial.Accepted, k, len(folds), sizes)
	})
}
