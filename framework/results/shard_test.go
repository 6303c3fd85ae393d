package results

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/polyclass/polyclass/framework/cellspec"
)

// shardOf returns shard i of n of a grid of cells cells, owning the cells
// whose index is i modulo n.
func shardOf(i, n, cells int) *Shard {
	s := &Shard{Index: i, Count: n, Cells: []ShardCell{}}
	for c := i; c < cells; c += n {
		s.Cells = append(s.Cells, ShardCell{Index: c, Name: cell(c).Key(), Digest: digest(c)})
	}
	return s
}

func finishCells(t *testing.T, r *Run, cells ...int) {
	t.Helper()
	for _, i := range cells {
		if err := r.CellFinished(cell(i)); err != nil {
			t.Fatal(err)
		}
	}
}

// singleRun writes the tables of a whole run of cells cells into a new
// directory and returns it.
func singleRun(t *testing.T, cells int) string {
	t.Helper()
	dir := t.TempDir()
	r := begin(t, dir, "exp", cells, Options{Render: fakeRender})
	for i := 0; i < cells; i++ {
		finishCells(t, r, i)
	}
	if _, err := r.Finish(StatusComplete, 0); err != nil {
		t.Fatal(err)
	}
	return dir
}

func sameTables(t *testing.T, want, got string) {
	t.Helper()
	for _, f := range []string{"summary.csv", "folds.csv", "exp.md", "exp.json"} {
		a, err1 := os.ReadFile(filepath.Join(want, f))
		b, err2 := os.ReadFile(filepath.Join(got, f))
		if err1 != nil || err2 != nil {
			t.Fatalf("%s: %v %v", f, err1, err2)
		}
		if string(a) != string(b) {
			t.Errorf("%s of the merge differs from the single run's:\n%s\n---\n%s", f, b, a)
		}
	}
}

// TestShardsShareADirectory: two shards of one run write into one
// directory at once; a second copy of a running shard, a whole run and a
// merge are locked out meanwhile; the merge afterwards writes the tables
// of a single run, byte for byte.
func TestShardsShareADirectory(t *testing.T) {
	const cells = 5
	dir := t.TempDir()
	r0 := begin(t, dir, "exp", cells, Options{Render: fakeRender, Shard: shardOf(0, 2, cells)})
	r1 := begin(t, dir, "exp", cells, Options{Render: fakeRender, Shard: shardOf(1, 2, cells)})
	if _, err := Begin(dir, manifest("exp"), digests(cells), Options{Render: fakeRender, Shard: shardOf(1, 2, cells)}); err == nil || !strings.Contains(err.Error(), "shard 1/2 is already running") {
		t.Errorf("the same shard twice: %v", err)
	}
	if _, err := Begin(dir, manifest("exp"), digests(cells), Options{Render: fakeRender}); err == nil || !strings.Contains(err.Error(), "in use") {
		t.Errorf("a whole run beside shards: %v", err)
	}
	if _, err := Merge(dir, []string{dir}, fakeRender); err == nil || !strings.Contains(err.Error(), "in use") {
		t.Errorf("a merge while shards run: %v", err)
	}
	finishCells(t, r1, 1, 3)
	finishCells(t, r0, 0, 2, 4)
	for _, r := range []*Run{r0, r1} {
		written, err := r.Finish(StatusComplete, 2)
		if err != nil {
			t.Fatal(err)
		}
		// A shard writes its manifest only: no tables, no run manifest.
		if len(written) != 1 || !strings.HasPrefix(filepath.Base(written[0]), fmt.Sprintf("%d-of-2", r.shard.Index)) {
			t.Errorf("shard %s wrote %v", r.shard, written)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, ManifestFile)); err == nil {
		t.Error("a shard wrote manifest.json")
	}
	m0, err := readManifestFile(filepath.Join(dir, ShardsDir, "0-of-2.json"))
	if err != nil {
		t.Fatal(err)
	}
	if m0.Status != StatusComplete || m0.Finished != 3 || m0.Cells != cells || len(m0.Shard.Cells) != 3 || m0.RunDigest != RunDigest("exp", digests(cells)) {
		t.Errorf("shard 0's manifest: %+v", m0)
	}
	res, err := Merge(dir, []string{dir}, fakeRender)
	if err != nil {
		t.Fatal(err)
	}
	if !res.Complete() || res.Cells != cells || res.Manifest.Status != StatusComplete || res.Manifest.Uploads != 4 || res.Manifest.MergedShards != 2 {
		t.Errorf("merge: %+v, manifest %+v", res, res.Manifest)
	}
	sameTables(t, singleRun(t, cells), dir)
	// The merged directory is a results directory: bench table renders it.
	if _, _, err := Render(dir, fakeRender, nil); err != nil {
		t.Errorf("Render after the merge: %v", err)
	}
}

// TestShardResumesItsOwnCells: a shard run again keeps its cells whose
// digest matches, moves aside its own stale ones, and leaves alone the
// files of other shards, their unfinished writes included.
func TestShardResumesItsOwnCells(t *testing.T) {
	const cells = 4
	dir := t.TempDir()
	r := begin(t, dir, "exp", cells, Options{Render: fakeRender, Shard: shardOf(0, 2, cells)})
	finishCells(t, r, 0)
	if _, err := r.Finish(StatusInterrupted, 0); err != nil {
		t.Fatal(err)
	}
	cellsDir := filepath.Join(dir, CellsDir)
	stale := CellFileName(2, digest(9))                          // shard 0's cell 2, other inputs
	other := CellFileName(3, digest(9))                          // shard 1's, stale too: not ours
	otherTemp := tmpPrefix + CellFileName(1, digest(1)) + "-123" // shard 1 writing
	ownTemp := tmpPrefix + CellFileName(2, digest(2)) + "-456"   // killed shard 0's
	for _, name := range []string{stale, other, otherTemp, ownTemp} {
		if err := os.WriteFile(filepath.Join(cellsDir, name), []byte("{}"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var notes strings.Builder
	r = begin(t, dir, "exp", cells, Options{Render: fakeRender, Shard: shardOf(0, 2, cells), Notes: &notes})
	if len(r.Kept()) != 1 || r.Kept()[0] == nil {
		t.Errorf("kept %v, want cell 0", r.Kept())
	}
	for name, want := range map[string]bool{stale: false, other: true, otherTemp: true, ownTemp: false, CellFileName(0, digest(0)): true} {
		if _, err := os.Stat(filepath.Join(cellsDir, name)); (err == nil) != want {
			t.Errorf("%s: present %v, want %v", name, err == nil, want)
		}
	}
	if !strings.Contains(notes.String(), "moved cells/"+stale+" aside") || !strings.Contains(notes.String(), "1 of its 2 cells kept") {
		t.Errorf("notes:\n%s", notes.String())
	}
	finishCells(t, r, 2)
	if _, err := r.Finish(StatusComplete, 0); err != nil {
		t.Fatal(err)
	}
	log, err := os.ReadFile(filepath.Join(dir, ShardsDir, "0-of-2.log"))
	if err != nil || strings.Count(string(log), "=== ") != 4 {
		t.Errorf("shard log (two runs, two sections each):\n%s", log)
	}
}

// TestMergeReportsMissingCells: a shard that did not finish a cell and a
// shard that never ran: the merge names the first's missing cell with its
// shard, counts the second's, and writes tables that say they are partial.
func TestMergeReportsMissingCells(t *testing.T) {
	const cells = 6
	dir, out := t.TempDir(), t.TempDir()
	r0 := begin(t, dir, "exp", cells, Options{Render: fakeRender, Shard: shardOf(0, 3, cells)})
	finishCells(t, r0, 0) // not 3
	if _, err := r0.Finish(StatusInterrupted, 0); err != nil {
		t.Fatal(err)
	}
	other := t.TempDir()
	r1 := begin(t, other, "exp", cells, Options{Render: fakeRender, Shard: shardOf(1, 3, cells)})
	finishCells(t, r1, 1, 4)
	if _, err := r1.Finish(StatusComplete, 0); err != nil {
		t.Fatal(err)
	}
	res, err := Merge(out, []string{dir, other}, fakeRender)
	if err != nil {
		t.Fatal(err)
	}
	want := []MissingCell{{Index: 3, Name: cell(3).Key(), Shard: 0}}
	if fmt.Sprint(res.Missing) != fmt.Sprint(want) || res.MissingUnknown != 2 || fmt.Sprint(res.Found) != "[true true false]" || res.Cells != 3 {
		t.Errorf("missing %v (want %v), unknown %d (want 2), found %v, cells %d", res.Missing, want, res.MissingUnknown, res.Found, res.Cells)
	}
	if res.Manifest.Status != StatusIncomplete {
		t.Errorf("status %s", res.Manifest.Status)
	}
	md, _ := os.ReadFile(filepath.Join(out, "exp.md"))
	if !strings.Contains(string(md), "3 of 6 cells finished (run status: incomplete)") {
		t.Errorf("exp.md is not marked partial:\n%s", md)
	}
	// The sources are read only; out holds the merged cells and manifests.
	got, _ := filepath.Glob(filepath.Join(out, CellsDir, "*.json"))
	shards, _ := filepath.Glob(filepath.Join(out, ShardsDir, "*.json"))
	if len(got) != 3 || len(shards) != 2 {
		t.Errorf("out holds %d cells and %d shard manifests, want 3 and 2", len(got), len(shards))
	}
	if _, err := os.Stat(filepath.Join(dir, ManifestFile)); err == nil {
		t.Error("merge wrote into a source directory")
	}
}

// TestMergeRefusesOtherRuns: shards whose runs differ are refused with the
// difference named.
func TestMergeRefusesOtherRuns(t *testing.T) {
	tests := []struct {
		name   string
		change func(m *Manifest)
		want   string
	}{
		{"experiment", func(m *Manifest) { m.Experiment = "other" }, `experiment: "exp" in shard 0/2`},
		{"count", func(m *Manifest) { m.Shard.Count = 3 }, "number of shards: 2 in shard 0/2"},
		{"count, advice", func(m *Manifest) { m.Shard.Count = 3 }, "(the run was cut in 2 shards once and in 3 another time: move the shards/*-of-N.json and .log files of the cut you drop out of the way, and merge the other)"},
		{"file", func(m *Manifest) { m.FileSHA256 = strings.Repeat("b", 64) }, "experiment file: exp.hcl (sha256 aaaaaaaaaaaa…)"},
		{"seed", func(m *Manifest) { m.Seed = 2 }, "seed: 1 in"},
		{"dataset", func(m *Manifest) { m.Datasets[0].SHA256 = strings.Repeat("d", 64) }, "dataset iris: sha256 cccccccccccc… in shard 0/2"},
		{"dataset missing", func(m *Manifest) { m.Datasets = nil }, "dataset iris: sha256 cccccccccccc… in shard 0/2 (A), absent in shard 1/2 (B)"},
		{"plugin", func(m *Manifest) { m.Plugins[0].SHA256 = strings.Repeat("f", 64) }, "plugin logreg: v1 sha256 eeeeeeeeeeee… in shard 0/2 (A), v1 sha256 ffffffffffff… in shard 1/2 (B)"},
		{"plugin version", func(m *Manifest) { m.Plugins[0].Version = "v2" }, "plugin logreg: v1 sha256"},
		// Same name and digest, another binary: a shard's manifest may not
		// slip a path into the merged one (campaign 6, A12).
		{"plugin path", func(m *Manifest) { m.Plugins[0].Path = "/tmp/evil/bench-plugin-logreg" },
			`plugin logreg: recorded as "/bin/bench-plugin-logreg" in shard 0/2 (A), as "/tmp/evil/bench-plugin-logreg" in shard 1/2 (B) (same sha256; a merge keeps one path, so the shards must agree: run the shards with the same plugins directory)`},
		{"plugin path absent", func(m *Manifest) { m.Plugins[0].Path = "" }, `plugin logreg: recorded as "/bin/bench-plugin-logreg" in shard 0/2 (A), absent in shard 1/2 (B)`},
		{"bench", func(m *Manifest) { m.Bench = &cellspec.Build{Version: "v2"} }, "bench: v1 in shard 0/2 (A), v2 in shard 1/2 (B)"},
		{"grid", func(m *Manifest) { m.RunDigest = strings.Repeat("0", 64) }, "grid: run digest"},
	}
	base := func(i int) shardRun {
		m := manifest("exp")
		m.File, m.FileSHA256, m.Seed = "exp.hcl", strings.Repeat("a", 64), 1
		m.Datasets = []DatasetRecord{{Name: "iris", SHA256: strings.Repeat("c", 64)}}
		m.Plugins = []PluginRecord{{Name: "logreg", Version: "v1", Path: "/bin/bench-plugin-logreg", SHA256: strings.Repeat("e", 64)}}
		m.RunDigest = RunDigest("exp", digests(4))
		m.Bench = &cellspec.Build{Version: "v1"}
		m.Shard = shardOf(i, 2, 4)
		return shardRun{dir: string(rune('A' + i)), m: m}
	}
	if d := differ(base(0), base(1)); d != "" {
		t.Fatalf("shards of one run differ: %s", d)
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := base(1)
			tt.change(b.m)
			if d := differ(base(0), b); !strings.Contains(d, tt.want) {
				t.Errorf("difference %q, want %q", d, tt.want)
			}
		})
	}
}

// TestMergeNeedsShards: a directory no shard wrote is refused.
func TestMergeNeedsShards(t *testing.T) {
	dir := singleRun(t, 2)
	if _, err := Merge(t.TempDir(), []string{dir}, fakeRender); err == nil || !strings.Contains(err.Error(), "holds no shard manifest") {
		t.Errorf("merge of a whole run: %v", err)
	}
	if _, err := Merge(t.TempDir(), []string{filepath.Join(dir, "nothing")}, fakeRender); err == nil || !strings.Contains(err.Error(), "no such file") {
		t.Errorf("merge of a missing directory: %v", err)
	}
}

// TestWholeRunKeepsShardCells: a whole run into a directory that shards
// wrote keeps their cells (found by digest) and computes only the others:
// the way to finish a run whose shards did not all complete, on one
// machine.
func TestWholeRunKeepsShardCells(t *testing.T) {
	const cells = 5
	dir := t.TempDir()
	r := begin(t, dir, "exp", cells, Options{Render: fakeRender, Shard: shardOf(1, 2, cells)})
	finishCells(t, r, 1, 3)
	if _, err := r.Finish(StatusComplete, 0); err != nil {
		t.Fatal(err)
	}
	whole := begin(t, dir, "exp", cells, Options{Render: fakeRender})
	if k := whole.Kept(); len(k) != 2 || k[1] == nil || k[3] == nil {
		t.Fatalf("kept %v, want cells 1 and 3", k)
	}
	finishCells(t, whole, 0, 2, 4)
	if _, err := whole.Finish(StatusComplete, 0); err != nil {
		t.Fatal(err)
	}
	sameTables(t, singleRun(t, cells), dir)
}

// TestMergeNeedsPredictions: with output.predictions set, the merge writes
// predictions/DATASET.csv from the shards' cell files, and refuses a cell
// file that holds none (it would be missing from that file), naming it.
func TestMergeNeedsPredictions(t *testing.T) {
	const cells = 2
	for _, without := range []bool{false, true} {
		dir := t.TempDir()
		m := manifest("exp")
		m.Predictions = true
		for i := range cells {
			r, err := Begin(dir, m, digests(cells), Options{Render: fakeRender, Now: clock(), Shard: shardOf(i, cells, cells)})
			if err != nil {
				t.Fatal(err)
			}
			c := withPredictions(i)
			if without && i == 1 {
				c = cell(i)
			}
			if err := r.CellFinished(c); err != nil {
				t.Fatal(err)
			}
			if _, err := r.Finish(StatusComplete, 0); err != nil {
				t.Fatal(err)
			}
		}
		_, err := Merge(dir, []string{dir}, fakeRender)
		if without {
			if err == nil || !strings.Contains(err.Error(), CellFileName(1, digest(1))+" holds no predictions") {
				t.Errorf("a cell file without predictions: %v", err)
			}
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(filepath.Join(dir, "predictions", "iris.csv"))
		if lines := strings.Count(string(b), "\n"); err != nil || lines != 1+cells*3*50 {
			t.Errorf("predictions/iris.csv: %d lines, %v", lines, err)
		}
	}
}

// TestShardRenumbersAndRetries: a shard resuming after the grid changed
// keeps its cells that the earlier grid numbered otherwise (copying the
// file under the new index, leaving the old one to its owner), and runs a
// failed cell of its own again.
func TestShardRenumbersAndRetries(t *testing.T) {
	dir := t.TempDir()
	r := begin(t, dir, "exp", 3, Options{Render: fakeRender})
	failed := cell(2)
	failed.Error, failed.Folds = "boom", nil
	finishCells(t, r, 0, 1)
	if err := r.CellFinished(failed); err != nil {
		t.Fatal(err)
	}
	r.Finish(StatusComplete, 0)
	// A new block comes first: old cells 0, 1, 2 are now 1, 2, 3. Shard 0
	// of 2 owns the new cells 0 and 2 (old 1); shard 1 owns 1 and 3.
	ds := []string{digest(7), digest(0), digest(1), digest(2)}
	sh := &Shard{Index: 0, Count: 2, Cells: []ShardCell{{Index: 0, Name: "new", Digest: ds[0]}, {Index: 2, Name: cell(1).Key(), Digest: ds[2]}}}
	var notes strings.Builder
	r0, err := Begin(dir, manifest("exp"), ds, Options{Render: fakeRender, Shard: sh, Notes: &notes, Now: clock()})
	if err != nil {
		t.Fatal(err)
	}
	if kept := r0.Kept(); len(kept) != 1 || kept[2] == nil || kept[2].Params != "C=2" || kept[2].Index != 2 {
		t.Fatalf("shard 0 kept %+v, want old cell 1 as cell 2", kept)
	}
	cellsDir := filepath.Join(dir, CellsDir)
	for _, name := range []string{CellFileName(2, digest(1)), CellFileName(1, digest(1))} {
		if _, err := os.Stat(filepath.Join(cellsDir, name)); err != nil {
			t.Errorf("%s: %v (the copy and the original must both be there)", name, err)
		}
	}
	if !strings.Contains(notes.String(), "renumbered: cell 1 of an earlier grid is now cell 2") {
		t.Errorf("notes:\n%s", notes.String())
	}
	r0.Finish(StatusInterrupted, 0)
	// Shard 1 owns new cell 3, the failed old cell 2: it runs again.
	sh1 := &Shard{Index: 1, Count: 2, Cells: []ShardCell{{Index: 1, Name: cell(0).Key(), Digest: ds[1]}, {Index: 3, Name: failed.Key(), Digest: ds[3]}}}
	r1, err := Begin(dir, manifest("exp"), ds, Options{Render: fakeRender, Shard: sh1, Now: clock()})
	if err != nil {
		t.Fatal(err)
	}
	if kept := r1.Kept(); len(kept) != 1 || kept[1] == nil || kept[3] != nil {
		t.Fatalf("shard 1 kept %+v, want old cell 0 as cell 1 and not the failed cell", kept)
	}
}

// TestMergeSaysWhatItMovesAside: merging into a directory that holds a
// cell of another grid moves it aside and says so, in the result's notes
// (bench prints them) and in the directory's run log.
func TestMergeSaysWhatItMovesAside(t *testing.T) {
	out := singleRun(t, 3)
	shards := t.TempDir()
	r := begin(t, shards, "exp", 2, Options{Render: fakeRender, Shard: shardOf(0, 1, 2)})
	finishCells(t, r, 0, 1)
	if _, err := r.Finish(StatusComplete, 0); err != nil {
		t.Fatal(err)
	}
	res, err := Merge(out, []string{shards}, fakeRender)
	if err != nil {
		t.Fatal(err)
	}
	want := "moved cells/" + CellFileName(2, digest(2)) + " aside"
	if len(res.Notes) != 1 || !strings.Contains(res.Notes[0], want) || !strings.Contains(res.Notes[0], "not a cell of the merged shards") {
		t.Errorf("notes %q, want one saying %q", res.Notes, want)
	}
	log, err := os.ReadFile(filepath.Join(out, LogFile))
	if err != nil || !strings.Contains(string(log), want) || !strings.Contains(string(log), ": merge into ") {
		t.Errorf("run log (%v):\n%s", err, log)
	}
}

// TestMergeIntoAShardDirectory: bench merge x0 x1 x2, where x0 holds
// shard 0 and is not listed among the sources, merges x0's shard too
// (before, its cells were moved aside as not of the merged shards and
// computed again); merging again is the same.
func TestMergeIntoAShardDirectory(t *testing.T) {
	const cells = 6
	dirs := []string{t.TempDir(), t.TempDir(), t.TempDir()}
	for i, d := range dirs {
		r := begin(t, d, "exp", cells, Options{Render: fakeRender, Shard: shardOf(i, 3, cells)})
		for c := range cells {
			if c%3 == i {
				finishCells(t, r, c)
			}
		}
		if _, err := r.Finish(StatusComplete, 0); err != nil {
			t.Fatal(err)
		}
	}
	for round := range 2 {
		res, err := Merge(dirs[0], dirs[1:], fakeRender)
		if err != nil {
			t.Fatal(err)
		}
		if !res.Complete() || res.Cells != cells || len(res.Notes) > 0 && strings.Contains(strings.Join(res.Notes, "\n"), "aside") {
			t.Errorf("round %d: merge %+v", round, res)
		}
		sameTables(t, singleRun(t, cells), dirs[0])
	}
}

// TestShardStartChecksOtherShards: a shard starting beside the manifests
// of other shards refuses another experiment's, and notes those bench
// merge would refuse (another shard count, another version of the grid).
func TestShardStartChecksOtherShards(t *testing.T) {
	const cells = 4
	tests := []struct {
		name      string
		earlier   string // experiment of shard 0/N
		count     int    // N
		cells     int    // the earlier run's grid
		wantErr   string
		wantNotes string
	}{
		{name: "same run", earlier: "exp", count: 2, cells: cells},
		{name: "another experiment", earlier: "other", count: 2, cells: cells,
			wantErr: `holds shard 0/2 of experiment "other", not "exp"`},
		{name: "another count", earlier: "exp", count: 3, cells: cells,
			wantNotes: "note: shards/0-of-3.json is shard 0/3 of 3 shards, this run is one of 2: bench merge takes shards of one count only"},
		{name: "another grid", earlier: "exp", count: 2, cells: cells + 1,
			wantNotes: "ran another version of the grid (its inputs differ): run it again before bench merge"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			r := begin(t, dir, tt.earlier, tt.cells, Options{Render: fakeRender, Shard: shardOf(0, tt.count, tt.cells)})
			if _, err := r.Finish(StatusComplete, 0); err != nil {
				t.Fatal(err)
			}
			var notes strings.Builder
			r, err := Begin(dir, manifest("exp"), digests(cells), Options{Render: fakeRender, Notes: &notes, Shard: shardOf(1, 2, cells)})
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("Begin: %v, want an error with %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			defer r.Finish(StatusInterrupted, 0) //nolint:errcheck // only the notes matter here
			if tt.wantNotes == "" && strings.Contains(notes.String(), "note:") || !strings.Contains(notes.String(), tt.wantNotes) {
				t.Errorf("notes %q, want %q", notes.String(), tt.wantNotes)
			}
		})
	}
}

// TestOwnedCells: the cells the shards of a merge own; a cell outside the
// grid, or owned by two shards, is an error naming the shard.
func TestOwnedCells(t *testing.T) {
	run := func(dir string, s *Shard, cells int) shardRun {
		return shardRun{dir, &Manifest{Experiment: "exp", Cells: cells, Shard: s}}
	}
	tests := []struct {
		name      string
		runs      []shardRun
		wantOwner map[int]int
		wantFound []bool
		wantErr   string
	}{
		{name: "one of two", runs: []shardRun{run("a", shardOf(1, 2, 5), 5)},
			wantOwner: map[int]int{1: 1, 3: 1}, wantFound: []bool{false, true}},
		{name: "both", runs: []shardRun{run("a", shardOf(0, 2, 5), 5), run("b", shardOf(1, 2, 5), 5)},
			wantOwner: map[int]int{0: 0, 1: 1, 2: 0, 3: 1, 4: 0}, wantFound: []bool{true, true}},
		{name: "one shard in two directories", runs: []shardRun{run("a", shardOf(0, 2, 5), 5), run("b", shardOf(0, 2, 5), 5)},
			wantOwner: map[int]int{0: 0, 2: 0, 4: 0}, wantFound: []bool{true, false}},
		{name: "outside the grid", runs: []shardRun{run("a", shardOf(0, 2, 7), 5)},
			wantErr: "merge: shard 0/2 (a) owns cell 6 of a grid of 5"},
		{name: "owned twice", runs: []shardRun{run("a", shardOf(0, 2, 5), 5), run("b", &Shard{Index: 1, Count: 2, Cells: shardOf(0, 2, 5).Cells}, 5)},
			wantErr: "merge: cell 0 (" + cell(0).Key() + ") is owned by shard 0/2 and by shard 1/2 (b)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			found := make([]bool, 2)
			owned, owner, err := ownedCells(tt.runs, found)
			if tt.wantErr != "" {
				if err == nil || err.Error() != tt.wantErr {
					t.Fatalf("error %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if fmt.Sprint(owner) != fmt.Sprint(tt.wantOwner) || fmt.Sprint(found) != fmt.Sprint(tt.wantFound) {
				t.Errorf("owner %v, found %v; want %v, %v", owner, found, tt.wantOwner, tt.wantFound)
			}
			for i, c := range owned {
				if c.Index != i || c.Digest != digest(i) {
					t.Errorf("owned[%d] = %+v", i, c)
				}
			}
		})
	}
}
