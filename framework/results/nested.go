package results

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// checkNested refuses a results directory dir that lies inside another
// results directory (campaign 5 s04, s08: a run into outer/cells/x
// finished, and outer's tables then failed on "cells/x: not a cell
// file"): bench takes every entry of a results directory for its own, and
// moves, replaces or removes them. The one nesting bench makes itself,
// rerun's outer/rerun, is allowed. Links in dir's existing part are
// resolved first, so that a link into outer/cells is refused too.
func checkNested(dir string) error {
	real := resolveExisting(dir)
	outer := Enclosing(filepath.Dir(real))
	if outer == "" {
		return nil
	}
	rel, err := filepath.Rel(outer, real)
	if err != nil || rel == RerunDir {
		return nil
	}
	where := ""
	if first, _, _ := strings.Cut(filepath.ToSlash(rel), "/"); first != rel {
		where = " (in its " + first + "/)"
	}
	return fmt.Errorf("results directory %s lies inside results directory %s%s, whose entries bench takes for its own and moves, replaces or removes: writing there would break that run's results; choose a directory outside it with -o", dir, outer, where)
}

// resolveExisting returns the absolute form of path with the links of its
// longest existing part resolved; the part that does not exist yet is
// kept as it is.
func resolveExisting(path string) string {
	abs, err := filepath.Abs(path)
	if err != nil {
		return path
	}
	rest := ""
	for p := abs; ; p = filepath.Dir(p) {
		if _, err := os.Lstat(p); err == nil {
			if r, err := filepath.EvalSymlinks(p); err == nil {
				return filepath.Join(r, rest)
			}
			return abs
		}
		if filepath.Dir(p) == p {
			return abs
		}
		rest = filepath.Join(filepath.Base(p), rest)
	}
}
