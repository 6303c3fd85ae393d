package cluster

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/polyclass/polyclass/framework/safetext"
)

// Slurm is a submission to Slurm: a job array of one task per shard and a
// merge job that runs once every task has succeeded.
type Slurm struct {
	Run
	// Partition is the partition (sbatch --partition); empty: the
	// cluster's default.
	Partition string
	// Time is each task's time limit in a form sbatch --time takes
	// (minutes, MM:SS, HH:MM:SS, D-HH, D-HH:MM, D-HH:MM:SS); empty: the
	// partition's default.
	Time string
	// CPUs is the number of CPUs of each task (--cpus-per-task), and the
	// folds it runs in parallel; 0: Slurm's default of one.
	CPUs int
	// Mem is the memory of each task (--mem): a whole number with an
	// optional unit K, M, G or T; empty: the partition's default.
	Mem string
	// Scripts is the directory of the scripts; the tasks' output goes to
	// its logs/ subdirectory.
	Scripts string
}

// Names of the files Slurm writes into its scripts directory.
const (
	// ArrayScript is the job array's batch script.
	ArrayScript = "array.sbatch"
	// MergeScript is the merge job's batch script.
	MergeScript = "merge.sbatch"
	// LogsDir holds the output of every task and of the merge.
	LogsDir = "logs"
)

// slurmTime is a time limit as sbatch --time takes it.
var slurmTime = regexp.MustCompile(`^([0-9]+|[0-9]+:[0-9]{2}|[0-9]+:[0-9]{2}:[0-9]{2}|[0-9]+-[0-9]+|[0-9]+-[0-9]+:[0-9]{2}|[0-9]+-[0-9]+:[0-9]{2}:[0-9]{2}|UNLIMITED|INFINITE)$`)

// partition is one partition name, or several separated by commas.
var partition = regexp.MustCompile(`^[A-Za-z0-9_.-]+(,[A-Za-z0-9_.-]+)*$`)

// Check reports the first value s cannot put into a batch script.
func (s *Slurm) Check() error {
	if err := s.check(); err != nil {
		return err
	}
	switch {
	case s.Partition != "" && !partition.MatchString(s.Partition):
		return fmt.Errorf("partition %q: want a partition name (or several, separated by commas)", s.Partition)
	case s.Time != "" && !slurmTime.MatchString(s.Time):
		return fmt.Errorf("time %q: want minutes, MM:SS, HH:MM:SS, D-HH, D-HH:MM or D-HH:MM:SS", s.Time)
	case s.CPUs < 0:
		return fmt.Errorf("cpus %d: want 1 or more", s.CPUs)
	case s.Scripts == "":
		return fmt.Errorf("no scripts directory")
	case strings.Contains(s.Scripts, `\`):
		// A backslash in --output stops Slurm from expanding %x, %A and
		// %a: every task would write one file.
		return fmt.Errorf("scripts directory %s holds a backslash, which stops Slurm from naming each task's log file: choose a results directory without one", safetext.Show(s.Scripts))
	}
	if err := gate(field{"scripts directory", s.Scripts}); err != nil {
		return err
	}
	return checkMem(s.Mem)
}

// sbatchWord writes s as one argument of an #SBATCH line, as sbatch reads
// it: a backslash escapes the next character, quotes group, an unescaped
// # starts a comment and blanks separate arguments. Every one of those is
// escaped; s holds no control character (Check).
func sbatchWord(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch r {
		case '\\', '\'', '"', '#', ' ':
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// outputPattern is path as a file name pattern of sbatch --output, where
// % starts a replacement symbol and %% stands for %.
func outputPattern(path string) string {
	return strings.ReplaceAll(path, "%", "%%")
}

// header is the #SBATCH lines of a job called name whose output goes to
// logs/output, with the resources the submission asks for.
func (s *Slurm) header(b *strings.Builder, name, output string, extra ...string) {
	fmt.Fprintf(b, "#SBATCH --job-name=%s\n", sbatchWord(name))
	for _, e := range extra {
		fmt.Fprintf(b, "#SBATCH %s\n", e)
	}
	fmt.Fprintf(b, "#SBATCH --output=%s\n", sbatchWord(outputPattern(filepath.Join(s.Scripts, LogsDir))+"/"+output))
	if s.Partition != "" {
		fmt.Fprintf(b, "#SBATCH --partition=%s\n", s.Partition)
	}
	if s.Time != "" {
		fmt.Fprintf(b, "#SBATCH --time=%s\n", s.Time)
	}
	if s.CPUs > 0 {
		fmt.Fprintf(b, "#SBATCH --cpus-per-task=%d\n", s.CPUs)
	}
	if s.Mem != "" {
		fmt.Fprintf(b, "#SBATCH --mem=%s\n", s.Mem)
	}
}

// ArrayScript is the batch script of the job array: task I runs shard I of
// s.Shards into the results directory, with as many parallel folds as the
// task has CPUs. It refuses what Check refuses.
func (s *Slurm) ArrayScript() (string, error) {
	if err := s.Check(); err != nil {
		return "", err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "#!/bin/bash\n# Experiment %s in %d shards, one per task of this job array; written by\n", s.Experiment, s.Shards)
	b.WriteString("# bench submit slurm. A task run again keeps the cells it finished before\n")
	b.WriteString("# and computes only the missing ones: resubmit the array to retry.\n")
	s.header(&b, s.Experiment, "%x-%A_%a.out", fmt.Sprintf("--array=0-%d", s.Shards-1))
	b.WriteString("set -euo pipefail\n")
	fmt.Fprintf(&b, "exec %s \\\n\t-j \"${SLURM_CPUS_PER_TASK:-1}\" --shard \"${SLURM_ARRAY_TASK_ID}/%d\" \\\n\t-o %s %s\n",
		safetext.Line(s.command("run")), s.Shards, safetext.Quote(s.Dir), safetext.Quote(safetext.Path(s.File)))
	return b.String(), nil
}

// MergeScript is the batch script of the merge job, to be submitted with
// --dependency=afterok on the job array: it checks that every cell is
// there and writes the tables of the whole grid. A dependency that can no
// longer be satisfied (a task failed) cancels it. It refuses what Check
// refuses.
func (s *Slurm) MergeScript() (string, error) {
	if err := s.Check(); err != nil {
		return "", err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "#!/bin/bash\n# Merges the %d shards of experiment %s once every task of the job array\n", s.Shards, s.Experiment)
	b.WriteString("# has succeeded; written by bench submit slurm.\n")
	m := *s
	m.CPUs = 0
	m.header(&b, s.Experiment+"-merge", "%x-%j.out", "--kill-on-invalid-dep=yes")
	b.WriteString("set -euo pipefail\n")
	fmt.Fprintf(&b, "exec %s\n", safetext.Line(s.MergeArgs()))
	return b.String(), nil
}
