package headless

import (
	"image/png"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// browser returns the installed Chromium; without one the test skips,
// naming the package that make test-deps installs (testsummary accepts
// only such skips, and CI installs it).
func browser(t *testing.T) *Browser {
	t.Helper()
	b, err := Find()
	if err != nil {
		t.Skip(err)
	}
	return b
}

func TestConsoleMessages(t *testing.T) {
	stderr := `/usr/bin/chromium: 9: [: 25276510208: unexpected operator
[27059:27088:1123/074311.292702:ERROR:dbus/bus.cc:405] Failed to connect to the bus
[27059:27059:1123/074311.681540:INFO:CONSOLE:2] "boom one", source: file:///tmp/cr/t.html (2)
[27059:27059:1123/074311.681564:INFO:CONSOLE(7)] "Uncaught ReferenceError: f is not defined", source: file:///tmp/cr/t.html (7)
`
	want := []string{`"boom one", source: file:///tmp/cr/t.html (2)`,
		`"Uncaught ReferenceError: f is not defined", source: file:///tmp/cr/t.html (7)`}
	if got := ConsoleMessages(stderr); !reflect.DeepEqual(got, want) {
		t.Errorf("got %q\nwant %q", got, want)
	}
}

// TestDumpDOM loads pages whose console output is known: a clean page, one
// that logs an error, one with an uncaught exception, and one whose load
// handler rewrites the DOM (the DOM is taken after the load event).
func TestDumpDOM(t *testing.T) {
	b := browser(t)
	tests := []struct {
		name    string
		body    string
		console []string // substrings, one per expected message
		dom     string
	}{
		{"clean", `<p id="x">plain</p>`, nil, `<p id="x">plain</p>`},
		{"console.error", `<script>console.error("bad " + (6 * 7))</script>`, []string{`"bad 42"`}, ""},
		{"uncaught", `<script>undefinedFunction()</script>`, []string{"Uncaught ReferenceError: undefinedFunction is not defined"}, ""},
		{"after load", `<p id="w"></p><script>addEventListener("load", () => { document.getElementById("w").textContent = "width " + innerWidth })</script>`,
			nil, `<p id="w">width 1200</p>`},
	}
	dir := t.TempDir()
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			page := filepath.Join(dir, strings.ReplaceAll(tc.name, " ", "_")+".html")
			if err := os.WriteFile(page, []byte("<!DOCTYPE html>\n<html><body>"+tc.body+"</body></html>\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			p, err := b.DumpDOM(t.Context(), page, 1200, 800)
			if err != nil {
				t.Fatal(err)
			}
			if len(p.Console) != len(tc.console) {
				t.Fatalf("console %q, want %d messages %q", p.Console, len(tc.console), tc.console)
			}
			for i, want := range tc.console {
				if !strings.Contains(p.Console[i], want) || !strings.Contains(p.Console[i], page) {
					t.Errorf("console message %q, want %q from %s", p.Console[i], want, page)
				}
			}
			if !strings.Contains(p.DOM, tc.dom) {
				t.Errorf("DOM lacks %q:\n%s", tc.dom, p.DOM)
			}
		})
	}
}

// TestScreenshot: the PNG has the window's size and shows the page (a
// coloured block among white).
func TestScreenshot(t *testing.T) {
	b := browser(t)
	dir := t.TempDir()
	page := filepath.Join(dir, "p.html")
	os.WriteFile(page, []byte(`<!DOCTYPE html><html><body style="margin:0"><div style="width:300px;height:200px;background:#2c5d8f"></div></body></html>`), 0o644)
	shot := filepath.Join(dir, "p.png")
	console, err := b.Screenshot(t.Context(), page, shot, 640, 480)
	if err != nil {
		t.Fatal(err)
	}
	if len(console) != 0 {
		t.Errorf("console: %q", console)
	}
	f, err := os.Open(shot)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	if got := img.Bounds().Size(); got.X != 640 || got.Y != 480 {
		t.Errorf("screenshot %v, want 640×480", got)
	}
	r, g, bl, _ := img.At(150, 100).RGBA()
	if r>>8 != 0x2c || g>>8 != 0x5d || bl>>8 != 0x8f {
		t.Errorf("pixel (150, 100) = #%02x%02x%02x, want the block's #2c5d8f", r>>8, g>>8, bl>>8)
	}
	if r, g, bl, _ := img.At(400, 300).RGBA(); r>>8 != 255 || g>>8 != 255 || bl>>8 != 255 {
		t.Errorf("pixel (400, 300) = #%02x%02x%02x, want white", r>>8, g>>8, bl>>8)
	}
}
