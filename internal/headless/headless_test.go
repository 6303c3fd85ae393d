package headless

import (
	"context"
	"fmt"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// browser is the one Chromium of the package's tests (TestMain).
var browser *Browser

func TestMain(m *testing.M) {
	b, err := Start(context.Background())
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	browser = b
	code := m.Run()
	b.Close()
	os.Exit(code)
}

// page writes body into an HTML file and opens it at 1200 × 800.
func page(t *testing.T, body string) *Page {
	t.Helper()
	path := filepath.Join(t.TempDir(), "p.html")
	if err := os.WriteFile(path, []byte("<!DOCTYPE html>\n<html><body>"+body+"</body></html>\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	p, err := browser.Open(path, 1200, 800)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.Close)
	return p
}

// TestConsole: a clean page writes nothing; console.error, a log and an
// uncaught exception are each recorded.
func TestConsole(t *testing.T) {
	for _, tc := range []struct {
		name, body string
		want       []string // substrings, one per expected message
	}{
		{"clean", `<p id="x">plain</p>`, nil},
		{"console.error", `<script>console.error("bad " + (6 * 7))</script>`, []string{"console.error: bad 42"}},
		{"uncaught", `<script>undefinedFunction()</script>`, []string{"undefinedFunction is not defined"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := page(t, tc.body)
			// A round trip after the load: the events have arrived.
			var ok bool
			if err := p.Eval("true", &ok); err != nil {
				t.Fatal(err)
			}
			got := p.Console()
			if len(got) != len(tc.want) {
				t.Fatalf("console %q, want %d messages like %q", got, len(tc.want), tc.want)
			}
			for i, w := range tc.want {
				if !strings.Contains(got[i], w) {
					t.Errorf("message %q lacks %q", got[i], w)
				}
			}
		})
	}
}

// TestClickTypeRead: the window has the width asked for, a click runs the
// page's handler, typing fills an input, and the page's state reads back.
func TestClickTypeRead(t *testing.T) {
	p := page(t, `<button id="b">go</button><input id="i"><p id="o"></p>
<script>
document.getElementById("b").addEventListener("click", () => { document.getElementById("o").textContent = "clicked " + innerWidth })
</script>`)
	var text, typed string
	err := p.Run(chromedp.Click("#b", chromedp.ByID), chromedp.Text("#o", &text, chromedp.ByID),
		chromedp.SendKeys("#i", "abc", chromedp.ByID), chromedp.Value("#i", &typed, chromedp.ByID))
	if err != nil {
		t.Fatal(err)
	}
	if text != "clicked 1200" || typed != "abc" {
		t.Errorf("after the click %q, typed %q", text, typed)
	}
	shot := filepath.Join(t.TempDir(), "s.png")
	if err := p.Screenshot(shot); err != nil {
		t.Fatal(err)
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
	if s := img.Bounds().Size(); s.X != 1200 || s.Y != 800 {
		t.Errorf("screenshot %v, want 1200×800", s)
	}
}
