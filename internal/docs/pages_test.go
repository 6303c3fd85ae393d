package docs

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// maxReadmeLines bounds the README: a front door read in ten minutes, the
// rest in docs/.
const maxReadmeLines = 300

// TestDocPages: the README stays within maxReadmeLines, links every page
// of docs/, every relative link of the README and the pages names a file
// that exists (and a heading that exists, for a #fragment), and no user
// document speaks of the project's issues.
func TestDocPages(t *testing.T) {
	root := filepath.Join("..", "..")
	readme := readDoc(t, filepath.Join(root, "README.md"))
	if n := strings.Count(readme, "\n"); n > maxReadmeLines {
		t.Errorf("README.md has %d lines, want at most %d: move details to a page of docs/", n, maxReadmeLines)
	}
	pages, _ := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	if len(pages) == 0 {
		t.Fatal("no pages in docs/")
	}
	for _, p := range pages {
		if !strings.Contains(readme, "(docs/"+filepath.Base(p)+")") {
			t.Errorf("README.md does not link docs/%s: add it to \"Where to go next\"", filepath.Base(p))
		}
	}
	issue := regexp.MustCompile(`(?i)\bissues? #?\d+`)
	for _, p := range append([]string{filepath.Join(root, "README.md")}, pages...) {
		doc := readDoc(t, p)
		name, _ := filepath.Rel(root, p)
		if m := issue.FindString(doc); m != "" {
			t.Errorf("%s speaks of %q: user documents speak of the project, not of its issues", name, m)
		}
		for _, l := range relativeLinks(doc) {
			file, frag, _ := strings.Cut(l, "#")
			target := p
			if file != "" {
				target = filepath.Join(filepath.Dir(p), file)
			}
			if _, err := os.Stat(target); err != nil {
				t.Errorf("%s links %s, which does not exist", name, l)
				continue
			}
			if frag != "" && strings.HasSuffix(target, ".md") && !hasAnchor(readDoc(t, target), frag) {
				t.Errorf("%s links %s: no heading gives #%s", name, l, frag)
			}
		}
	}
}

// readDoc returns a file's text.
func readDoc(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// relativeLinks returns the targets of a Markdown document's links that
// name no scheme: [text](target), outside code blocks.
func relativeLinks(doc string) []string {
	link := regexp.MustCompile(`\]\(([^)\s]+)\)`)
	var out []string
	inCode := false
	for _, line := range strings.Split(doc, "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "```") {
			inCode = !inCode
			continue
		}
		if inCode {
			continue
		}
		for _, m := range link.FindAllStringSubmatch(line, -1) {
			if !strings.Contains(m[1], "://") && !strings.HasPrefix(m[1], "mailto:") {
				out = append(out, m[1])
			}
		}
	}
	return out
}

// hasAnchor reports whether one of doc's headings gives the fragment frag,
// as GitHub makes it: lower case, spaces as hyphens, punctuation dropped.
func hasAnchor(doc, frag string) bool {
	for _, line := range strings.Split(doc, "\n") {
		if !strings.HasPrefix(line, "#") {
			continue
		}
		h := strings.ToLower(strings.TrimSpace(strings.TrimLeft(line, "#")))
		var b strings.Builder
		for _, r := range h {
			switch {
			case r == ' ':
				b.WriteRune('-')
			case r == '-' || r == '_' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r > 127 && r != '–' && r != '—' && r != '→' && r != '×':
				b.WriteRune(r)
			}
		}
		if b.String() == frag {
			return true
		}
	}
	return false
}
