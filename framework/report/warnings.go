package report

import (
	"fmt"
	"strings"
)

// writeMarkdownWarnings writes the experiment's warnings as a Warnings
// section, one item each; nothing when there are none.
func writeMarkdownWarnings(b *strings.Builder, warnings []string) {
	if len(warnings) == 0 {
		return
	}
	b.WriteString("## Warnings\n\n")
	for _, w := range warnings {
		fmt.Fprintf(b, "- %s\n", mdEscape(strings.ReplaceAll(w, "\n", " ")))
	}
	b.WriteString("\n")
}

// writeHTMLWarnings writes the experiment's warnings as a banner with a
// list; nothing when there are none.
func writeHTMLWarnings(b *strings.Builder, warnings []string) {
	if len(warnings) == 0 {
		return
	}
	fmt.Fprintf(b, "<div class=\"banner\" id=\"warnings\" role=\"status\"><strong>%s</strong> (as bench validate gives them):\n<ul>\n", plural(len(warnings), "warning"))
	for _, w := range warnings {
		fmt.Fprintf(b, "<li>%s</li>\n", htmlEscape(w))
	}
	b.WriteString("</ul></div>\n")
}
