package results

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// cellFilesOnDisk returns the indices of the cell files in the cells/
// folder of the run's directory (names as CellFileName writes them; a
// temporary file is none).
func (r *Run) cellFilesOnDisk() (map[int]bool, error) {
	f, err := r.root.Open(CellsDir)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	names, err := f.Readdirnames(-1)
	if err != nil {
		return nil, err
	}
	on := make(map[int]bool, len(names))
	for _, n := range names {
		if strings.HasPrefix(n, tmpPrefix) || !strings.HasSuffix(n, ".json") {
			continue
		}
		if i, ok := cellIndex(n); ok {
			on[i] = true
		}
	}
	return on, nil
}

// lostCells returns the indices, in increasing order, of the cells of
// indices (kept or finished in this run, so each had its file) whose file
// is no longer in the cells/ folder: removed during the run, by hand or
// by another program. A run that cannot list the folder finds none lost.
func (r *Run) lostCells(indices []int) []int {
	if r.root == nil {
		return nil
	}
	on, err := r.cellFilesOnDisk()
	if err != nil {
		return nil // cellsStill reports a folder that is gone
	}
	var lost []int
	for _, i := range indices {
		if !on[i] {
			lost = append(lost, i)
		}
	}
	slices.Sort(lost)
	return lost
}

// lostError is the error of the cells of lost, whose files were removed
// from dir during the run: the tables and the manifest leave them out.
func lostError(dir string, lost []int) error {
	shown := make([]string, 0, min(len(lost), 10))
	for _, i := range lost[:min(len(lost), 10)] {
		shown = append(shown, fmt.Sprint(i))
	}
	list := strings.Join(shown, ", ")
	if len(lost) > len(shown) {
		list += fmt.Sprintf(" and %d more", len(lost)-len(shown))
	}
	return fmt.Errorf("%d cell file(s) of this run were removed from %s during the run (cell %s): they are left out of the tables and the manifest, which count only the cells on disk; run the same command again to compute them", len(lost), filepath.Join(dir, CellsDir), list)
}

// logGone says, on the run's notes, that its log file (at rel in the
// results directory) was removed during the run: what the run wrote to it
// since is lost, the cells and tables are not.
func (r *Run) logGone(rel string) {
	if r.root == nil || r.notes == nil {
		return
	}
	if _, err := r.root.Lstat(rel); !os.IsNotExist(err) {
		return
	}
	fmt.Fprintf(r.notes, "bench: warning: %s was removed during the run: the lines the run wrote to it since are lost (the cells and tables are not)\n", filepath.Join(r.dir, rel))
}
