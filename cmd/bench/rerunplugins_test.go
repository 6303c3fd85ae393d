package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/polyclass/polyclass/framework/host"
	"github.com/polyclass/polyclass/framework/results"
)

// TestRerunNeedsConsentForRecordedPlugins: bench rerun without --plugins
// searches bench's own directory only, never the directory a manifest
// records (a manifest may be anyone's: campaign 6, A02, A05, A12); a run
// made with --plugins fails before anything starts, with the command
// that names the recorded directory, and that command reruns it. This
// reverses the automatic reuse of the recorded directories, for
// security.
func TestRerunNeedsConsentForRecordedPlugins(t *testing.T) {
	_, out := ranIrisLDA(t, "plugdirs", 2)
	// No --plugins: bench's own directory (the test binary's) has none.
	again := filepath.Join(t.TempDir(), "again")
	var stdout, stderr bytes.Buffer
	err := run(commandContext(t), []string{"rerun", "--quiet", "-o", again, out}, &stdout, &stderr)
	want := "rerun: a results directory's manifest is not trusted to name programs to run; if you trust " + pluginsDir + ", say so: bench rerun --plugins " + pluginsDir + " " + out
	if err == nil || !strings.Contains(err.Error(), "rerun: plugin lda: not found in "+ownPluginsDir()+"; the manifest records it as "+pluginsDir+"/bench-plugin-lda, in a directory not searched\n") ||
		!strings.HasSuffix(err.Error(), want) {
		t.Fatalf("rerun without --plugins: %v\nwant the error to end %q", err, want)
	}
	if _, err := os.Stat(again); !os.IsNotExist(err) {
		t.Errorf("the refused rerun made %s (%v): it must fail before starting anything", again, err)
	}
	stdout.Reset()
	if err := run(commandContext(t), []string{"rerun", "--quiet", "--plugins", pluginsDir, "-o", again, out}, &stdout, &stderr); err != nil ||
		!strings.Contains(stdout.String(), "identical results (1 cell;") {
		t.Fatalf("rerun with the --plugins the refusal names: %v\n%s%s", err, stdout.String(), stderr.String())
	}
}

// TestCheckRecordedPlugins: what a rerun accepts of the plugins a
// manifest records, each case against the binaries of the directory
// searched.
func TestCheckRecordedPlugins(t *testing.T) {
	searched, rec, res, given := t.TempDir(), t.TempDir(), t.TempDir(), "/given"
	write := func(path, content string) results.PluginRecord {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(content), 0o755); err != nil {
			t.Fatal(err)
		}
		name := strings.TrimPrefix(filepath.Base(path), "bench-plugin-")
		return results.PluginRecord{Name: name, Path: path, SHA256: hexOf(content)}
	}
	link := func(target, path string) {
		t.Helper()
		if err := os.Symlink(target, path); err != nil {
			t.Fatal(err)
		}
	}
	same := write(searched+"/bench-plugin-same", "same")
	write(searched+"/bench-plugin-lda", "the real lda")
	evil := write(rec+"/bench-plugin-lda", "an evil lda") // A02: path and digest edited
	only := write(rec+"/bench-plugin-only", "only there")
	write(res+"/tools/bench-plugin-lnk", "shipped")
	link(res+"/tools/bench-plugin-lnk", searched+"/bench-plugin-lnk") // A05: a linked file
	shipped := results.PluginRecord{Name: "lnk", Path: searched + "/bench-plugin-lnk", SHA256: hexOf("shipped")}
	write(res+"/tools/bench-plugin-away", "shipped too")
	link(res+"/tools/bench-plugin-away", rec+"/bench-plugin-away")
	away := results.PluginRecord{Name: "away", Path: rec + "/bench-plugin-away", SHA256: hexOf("shipped too")}
	secret := write(rec+"/shadow", "root:*:20228:0:99999:7:::")
	secret.Name = "shadow"
	changed := write(searched+"/bench-plugin-changed", "rebuilt")
	changed.SHA256 = hexOf("as built then")
	colonDir := filepath.Join(t.TempDir(), "x"+string(os.PathListSeparator)+"y")
	colon := write(colonDir+"/bench-plugin-colon", "beyond a separator")
	h := host.New(searched, nil)
	trust := func(dirs string) string {
		return "\nrerun: a results directory's manifest is not trusted to name programs to run; if you trust " + rec + ", say so: bench rerun --plugins " + dirs + " " + res
	}
	for _, tc := range []struct {
		name    string
		plugins []results.PluginRecord
		given   string
		want    string
	}{
		{"found with the recorded digest", []results.PluginRecord{same}, "", ""},
		{"rebuilt, recorded nowhere else: the rerun reports the change", []results.PluginRecord{changed}, "", ""},
		{"none recorded", nil, "", ""},
		{"another binary where the manifest points", []results.PluginRecord{same, evil}, "",
			"rerun: plugin lda: " + searched + "/bench-plugin-lda has sha256 " + hexOf("the real lda")[:12] + "…, not the " + hexOf("an evil lda")[:12] + "… the run recorded; the manifest records the plugin as " + evil.Path + ", which has it, in a directory not searched" + trust(rec)},
		{"only where the manifest points, with --plugins given", []results.PluginRecord{only}, given,
			"rerun: plugin only: not found in " + searched + "; the manifest records it as " + only.Path + ", in a directory not searched" + trust(given+":"+rec)},
		{"a linked file into the results directory", []results.PluginRecord{shipped}, "",
			"rerun: plugin lnk: " + shipped.Path + " resolves to " + res + "/tools/bench-plugin-lnk, inside the results directory " + res + ": bench runs no program that comes with results"},
		{"recorded as a link into the results directory", []results.PluginRecord{away}, "",
			"rerun: plugin away: not found in " + searched + "; the manifest records it as " + away.Path + ", which resolves to " + res + "/tools/bench-plugin-away, inside the results directory " + res + ": bench runs no program that comes with results"},
		{"a relative path", []results.PluginRecord{{Name: "rel", Path: "bench-plugin-rel"}}, "",
			"rerun: plugin rel: not found in " + searched + "; the manifest records it as bench-plugin-rel, a relative path (bench records absolute ones)"},
		{"recorded in a directory whose path holds the list separator: never written into a --plugins list", []results.PluginRecord{colon}, "",
			"rerun: plugin colon: not found in " + searched + "; the manifest records it as " + colon.Path + ", in a directory not searched" +
				"\nrerun: a results directory's manifest is not trusted to name programs to run; if you trust " + colonDir + ", say so: bench rerun --plugins names a list of directories separated by \":\", and plugins directory \"" + colonDir + "\" holds \":\", which separates the directories of a list: a list cannot name it; move or link the directory to a path without it"},
		{"a file that is no plugin binary (campaign 7 B17: never read, not even for its digest)", []results.PluginRecord{secret}, "",
			"rerun: plugin shadow: not found in " + searched + "; the manifest records it as " + secret.Path + ", which is not named bench-plugin-shadow (bench records plugin binaries only)"},
	} {
		err := checkRecordedPlugins(h, tc.plugins, res, host.SplitDirs(tc.given))
		if got := errText(err); got != tc.want {
			t.Errorf("%s:\n got %q\nwant %q", tc.name, got, tc.want)
		}
	}
}

// errText is err's message, "" for nil.
func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// hexOf is the hex SHA-256 of s.
func hexOf(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}

// ranIrisLDA writes an experiment named name with seed (lda and ova on
// iris, 3 folds) and runs it into a new directory: the file and the
// results directory.
func ranIrisLDA(t *testing.T, name string, seed int) (file, out string) {
	t.Helper()
	file = writeExperiment(t, fmt.Sprintf(`experiment %q { seed = %d }
dataset "iris" { path = "%%REPO%%/experiments/data/iris.csv" }
learner "lda" {}
reduction "ova" {}
cv { folds = 3 }
`, name, seed))
	out = t.TempDir()
	if _, stderr, err := bench(t, "run", "-o", out, file); err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	return file, out
}
