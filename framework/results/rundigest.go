package results

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"
)

// digestVersion changes whenever what a run digest covers changes.
const digestVersion = "polyclass cell digest v1"

// RunDigest returns the SHA-256 (hex) of an experiment's name and its cell
// digests in cell order: the identity of a whole run.
func RunDigest(experiment string, cellDigests []string) string {
	h := sha256.New()
	fmt.Fprintf(h, "%s\nexperiment %q\n%s\n", digestVersion, experiment, strings.Join(cellDigests, "\n"))
	return hex.EncodeToString(h.Sum(nil))
}
