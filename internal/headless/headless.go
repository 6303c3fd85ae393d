// Package headless renders local HTML files in Debian's Chromium without a
// display, for the tests of the HTML report: the DOM after the page has
// loaded (and its scripts have run), the messages the page wrote to the
// console (errors included), and a screenshot.
//
// Chromium is started once per call with a new, empty profile and with
// everything that would reach the network turned off, so that it runs the
// same on a closed CI machine as on a laptop.
package headless

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// Install says how to get the browser; tests that skip for want of it
// print it (make test-deps runs it).
const Install = "apt-get install chromium fonts-liberation; make test-deps does"

// flags start Chromium headless, without a sandbox (CI runs as root),
// without a GPU, and without any connection of its own.
var flags = []string{
	"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
	"--disable-background-networking", "--disable-component-update", "--disable-sync",
	"--disable-default-apps", "--disable-extensions", "--hide-scrollbars", "--mute-audio",
	// Console messages go to stderr, where Page reads them.
	"--enable-logging=stderr", "--v=0",
}

// Browser is a Chromium binary.
type Browser struct {
	Path string
}

// ErrNotInstalled is returned by Find when no Chromium is on the PATH.
var ErrNotInstalled = errors.New("chromium not installed (" + Install + ")")

// Find returns the Chromium on the PATH (chromium, as Debian names it, or
// chromium-browser, google-chrome).
func Find() (*Browser, error) {
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return &Browser{Path: p}, nil
		}
	}
	return nil, ErrNotInstalled
}

// Page is what Chromium made of a page.
type Page struct {
	// DOM is the serialised document after the load event.
	DOM string
	// Console holds the messages the page wrote to the console, uncaught
	// exceptions included, one per entry ("message", source: URL (line)).
	Console []string
}

// DumpDOM loads the local file path in a window of width × height CSS
// pixels and returns its DOM once loaded, with its console messages.
func (b *Browser) DumpDOM(ctx context.Context, path string, width, height int) (*Page, error) {
	stdout, console, err := b.run(ctx, path, width, height, "--dump-dom")
	if err != nil {
		return nil, err
	}
	return &Page{DOM: stdout, Console: console}, nil
}

// Screenshot loads the local file path in a window of width × height CSS
// pixels and writes a PNG of the window to png. It returns the page's
// console messages.
func (b *Browser) Screenshot(ctx context.Context, path, png string, width, height int) ([]string, error) {
	_, console, err := b.run(ctx, path, width, height, "--screenshot="+png)
	if err != nil {
		return console, err
	}
	if fi, err := os.Stat(png); err != nil || fi.Size() == 0 {
		return console, fmt.Errorf("chromium wrote no screenshot %s", png)
	}
	return console, nil
}

// run starts Chromium on path with a fresh profile and the given action
// flag, and returns its stdout and the console messages of its stderr.
func (b *Browser) run(ctx context.Context, path string, width, height int, action string) (string, []string, error) {
	profile, err := os.MkdirTemp("", "headless-profile-")
	if err != nil {
		return "", nil, fmt.Errorf("chromium profile: %w", err)
	}
	defer os.RemoveAll(profile)
	page, err := fileURL(path)
	if err != nil {
		return "", nil, err
	}
	args := append(append([]string{}, flags...),
		"--user-data-dir="+profile,
		"--window-size="+strconv.Itoa(width)+","+strconv.Itoa(height),
		action, page)
	cmd := exec.CommandContext(ctx, b.Path, args...)
	cmd.WaitDelay = 5 * time.Second
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return "", nil, fmt.Errorf("chromium %s %s: %w\n%s", action, path, err, tail(stderr.String(), 40))
	}
	return stdout.String(), ConsoleMessages(stderr.String()), nil
}

// consoleLine matches Chromium's log line for a console message:
// "[pid:tid:time:INFO:CONSOLE:12] "text", source: file:///x.html (12)"
// (older versions write CONSOLE(12)).
var consoleLine = regexp.MustCompile(`:CONSOLE[:(]\d+\)?\] (.*)$`)

// ConsoleMessages returns the console messages in Chromium's stderr log.
func ConsoleMessages(stderr string) []string {
	var out []string
	for _, line := range strings.Split(stderr, "\n") {
		if m := consoleLine.FindStringSubmatch(strings.TrimRight(line, "\r")); m != nil {
			out = append(out, m[1])
		}
	}
	return out
}

// fileURL returns the file:// URL of a local path.
func fileURL(path string) (string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", fmt.Errorf("page path: %w", err)
	}
	return (&url.URL{Scheme: "file", Path: abs}).String(), nil
}

// tail returns the last n lines of s.
func tail(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}
