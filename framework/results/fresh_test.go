package results

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestFreshRefusesBeforeMoving: a shard's record or log, or a run's log,
// that is a hard link to a file of the user's, or a shard record that is
// not one bench wrote, is refused by a run with or without --fresh before
// anything is moved to superseded/: the error names the file, says what
// it is and what to do, the user's file keeps its bytes and the earlier
// run's cells and records stay where they were. Before, a shard's log was
// refused only after --fresh had moved the cells aside, and a record of
// the user's gave a bare JSON error.
func TestFreshRefusesBeforeMoving(t *testing.T) {
	const cells = 4
	shardRecord := filepath.Join(ShardsDir, ShardManifestName(0, 2))
	shardLog := filepath.Join(ShardsDir, ShardLogName(0, 2))
	cases := []struct {
		name  string
		shard bool
		// file is the file of the results directory the case replaces
		// by the user's; link makes it a hard link to the user's file,
		// else a copy of its bytes.
		file string
		link bool
		want []string
	}{
		{"shard record a hard link", true, shardRecord, true,
			[]string{shardRecord + " has 2 names (hard links)", "not a shard record as bench wrote it", "nothing was moved or written", "remove "}},
		{"shard record of the user's", true, shardRecord, false,
			[]string{shardRecord + ": line 1, column 2: invalid character 'U'", shardRecord + " is not a shard record bench wrote (the manifest of shard 0/2)", "move it out of"}},
		{"shard log a hard link", true, shardLog, true,
			[]string{shardLog + " has 2 names (hard links)", "appends only to a run log of its own", "nothing was moved or written"}},
		{"run log a hard link", false, LogFile, true,
			[]string{LogFile + " has 2 names (hard links)", "appends only to a run log of its own", "nothing was moved or written"}},
	}
	for _, c := range cases {
		for _, fresh := range []bool{true, false} {
			t.Run(fmt.Sprintf("%s, fresh %v", c.name, fresh), func(t *testing.T) {
				top := t.TempDir()
				dir, user := filepath.Join(top, "o"), filepath.Join(top, "user.txt")
				opt := func() Options {
					o := Options{Render: fakeRender, Fresh: fresh}
					if c.shard {
						o.Shard = shardOf(0, 2, cells)
					}
					return o
				}
				r := begin(t, dir, "exp", cells, opt())
				finishCells(t, r, 0, 2)
				if _, err := r.Finish(StatusComplete, 0); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(user, []byte("User data"), 0o644); err != nil {
					t.Fatal(err)
				}
				at := filepath.Join(dir, c.file)
				if err := os.Remove(at); err != nil {
					t.Fatal(err)
				}
				if c.link {
					if err := os.Link(user, at); err != nil {
						t.Fatal(err)
					}
				} else if err := os.WriteFile(at, []byte("User data"), 0o644); err != nil {
					t.Fatal(err)
				}
				before := listFiles(t, dir)
				_, err := Begin(dir, manifest("exp"), digests(cells), opt())
				if err == nil {
					t.Fatalf("fresh %v: Begin took %s", fresh, c.file)
				}
				for _, w := range c.want {
					if !strings.Contains(err.Error(), w) {
						t.Errorf("fresh %v: error\n%v\nwants %q", fresh, err, w)
					}
				}
				if !strings.Contains(err.Error(), at) {
					t.Errorf("fresh %v: error does not name %s:\n%v", fresh, at, err)
				}
				if _, err := os.Stat(filepath.Join(dir, SupersededDir)); err == nil {
					t.Errorf("fresh %v: the refused run moved files to %s/", fresh, SupersededDir)
				}
				if after := listFiles(t, dir); !slices.Equal(after, before) {
					t.Errorf("fresh %v: files before %v, after %v", fresh, before, after)
				}
				if b, _ := os.ReadFile(user); string(b) != "User data" {
					t.Errorf("fresh %v: the user's file holds %q", fresh, b)
				}
			})
		}
	}
}

// listFiles returns the files under dir, relative to it, with their
// sizes, but for the lock files Begin may make.
func listFiles(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || strings.HasPrefix(d.Name(), ".lock") {
			return err
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		out = append(out, fmt.Sprintf("%s %d", rel, fi.Size()))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}
