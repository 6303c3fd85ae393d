// Package headless drives Debian's Chromium without a display over the
// DevTools protocol (github.com/chromedp/chromedp), for the tests of the
// HTML report: one browser for every check, a tab per page, clicks and
// typing, the page's state read back with JavaScript, the messages the
// page wrote to the console (errors and uncaught exceptions included), and
// screenshots.
//
// Chromium starts with a new, empty profile and with everything that
// would reach the network turned off, so that it runs the same on a
// closed CI machine as on a laptop.
package headless

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// Install says how to get the browser; make test-deps runs it.
const Install = "apt-get install chromium fonts-liberation; make test-deps does"

// ErrNotInstalled is returned by Find when no Chromium is on the PATH.
var ErrNotInstalled = errors.New("chromium not installed (" + Install + ")")

// Find returns the path of the Chromium on the PATH (chromium, as Debian
// names it, or chromium-browser, google-chrome).
func Find() (string, error) {
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p, nil
		}
	}
	return "", ErrNotInstalled
}

// flags start Chromium headless, without a sandbox (CI runs as root),
// without a GPU, and without any connection of its own (see
// measuring-and-testing notes: without the networking flags it floods a
// closed network with refused connections).
func flags(profile string) []chromedp.ExecAllocatorOption {
	return []chromedp.ExecAllocatorOption{
		chromedp.NoFirstRun, chromedp.NoDefaultBrowserCheck, chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU,
		chromedp.UserDataDir(profile),
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-default-apps", true),
		chromedp.Flag("disable-extensions", true),
		chromedp.Flag("hide-scrollbars", true),
		chromedp.Flag("mute-audio", true),
	}
}

// Browser is one running Chromium.
type Browser struct {
	ctx     context.Context // the browser's: tabs derive from it
	cancel  func()
	profile string
}

// Start starts Chromium (Find) with a fresh profile. Close stops it.
func Start(ctx context.Context) (*Browser, error) {
	path, err := Find()
	if err != nil {
		return nil, err
	}
	profile, err := os.MkdirTemp("", "headless-profile-")
	if err != nil {
		return nil, fmt.Errorf("chromium profile: %w", err)
	}
	opts := append(flags(profile), chromedp.ExecPath(path))
	actx, acancel := chromedp.NewExecAllocator(context.WithoutCancel(ctx), opts...)
	bctx, bcancel := chromedp.NewContext(actx)
	// The first Run starts the browser.
	if err := chromedp.Run(bctx); err != nil {
		bcancel()
		acancel()
		os.RemoveAll(profile)
		return nil, fmt.Errorf("starting %s: %w", path, err)
	}
	b := &Browser{ctx: bctx, profile: profile}
	b.cancel = func() { bcancel(); acancel() }
	return b, nil
}

// Close stops the browser and removes its profile.
func (b *Browser) Close() {
	b.cancel()
	os.RemoveAll(b.profile)
}

// Page is one tab showing a local file.
type Page struct {
	ctx    context.Context
	cancel func()
	mu     sync.Mutex
	msgs   []string
}

// Open loads the local file path in a new tab of width × height CSS
// pixels and waits for its load event. The tab records what the page
// writes to the console and its uncaught exceptions (Console).
func (b *Browser) Open(path string, width, height int) (*Page, error) {
	u, err := fileURL(path)
	if err != nil {
		return nil, err
	}
	ctx, cancel := chromedp.NewContext(b.ctx)
	p := &Page{ctx: ctx, cancel: cancel}
	chromedp.ListenTarget(ctx, func(ev any) {
		switch e := ev.(type) {
		case *runtime.EventConsoleAPICalled:
			var args []string
			for _, a := range e.Args {
				args = append(args, strings.Trim(string(a.Value), `"`)+a.Description)
			}
			p.record(fmt.Sprintf("console.%s: %s", e.Type, strings.Join(args, " ")))
		case *runtime.EventExceptionThrown:
			d := e.ExceptionDetails
			msg := d.Text
			if d.Exception != nil && d.Exception.Description != "" {
				msg += " " + d.Exception.Description
			}
			p.record(fmt.Sprintf("exception at line %d: %s", d.LineNumber+1, msg))
		}
	})
	err = chromedp.Run(ctx,
		emulation.SetDeviceMetricsOverride(int64(width), int64(height), 1, false),
		chromedp.Navigate(u),
		chromedp.WaitReady("body", chromedp.ByQuery),
	)
	if err != nil {
		cancel()
		return nil, fmt.Errorf("opening %s: %w", path, err)
	}
	return p, nil
}

func (p *Page) record(m string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.msgs = append(p.msgs, m)
}

// Console returns what the page wrote to the console so far, uncaught
// exceptions included.
func (p *Page) Console() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]string(nil), p.msgs...)
}

// Run runs chromedp actions in the tab (clicks, typing, reading back).
func (p *Page) Run(actions ...chromedp.Action) error { return chromedp.Run(p.ctx, actions...) }

// Eval evaluates a JavaScript expression in the page and decodes its
// value (JSON-serialisable) into out.
func (p *Page) Eval(expr string, out any) error {
	return chromedp.Run(p.ctx, chromedp.Evaluate(expr, out))
}

// Screenshot writes a PNG of the tab's viewport to path.
func (p *Page) Screenshot(path string) error {
	var buf []byte
	if err := chromedp.Run(p.ctx, chromedp.CaptureScreenshot(&buf)); err != nil {
		return fmt.Errorf("screenshot: %w", err)
	}
	return os.WriteFile(path, buf, 0o644)
}

// Close closes the tab.
func (p *Page) Close() { p.cancel() }

// fileURL returns the file:// URL of a local path.
func fileURL(path string) (string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", fmt.Errorf("page path: %w", err)
	}
	return (&url.URL{Scheme: "file", Path: abs}).String(), nil
}
