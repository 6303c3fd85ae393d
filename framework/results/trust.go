package results

import (
	"fmt"
	"os"
	"os/user"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// Cells kept from an earlier run are trusted as that run's results: a
// cell file whose checksum was recomputed is accepted (docs/results.md),
// and its digest covers public inputs only, so anyone can forge one. A run
// that keeps cells therefore warns when the results directory, its
// cells/ or a kept cell file belongs to another user or is writable by
// others (as ssh looks at ~/.ssh): another user could have planted them.
// It warns rather than refuses, since a team's shared directory of shards
// (bench merge) may hold another member's files on purpose; and a file
// writable by its group alone is not warned of, since a umask of 002 (a
// user private group, Debian's and Ubuntu's default for many accounts)
// makes every file bench writes so.

// maxForeignNamed is how many such entries a warning names.
const maxForeignNamed = 3

// writableByOthers describes each of paths that another user than uid
// owns, or that others (not only its group) may write, as "PATH (owner
// NAME, MODE)", and returns those paths as a set; paths that cannot be
// read are left out (the run reads them next and says why).
func writableByOthers(paths []string, uid int) ([]string, map[string]bool) {
	var out []string
	bad := map[string]bool{}
	for _, p := range paths {
		fi, err := os.Lstat(p)
		if err != nil {
			continue
		}
		o, known := owner(fi)
		if (!known || o == uid) && fi.Mode().Perm()&0o002 == 0 {
			continue
		}
		who := "unknown"
		if known {
			who = userName(o)
		}
		out = append(out, fmt.Sprintf("%s (owner %s, %s)", p, who, fi.Mode()))
		bad[p] = true
	}
	return out, bad
}

// userName is the login name of user id uid, with the id ("mallory, uid
// 1001"), or the id alone when the system has no name for it.
func userName(uid int) string {
	id := strconv.Itoa(uid)
	if u, err := user.LookupId(id); err == nil && u.Username != "" {
		return u.Username + ", uid " + id
	}
	return "uid " + id
}

// warnForeignCells notes, when cells are taken from files (names in
// cells, the results directory dir's cells/), which of dir, cells and
// files another user owns or may write (writableByOthers, against user
// uid), and that a run with --fresh computes them again. how says what is
// done with them: "kept from" (a run resumes them), "read from" (bench
// table).
func warnForeignCells(s *setup, how, dir, cells string, files []string, uid int) {
	paths := make([]string, len(files))
	for k, f := range files {
		paths[k] = filepath.Join(cells, f)
	}
	warnForeign(s, how, "run the experiment with --fresh to compute them again (the files are moved to "+SupersededDir+"/ first)",
		append([]string{dir, cells}, paths...), paths, uid)
}

// warnForeignShards is warnForeignCells for a merge: it notes which of
// the results directories dirs, their cells/ and the cell files the plan
// keeps (each read from the directory from names) another user owns or
// may write, against user uid.
func warnForeignShards(s *setup, dirs []string, plan Plan, from []string, uid int) {
	var paths, files []string
	for _, d := range dirs {
		paths = append(paths, d, filepath.Join(d, CellsDir))
	}
	for k, d := range plan.Decisions {
		if d.Action == Keep || d.Action == Renumber {
			files = append(files, filepath.Join(from[k], CellsDir, d.Name))
		}
	}
	warnForeign(s, "merged from", "leave the shard directories named out of the merge, or run their shards again yourself (bench run --shard I/N)",
		append(paths, files...), files, uid)
}

// warnForeign writes the warning of warnForeignCells, naming those of
// paths that writableByOthers names and counting the cells of files (a
// subset of paths) at risk: the file, its cells/ or the directory above
// it so named. advice says what to do.
func warnForeign(s *setup, how, advice string, paths, files []string, uid int) {
	foreign, bad := writableByOthers(paths, uid)
	if len(foreign) == 0 {
		return
	}
	n := 0
	for _, f := range files {
		if cells := filepath.Dir(f); bad[f] || bad[cells] || bad[filepath.Dir(cells)] {
			n++
		}
	}
	named := strings.Join(foreign[:min(len(foreign), maxForeignNamed)], ", ")
	if more := len(foreign) - maxForeignNamed; more > 0 {
		named += fmt.Sprintf(" and %d more", more)
	}
	s.note("warning: %d cell(s) %s files that another user owns or may write: %s. Cells planted there would be reported as the run's own; unless you trust whoever can write them, %s.",
		n, how, named, advice)
}

// cellFileNames returns the file names of cells, in index order.
func cellFileNames(cells map[int]*Cell) []string {
	idx := make([]int, 0, len(cells))
	for i := range cells {
		idx = append(idx, i)
	}
	slices.Sort(idx)
	names := make([]string, len(idx))
	for k, i := range idx {
		names[k] = CellFileName(i, cells[i].Digest)
	}
	return names
}
