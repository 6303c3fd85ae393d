package results

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"time"
)

// The results directory is bench's own. A run writes into a directory only
// when it is absent, empty or already bench's (it holds a manifest, a
// cells/, shards/, slurm/ or k8s/ folder of bench's own files, or only
// entries bench makes before those: an empty cells/ or shards/, slurm/ and
// k8s/ holding only what bench submit writes there, superseded/ holding
// only TIME folders, a rerun/ that is itself bench's, the empty lock file,
// unfinished writes of bench's outputs); any other directory is refused,
// unless
// the caller adopts it (Options.Adopt), which moves every file the run
// replaces to superseded/TIME/ first. No input of the experiment may be
// one of the files a run writes, nor lie inside a directory bench manages
// there (checkInputs). A results directory removed or replaced while a run
// writes into it ends the run (Run.still): it is never made again.

// Where bench submit and bench rerun write, below a results directory.
const (
	SlurmDir = "slurm"
	K8sDir   = "k8s"
	RerunDir = "rerun"
)

// ErrDirGone is the cause of the error that ends a run whose results
// directory was removed or replaced while it ran.
var ErrDirGone = errors.New("removed or replaced during the run")

// Input is an input of an experiment: a data, folds or test file, or the
// experiment file. No output of the run may be one (see Options.Inputs).
type Input struct {
	// Path is the file, as the run reads it.
	Path string
	// What names it: `cv.folds_file "folds.csv"`, "the experiment file".
	What string
	// At is where the experiment file names it (FILE:LINE:COL); for the
	// experiment file itself, its path.
	At string
}

// submitFiles are, by folder (SlurmDir, K8sDir), the files bench submit
// writes there besides WrittenFile (package cluster's names): a file of
// another name makes the folder the user's.
var submitFiles = map[string][]string{
	SlurmDir: {"array.sbatch", "merge.sbatch"},
	K8sDir:   {"shards.json", "merge.json"},
}

// SubmitFiles returns the names of the files bench submit writes in the
// folder (SlurmDir or K8sDir) besides WrittenFile, as the ownership check
// takes them: those of package cluster, which writes them.
func SubmitFiles(folder string) []string { return slices.Clone(submitFiles[folder]) }

// SubmitLogs is the folder of slurm/ that Slurm writes the jobs' logs in
// (package cluster's LogsDir).
const SubmitLogs = "logs"

// supersededStamp matches the name of a folder of superseded/ (setup's
// TIME).
var supersededStamp = regexp.MustCompile(`^[0-9]{8}T[0-9]{6}\.[0-9]{9}Z$`)

// managedDirs are the directories of a results directory whose files bench
// replaces, moves aside or removes: no input may lie inside one.
var managedDirs = []string{CellsDir, ShardsDir, "plots", "predictions", SlurmDir, K8sDir, RerunDir}

// Owned returns nil when bench may write into dir: it is absent, empty,
// or bench's (see ownEntries), and lies inside no other results
// directory (checkNested). Otherwise the error names dir, what makes it
// no place to write (the entries that make it someone else's, or the
// results directory around it) and how to proceed. bench submit and
// bench merge check their directory with it, as a run does with
// checkOwner.
func Owned(dir string) error {
	if err := checkNested(dir); err != nil {
		return err
	}
	foreign, err := foreignEntries(dir)
	if err != nil || len(foreign) == 0 {
		return err
	}
	return notOwned(dir, foreign, "choose another directory with -o, or move those files away")
}

// adoptAdvice is how to proceed, for a whole run, with a directory that
// is not bench's.
const adoptAdvice = "choose another directory with -o, or run with --adopt to write there (each file the run replaces is moved to " + SupersededDir + "/TIME/ first, never deleted)"

// notOwned is the error for dir, not bench's for the entries foreign; how
// says how to proceed. A manifest among them is one this bench does not
// read: the directory holds no manifest it reads.
func notOwned(dir string, foreign []foreignEntry, how string) error {
	reads := ""
	for _, f := range foreign {
		if f.name == ManifestFile {
			reads = " this bench reads"
		}
	}
	return fmt.Errorf("results directory %s is not bench's: it holds %s and no %s%s; bench writes only into a directory that is absent, empty or its own: %s",
		dir, listEntries(foreign), ManifestFile, reads, how)
}

// foreignEntry is an entry of a directory that makes it not bench's,
// with why, for one that looks like bench's own but is not (a cells/
// holding a stray file among bench's cell files), or "".
type foreignEntry struct{ name, why string }

// foreignEntries returns the entries of dir that make it not bench's
// (none when dir is absent, empty, holds a manifest or only bench's own
// entries).
func foreignEntries(dir string) ([]foreignEntry, error) {
	entries, err := os.ReadDir(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, nil
	case err != nil:
		return nil, fmt.Errorf("results directory: %w", err)
	}
	var foreign []foreignEntry
	for _, e := range entries {
		name := e.Name()
		why, mark := benchsMark(dir, name)
		if mark {
			return nil, nil // a run's, a run's whose manifest went, shards', submit's
		}
		if own, ownWhy := ownEntry(dir, name); !own {
			if why == "" {
				why = ownWhy
			}
			foreign = append(foreign, foreignEntry{name, why})
		}
	}
	return foreign, nil
}

// ownEntry reports whether the entry name of dir is one bench makes there
// before its manifest (a run killed early, bench submit, bench rerun): an
// empty cells/ or shards/; a slurm/ or k8s/ folder holding only what bench
// submit writes there (submitFolder); a superseded/ holding only TIME
// folders; a rerun/ that is itself a directory of bench's (foreignEntries);
// the lock file, empty as bench makes it; an unfinished write (tempTarget)
// of a file bench writes at the top of a results directory. Anything else
// of those names is the user's, and why says what makes it so, where that
// is known.
func ownEntry(dir, name string) (own bool, why string) {
	path := filepath.Join(dir, name)
	if fi, err := os.Lstat(path); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
		to, _ := os.Readlink(path)
		return false, fmt.Sprintf("a symbolic link (to %s), which bench does not follow inside a results directory", to)
	}
	switch name {
	case CellsDir, ShardsDir:
		return emptyDir(path), ""
	case SlurmDir, K8sDir:
		why, own, _ := submitFolder(path, name)
		return own, why
	case SupersededDir:
		return onlyStamps(path)
	case RerunDir:
		if _, isDir := dirEntries(path); !isDir {
			return false, ""
		}
		foreign, err := foreignEntries(path)
		if err != nil || len(foreign) > 0 {
			return false, "no results directory of bench's"
		}
		return true, ""
	case lockFile:
		fi, err := os.Lstat(path)
		if err != nil || !fi.Mode().IsRegular() || fi.Size() != 0 {
			return false, "not the empty lock file bench makes"
		}
		return true, ""
	}
	if target, ok := tempTarget(name); ok && topOutput(target, "") {
		fi, err := os.Lstat(path)
		return err == nil && fi.Mode().IsRegular(), ""
	}
	return false, ""
}

// topOutput reports whether bench writes a file named name at the top of
// a results directory of experiment (any experiment, when ""): a file of
// fixedOutputs or a report NAME.md, NAME.tex, NAME.html, NAME.json.
func topOutput(name, experiment string) bool {
	if slices.Contains(fixedOutputs, name) {
		return true
	}
	for _, ext := range reportExts {
		if stem, ok := strings.CutSuffix(name, ext); ok && stem != "" && (experiment == "" || stem == experiment) {
			return true
		}
	}
	return false
}

// tempTargets returns, by folder of a results directory of experiment
// ("" for its top), what accepts the name of a file bench writes there:
// the unfinished writes of those (tempTarget) are a killed run's, which
// Run.hold removes.
func tempTargets(experiment string) map[string]func(string) bool {
	return map[string]func(string) bool{
		"":       func(n string) bool { return topOutput(n, experiment) },
		CellsDir: isCellFileName,
		"plots": func(n string) bool {
			return !strings.Contains(n, "/") && (strings.HasSuffix(n, ".svg") || strings.HasSuffix(n, ".png"))
		},
		"predictions": func(n string) bool { return !strings.Contains(n, "/") && strings.HasSuffix(n, ".csv") },
	}
}

// isCellFileName reports whether name is of a cell file's form
// (CellFileName).
func isCellFileName(n string) bool { _, ok := cellIndex(n); return ok }

// submitFolder reports whether path, the folder name (SlurmDir or K8sDir)
// of a results directory, is a directory (not a link) holding only what
// bench submit writes there (own): its record (WrittenFile), and beside
// it its files (submitFiles); Slurm's logs/ folder; unfinished writes of
// those; or nothing. A file of submit's name with no record beside it is
// the user's (their own merge.sbatch in their own slurm/). recorded
// reports whether the record is there and reads as one, which makes the
// folder a mark of bench's (benchsMark). why names the first entry that
// makes the folder the user's.
func submitFolder(path, name string) (why string, own, recorded bool) {
	entries, isDir := dirEntries(path)
	if !isDir {
		return "", false, false
	}
	files, file := submitFiles[name], ""
	for _, e := range entries {
		n := e.Name()
		if target, ok := tempTarget(n); ok && (target == WrittenFile || slices.Contains(files, target)) && e.Type().IsRegular() {
			continue
		}
		switch {
		case n == WrittenFile && e.Type().IsRegular() && readsAsRecord(filepath.Join(path, n)):
			recorded = true
			continue
		case slices.Contains(files, n) && e.Type().IsRegular():
			if file == "" {
				file = n
			}
			continue
		case name == SlurmDir && n == SubmitLogs && e.IsDir():
			continue
		}
		return fmt.Sprintf("holds %q, which bench submit does not write", n), false, false
	}
	if file != "" && !recorded {
		return fmt.Sprintf("holds %q but no record %s of bench submit's", file, WrittenFile), false, false
	}
	return "", true, recorded
}

// readsAsRecord reports whether the file path reads as a WrittenFile of
// this bench's schema.
func readsAsRecord(path string) bool {
	b, err := readIn(path)
	if err != nil {
		return false
	}
	var rec writtenRecord
	return json.Unmarshal(b, &rec) == nil && rec.Schema == writtenSchema && rec.Files != nil
}

// onlyStamps reports whether path is a directory (not a link) holding
// only folders named as superseded/ names them (supersededStamp), or
// nothing; why names the first other entry.
func onlyStamps(path string) (own bool, why string) {
	entries, isDir := dirEntries(path)
	if !isDir {
		return false, ""
	}
	for _, e := range entries {
		if !e.IsDir() || !supersededStamp.MatchString(e.Name()) {
			return false, fmt.Sprintf("holds %q, which is no folder of files bench moved aside", e.Name())
		}
	}
	return true, ""
}

// benchsMark reports whether the entry name of dir shows that a run of
// bench wrote there (mark): a manifest bench reads, or a cells/ or
// shards/ folder holding bench's own files (cell files; shard manifests,
// logs and locks), and nothing else but unfinished writes. A user's
// manifest.json, or a folder of theirs named cells or shards, makes no
// directory bench's (a fourth new-user trial's experiment directory held
// its own shards/, and a run with -o . wrote among its files without
// --adopt). why says what keeps an entry that looks like bench's from
// being its mark ("" for the others): a manifest of a newer schema, or
// the first stray entry of a cells/ or shards/ holding bench's files (a
// .DS_Store a file browser left there).
func benchsMark(dir, name string) (why string, mark bool) {
	path := filepath.Join(dir, name)
	switch name {
	case ManifestFile:
		_, err := readManifestFile(path)
		var newer newerSchemaError
		if errors.As(err, &newer) {
			why = fmt.Sprintf("manifest schema %d, newer than the %d this bench reads: written by a later version?", newer.schema, ManifestSchema)
		}
		return why, err == nil
	case CellsDir:
		return onlyEntries(path, "cell file", isCellFileName)
	case ShardsDir:
		return onlyEntries(path, "shard's file", shardFile.MatchString)
	case SlurmDir, K8sDir:
		why, _, recorded := submitFolder(path, name)
		return why, recorded
	}
	return "", false
}

// shardFile matches the names of the files a shard writes in shards/.
var shardFile = regexp.MustCompile(`^(\.lock-)?[0-9]+-of-[0-9]+(\.json|\.log)?$`)

// onlyEntries reports whether dir is a directory (not a link) holding at
// least one name ok accepts (a file of kind, or its unfinished write), and
// besides those only unfinished writes of such names (tempTarget) (all).
// When it holds one, why names the first other entry: "holds
// \".DS_Store\", which is no cell file, beside its cell files".
func onlyEntries(dir, kind string, ok func(string) bool) (why string, all bool) {
	entries, isDir := dirEntries(dir)
	found, stray := false, ""
	for _, e := range entries {
		n := e.Name()
		if target, isTemp := tempTarget(n); isTemp && ok(target) {
			n = target
		}
		if stray == "" && !ok(n) {
			stray = e.Name()
		}
		found = found || ok(n)
	}
	if !isDir || !found {
		return "", false
	}
	if stray != "" {
		return fmt.Sprintf("holds %q, which is no %s, beside its %ss", stray, kind, kind), false
	}
	return "", true
}

// emptyDir reports whether dir is a directory (not a link) holding no
// entry.
func emptyDir(dir string) bool {
	entries, isDir := dirEntries(dir)
	return isDir && len(entries) == 0
}

// dirEntries returns the entries of dir, and whether it is a directory
// (not a link) that could be read.
func dirEntries(dir string) ([]os.DirEntry, bool) {
	fi, err := os.Lstat(dir)
	if err != nil || !fi.IsDir() {
		return nil, false
	}
	entries, err := os.ReadDir(dir)
	return entries, err == nil
}

// listEntries lists a few entries, each quoted with why it is not
// bench's in brackets where that is known, and how many more.
func listEntries(entries []foreignEntry) string {
	sort.Slice(entries, func(i, j int) bool { return entries[i].name < entries[j].name })
	const most = 5
	q := make([]string, 0, most)
	for i, e := range entries {
		if i == most {
			q = append(q, fmt.Sprintf("%d more", len(entries)-most))
			break
		}
		s := fmt.Sprintf("%q", e.name)
		if e.why != "" {
			s += " (" + e.why + ")"
		}
		q = append(q, s)
	}
	return strings.Join(q, ", ")
}

// outputNames are the files a run of experiment name writes at the top of
// its results directory, besides those of managedDirs.
func outputNames(name string) []string {
	out := slices.Clone(fixedOutputs)
	for _, ext := range reportExts {
		out = append(out, name+ext)
	}
	return out
}

// fixedOutputs are the files of outputNames whose names do not depend on
// the experiment's.
var fixedOutputs = []string{ManifestFile, LogFile, lockFile, oldPredictionsFile, "summary.csv", "folds.csv", "tuning.csv", "per_class.csv"}

// reportExts are the extensions of the reports named after the
// experiment (NAME.md, NAME.tex, NAME.html, NAME.json).
var reportExts = []string{".md", ".tex", ".html", ".json"}

// NameClash returns a report of experiment name (NAME.md, NAME.json, ...)
// and the file of the results directory's own, or of another output of a
// fixed name, that it would overwrite (experiment "manifest": its JSON
// report would be manifest.json, the run manifest); "", "" when there is
// none. Names are compared without regard to case, as a file system of
// macOS or Windows compares them.
func NameClash(name string) (report, clash string) {
	names := append(slices.Clone(fixedOutputs), CellsDir, SupersededDir, ShardsDir, "plots", "predictions")
	for _, ext := range reportExts {
		for _, own := range names {
			if strings.EqualFold(name+ext, own) {
				return name + ext, own
			}
		}
	}
	return "", ""
}

// checkInputs returns an error naming, where the experiment file names it,
// every input that is one of the files a run of experiment name writes in
// dir (the same file: device and inode, whatever its path) or lies inside
// a directory bench manages there; nil when none is.
func checkInputs(dir, name string, inputs []Input) error {
	if len(inputs) == 0 {
		return nil
	}
	if _, err := os.Stat(dir); err != nil {
		return nil // absent: nothing of it is an input
	}
	var errs []error
	for _, in := range inputs {
		if err := checkInput(dir, name, in); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// checkInput is checkInputs for one input.
func checkInput(dir, name string, in Input) error {
	fi, err := os.Stat(in.Path)
	if err != nil {
		return nil // the run reads it and says so
	}
	for _, out := range outputNames(name) {
		if o, err := os.Stat(filepath.Join(dir, out)); err == nil && os.SameFile(fi, o) {
			return fmt.Errorf("%s: %s (%s) is %s of results directory %s, which the run writes: it would overwrite its own input; choose another results directory (-o DIR, or output { dir = ... }) or move the input out of it",
				in.At, in.What, in.Path, out, dir)
		}
	}
	if sub := managedDirOf(dir, in.Path); sub != "" {
		return fmt.Errorf("%s: %s (%s) lies inside %s/ of results directory %s, whose files bench replaces, moves aside or removes: choose another results directory (-o DIR, or output { dir = ... }) or move the input out of it",
			in.At, in.What, in.Path, sub, dir)
	}
	if out := managedFileOf(dir, fi); out != "" {
		return fmt.Errorf("%s: %s (%s) is %s of results directory %s (the same file under another name), which the run replaces, moves aside or removes: it would lose its own input; choose another results directory (-o DIR, or output { dir = ... }) or move the input out of it",
			in.At, in.What, in.Path, out, dir)
	}
	return nil
}

// managedFileOf returns the path, relative to dir and slash-separated, of
// a file in the directories of managedDirs in dir that is the file fi
// (device and inode: a hard link of an input there), or "". Links are not
// followed.
func managedFileOf(dir string, fi fs.FileInfo) string {
	found := ""
	for _, sub := range managedDirs {
		root := filepath.Join(dir, sub)
		if st, err := os.Lstat(root); err != nil || !st.IsDir() {
			continue
		}
		filepath.WalkDir(root, func(path string, e fs.DirEntry, err error) error {
			if err != nil || found != "" || !e.Type().IsRegular() {
				return nil
			}
			if o, err := e.Info(); err == nil && os.SameFile(fi, o) {
				found = filepath.ToSlash(mustRel(dir, path))
				return filepath.SkipAll
			}
			return nil
		})
		if found != "" {
			return found
		}
	}
	return ""
}

// managedDirOf returns the directory of managedDirs in dir that path (its
// links resolved) lies inside, or "".
func managedDirOf(dir, path string) string {
	subs := map[string]fs.FileInfo{}
	for _, sub := range managedDirs {
		if fi, err := os.Stat(filepath.Join(dir, sub)); err == nil && fi.IsDir() {
			subs[sub] = fi
		}
	}
	if len(subs) == 0 {
		return ""
	}
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		return ""
	}
	if real, err = filepath.Abs(real); err != nil {
		return ""
	}
	for p := filepath.Dir(real); ; p = filepath.Dir(p) {
		if fi, err := os.Stat(p); err == nil {
			for sub, s := range subs {
				if os.SameFile(fi, s) {
					return sub
				}
			}
		}
		if p == filepath.Dir(p) {
			return ""
		}
	}
}

// Subdir returns DIR/NAME (NAME slash-separated, inside DIR), a directory
// of bench's own in the results directory dir, made when absent (dir
// too). A symbolic link or anything but a directory on the way is an
// error: bench follows no link inside a results directory (dir itself may
// be one).
func Subdir(dir, name string) (string, error) {
	path, err := inside(dir, name)
	if err != nil {
		return "", err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("results directory: %w", err)
	}
	at := dir
	for _, part := range strings.Split(filepath.ToSlash(filepath.Clean(filepath.FromSlash(name))), "/") {
		at = filepath.Join(at, part)
		if err := os.Mkdir(at, 0o755); err != nil && !errors.Is(err, fs.ErrExist) {
			return "", fmt.Errorf("results directory: %w", err)
		}
		fi, err := os.Lstat(at)
		if err != nil {
			return "", fmt.Errorf("results directory: %w", err)
		}
		if fi.Mode()&fs.ModeSymlink != 0 {
			to, _ := os.Readlink(at)
			return "", fmt.Errorf("results directory %s: %s is a symbolic link (to %s); bench follows no symbolic link inside a results directory: move it away, or choose another directory with -o", dir, filepath.ToSlash(mustRel(dir, at)), to)
		}
		if !fi.IsDir() {
			return "", fmt.Errorf("results directory %s: %s is not a directory: move it away, or choose another directory with -o", dir, filepath.ToSlash(mustRel(dir, at)))
		}
	}
	return path, nil
}

// mustRel is path relative to dir (path is inside dir).
func mustRel(dir, path string) string {
	rel, err := filepath.Rel(dir, path)
	if err != nil {
		return path
	}
	return rel
}

// Folder is a folder of bench's own in a results directory (slurm/,
// k8s/) that a command writes files into: through the directory's Root,
// so that a symbolic link put in the folder's place after OpenFolder
// checked it is refused, never followed out of the directory. The folder
// records what it wrote in its WrittenFile, and a file edited since is
// moved aside before it is written again (WriteFile).
type Folder struct {
	root      *os.Root
	dir, name string
	// aside moves edited files to superseded/TIME/, one TIME for the
	// Folder, and says so on the notes OpenFolder was given.
	aside *setup
}

// OpenFolder makes DIR/NAME as Subdir does, refusing a link or anything
// but a directory on the way, and opens dir as the Root its files are
// written through. Each file WriteFile moves aside is said in one line on
// notes (nil: not said). Close it when done.
func OpenFolder(dir, name string, notes io.Writer) (*Folder, error) {
	if _, err := Subdir(dir, name); err != nil {
		return nil, err
	}
	root, err := openRoot(dir)
	if err != nil {
		return nil, err
	}
	return &Folder{root: root, dir: dir, name: path.Clean(name), aside: newSetup(dir, time.Now, notes)}, nil
}

// Path is the path of the entry name (slash-separated) of f.
func (f *Folder) Path(name string) string {
	return filepath.Join(f.dir, filepath.FromSlash(f.name), filepath.FromSlash(name))
}

// Mkdir makes the folder name (slash-separated) inside f, when absent.
func (f *Folder) Mkdir(name string) error {
	rel := f.name + "/" + name
	if err := mkdirsAt(f.root, rel); err != nil {
		return fmt.Errorf("making %s: %w", f.Path(name), linkError(f.root, f.dir, rel+"/x", err))
	}
	return nil
}

// Close closes f's Root.
func (f *Folder) Close() error { return f.root.Close() }

// adopt moves aside to superseded/TIME/ the files of dir that a run
// adopting it (Options.Adopt) replaces: its run log, which the run appends
// to, now; the outputs when they are written (Run.replacer).
func adopt(dir string, s *setup) error {
	if fi, err := os.Lstat(filepath.Join(dir, LogFile)); err == nil && fi.Mode().IsRegular() {
		return s.moveAside(filepath.Join(dir, LogFile), "--adopt: the directory was not bench's")
	}
	return nil
}

// still returns nil while the results directory is the one the run began
// in and its cells/ folder is there; otherwise an error wrapping
// ErrDirGone that says which is gone and what happened.
func (r *Run) still() error {
	if r.ident == nil {
		return nil
	}
	fi, err := os.Stat(r.dir)
	switch {
	case err == nil && !os.SameFile(fi, r.ident):
		there := "another directory"
		if !fi.IsDir() {
			there = "a file, not a directory,"
		}
		return fmt.Errorf("results directory %s was %w: %s is there now, and bench writes nothing into it; the cells not yet written are lost: run again to compute them", r.dir, ErrDirGone, there)
	case err != nil:
		return fmt.Errorf("results directory %s was %w (%v): bench does not make it again, and writes nothing more; the cells not yet written are lost: run again to compute them", r.dir, ErrDirGone, err)
	}
	return r.cellsStill()
}

// cellsStill returns nil unless the cells/ folder of the results
// directory is gone or a symbolic link now; then an error wrapping
// ErrDirGone that says cells/ was removed (not a full disk) or replaced. A cells/ that is there but cannot be
// written into is a write error of the cell (Run.keepUnwritten).
func (r *Run) cellsStill() error {
	if r.ident == nil {
		return nil
	}
	cells := filepath.Join(r.dir, CellsDir)
	fi, err := os.Lstat(cells)
	if err == nil && fi.Mode()&fs.ModeSymlink != 0 {
		to, _ := os.Readlink(cells)
		return goneError(fmt.Sprintf("the cells/ folder of results directory %s was replaced by a symbolic link (to %s) during the run: bench follows no symbolic link inside a results directory, and writes nothing more; the cells not yet written are lost: move the link away and run again", r.dir, to))
	}
	if !errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	return goneError(fmt.Sprintf("the cells/ folder of results directory %s was removed during the run: bench does not make it again, and writes nothing more; the cell files written before went with it: run again to compute them", r.dir))
}

// goneError is an error, in its own words, that wraps ErrDirGone.
type goneError string

// Error returns the words.
func (e goneError) Error() string { return string(e) }

// Unwrap returns ErrDirGone.
func (e goneError) Unwrap() error { return ErrDirGone }

// lose ends the run whose results directory is gone (err, from still):
// once, it says so and stops the run (Options.Stop).
func (r *Run) lose(err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.goneErr != nil {
		return
	}
	r.goneErr = err
	if r.notes != nil {
		fmt.Fprintf(r.notes, "bench: %v\n", err)
	}
	if r.stop != nil {
		r.stop(err)
	}
}

// GoneNoted reports whether err is the news, in the same words, that the
// run already wrote on Options.Notes when it found its results directory
// gone (lose): a caller that prints errors need not print it again.
func (r *Run) GoneNoted(err error) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return err != nil && r.goneErr != nil && r.notes != nil && err.Error() == r.goneErr.Error()
}

// checkOwner checks, before a run writes anything, that it may write into
// dir: no link or odd file among its entries (checkLayout), no input of
// the experiment name among its outputs (checkInputs), and dir bench's or
// adopted (Owned). It reports whether the run adopts dir.
func checkOwner(dir, name string, opt Options) (adopted bool, err error) {
	if err := checkLayout(dir); err != nil {
		return false, err
	}
	if err := checkNested(dir); err != nil {
		return false, err
	}
	if err := checkInputs(dir, name, opt.Inputs); err != nil {
		return false, err
	}
	foreign, err := foreignEntries(dir)
	if err != nil {
		return false, err
	}
	switch {
	case len(foreign) > 0 && opt.Shard != nil:
		// A shard writes no outputs to move aside; bench merge would
		// replace the files there.
		return false, notOwned(dir, foreign, "shards and their merge write only into bench's directories (--adopt is for a whole run): choose another directory with -o, or move those files away")
	case len(foreign) > 0 && !opt.Adopt:
		return false, notOwned(dir, foreign, adoptAdvice)
	}
	return len(foreign) > 0, nil
}

// replacer returns what Finish does before it writes each output over a
// file: refuse an input of the experiment (by device and inode: an output
// checkInputs did not know of), and move aside, into one
// superseded/TIME/, a file no earlier run lists among its outputs (the
// user's, in a directory adopted), noting it in the run log and the notes.
func (r *Run) replacer(s *setup) func(path string, listed bool) error {
	return func(path string, listed bool) error {
		if err := r.still(); err != nil {
			return err // removed or replaced while the tables were made
		}
		fi, err := os.Stat(path)
		if err != nil {
			return nil
		}
		for _, in := range r.inputs {
			if ii, err := os.Stat(in.Path); err == nil && os.SameFile(fi, ii) {
				return fmt.Errorf("%s: %s (%s) is %s of results directory %s, which the run writes: it would overwrite its own input; choose another results directory (-o DIR, or output { dir = ... }) or move the input out of it",
					in.At, in.What, in.Path, filepath.ToSlash(mustRel(r.dir, path)), r.dir)
			}
		}
		if listed {
			return nil
		}
		return s.moveAside(path, "no run of the directory listed it among its outputs, and an output of the run replaces it")
	}
}

// Enclosing returns the bench results directory that is path or holds
// it: the nearest of path and its parents that bears a mark of a run
// (benchsMark: a manifest ReadManifest reads, or a cells/ or shards/
// folder of bench's own files, as a run killed before its manifest or a
// shard not yet merged leaves); "" when none is. Files that are not a
// run's (profiles, say) must not be written there: bench takes a results
// directory's entries for its own, and moves or replaces them.
func Enclosing(path string) string {
	d, err := filepath.Abs(path)
	if err != nil {
		return ""
	}
	for {
		if runsMark(d) {
			return d
		}
		parent := filepath.Dir(d)
		if parent == d {
			return ""
		}
		d = parent
	}
}

// runsMark reports whether directory d bears a mark of a run of bench
// (benchsMark): a manifest bench reads, a cells/ or shards/ folder
// holding bench's own files and nothing else, or a slurm/ or k8s/ folder
// holding only what bench submit writes there, its record among them.
func runsMark(d string) bool {
	for _, name := range []string{ManifestFile, CellsDir, ShardsDir, SlurmDir, K8sDir} {
		if _, mark := benchsMark(d, name); mark {
			return true
		}
	}
	return false
}

// Inside reports whether path is dir or lies inside it, comparing their
// absolute, cleaned forms (no link is followed).
func Inside(path, dir string) bool {
	p, err1 := filepath.Abs(path)
	d, err2 := filepath.Abs(dir)
	if err1 != nil || err2 != nil {
		return false
	}
	rel, err := filepath.Rel(d, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}
