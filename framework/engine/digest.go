package engine

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"hash"
	"sort"

	"github.com/polyclass/polyclass/framework/config"
	"github.com/polyclass/polyclass/framework/host"
	"github.com/polyclass/polyclass/framework/param"
)

// digestVersion changes whenever what a cell digest covers changes, so that
// cells of an older bench are recomputed rather than trusted.
const digestVersion = "polyclass cell digest v1"

// CellDigest returns the SHA-256 (hex) of everything that determines the
// numbers of cell c of grid g: the cell's identity and full parameters
// (learner and reduction), the experiment's seed, the dataset's content
// (SHA-256) and reading options, its classes and fold assignment, the
// encoder pipeline (every step's type and options), the learner and reducer
// plugins' binaries (SHA-256) and versions, and the metrics computed. File
// paths, timeouts, worker counts and output settings are left out: they do
// not change a cell's numbers.
func CellDigest(g *Grid, c *Cell) string {
	h := sha256.New()
	put := func(key string, vals ...string) {
		fmt.Fprintf(h, "%s", key)
		for _, v := range vals {
			fmt.Fprintf(h, " %q", v)
		}
		h.Write([]byte{'\n'})
	}
	put(digestVersion)
	put("seed", fmt.Sprint(g.Experiment.Seed))
	put("cell", c.ID().Key())

	d := c.Dataset
	dc := d.Config
	put("dataset.sha256", d.SHA256)
	if d.TestSHA256 != "" {
		put("dataset.test_sha256", d.TestSHA256)
	}
	put("dataset.target", dc.Target, fmt.Sprint(dc.TargetDefaulted), dc.LabelsPrefix, dc.Delimiter)
	put("dataset.labels", dc.Labels...)
	put("dataset.categorical", dc.Categorical...)
	put("dataset.numeric", dc.Numeric...)
	put("dataset.ignore", dc.Ignore...)
	put("dataset.missing", dc.Missing...)
	put("dataset.classes", d.Classes...)
	put("dataset.multilabel", fmt.Sprint(d.MultiLabel))
	put("folds", fmt.Sprint(d.NumFolds), fmt.Sprint(len(d.Folds)))
	foldsDigest(h, d.Folds)

	encoders := map[string]*config.Encoder{}
	for _, e := range g.Experiment.Encoders {
		encoders[e.Name] = e
	}
	for i, name := range c.Pipeline.Config.Steps {
		e := encoders[name]
		if e == nil {
			put("step", fmt.Sprint(i), name)
			continue
		}
		put("step", fmt.Sprint(i), name, e.Type)
		putParams(put, "step.option", configParams(e.Options))
	}

	put("learner", c.Learner.Config.Plugin)
	putParams(put, "learner.param", c.Params)
	putPlugin(put, "learner.plugin", c.Learner.Plugin)
	put("reduction", c.Reduction.Config.Plugin, c.Reduction.Config.Scheme)
	putParams(put, "reduction.param", c.RedParams)
	putPlugin(put, "reduction.plugin", c.Reduction.Plugin)
	if t := c.Learner.Config.Tune; t != nil {
		put("tune", fmt.Sprint(t.Folds), c.Learner.TuneMetric, fmt.Sprint(t.InnerSeed))
	}
	if cal := c.Reduction.Config.Calibrate; cal != "" {
		put("calibrate", cal)
	}
	if w := c.ClassWeight(); w != nil {
		put("class_weight", w.String())
	}

	metrics := append([]string(nil), g.Metrics...)
	sort.Strings(metrics)
	put("metrics", metrics...)
	return hex.EncodeToString(h.Sum(nil))
}

// Digests returns the digest of every cell of g, by cell index.
func Digests(g *Grid) []string {
	out := make([]string, len(g.Cells))
	for i, c := range g.Cells {
		out[i] = CellDigest(g, c)
	}
	return out
}

func foldsDigest(h hash.Hash, folds [][]int) {
	var buf [binary.MaxVarintLen64]byte
	for _, rep := range folds {
		h.Write(buf[:binary.PutUvarint(buf[:], uint64(len(rep)))])
		for _, f := range rep {
			h.Write(buf[:binary.PutVarint(buf[:], int64(f))])
		}
	}
	h.Write([]byte{'\n'})
}

func configParams(ps map[string]config.Param) param.Params {
	out := param.Params{}
	for n, p := range ps {
		out[n] = p.Value
	}
	return out
}

func putParams(put func(string, ...string), key string, p param.Params) {
	names := make([]string, 0, len(p))
	for n := range p {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		put(key, n, fmt.Sprint(p[n].Kind()), p[n].String())
	}
}

func putPlugin(put func(string, ...string), key string, p *host.Plugin) {
	if p == nil {
		put(key)
		return
	}
	put(key, p.Name, p.SHA256, p.Version())
}
