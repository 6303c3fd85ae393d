package report

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
)

// flavor is how one output format writes the statistics under a table.
type flavor struct {
	esc                func(string) string // escapes a label
	chi, ff, alpha, pm string              // χ²_F, F_F, α, ±
	rplus, rminus, le  string              // R+, R−, ≤
}

var (
	mdFlavor  = flavor{esc: mdEscape, chi: "χ²_F", ff: "F_F", alpha: "α", pm: "±", rplus: "R+", rminus: "R−", le: "≤"}
	texFlavor = flavor{esc: texEscape, chi: `$\chi^2_F$`, ff: `$F_F$`, alpha: `$\alpha$`, pm: `$\pm$`,
		rplus: `$R^+$`, rminus: `$R^-$`, le: `$\le$`}
	htmlFlavor = flavor{esc: htmlEscape, chi: "χ<sup>2</sup><sub>F</sub>", ff: "F<sub>F</sub>", alpha: "α", pm: "±",
		rplus: "R<sup>+</sup>", rminus: "R<sup>−</sup>", le: "≤"}
)

// fixed formats a float with d decimals; NaN prints as "–" and infinities
// as "∞" / "−∞" (in the flavor's characters).
func fixed(x float64, d int) string {
	switch {
	case math.IsNaN(x):
		return "–"
	case math.IsInf(x, 1):
		return "∞"
	case math.IsInf(x, -1):
		return "−∞"
	}
	return strconv.FormatFloat(x, 'f', d, 64)
}

// pval formats a p-value with four decimals, or as "< 0.0001".
func pval(p float64) string {
	if p < 0.0001 {
		return "< 0.0001"
	}
	return "= " + fixed(p, 4)
}

// direction returns the metric's direction in words.
func direction(higher bool) string {
	if higher {
		return "higher is better"
	}
	return "lower is better"
}

// statLines returns the sentences printed under a table: the baseline
// legend, the tests across datasets and the notes, in the flavor's markup.
func statLines(c *Comparison, f flavor) []string {
	var out []string
	if c.Baseline >= 0 {
		out = append(out, fmt.Sprintf("v / *: significantly better / worse than the baseline %s (Nadeau–Bengio corrected resampled t-test on the fold scores, %s = %s); w/t/l counts the datasets won, tied and lost.",
			f.esc(c.Rows[c.Baseline].Label), f.alpha, fixed(c.Alpha, 2)))
	}
	if a := c.Across; a != nil {
		fr := a.Friedman
		out = append(out, fmt.Sprintf("Across %d datasets: Friedman %s = %s (df %d, p %s), Iman–Davenport %s = %s (df %d, %d, p %s); Nemenyi critical difference CD = %s (%s = %s, k = %d, N = %d).",
			fr.N, f.chi, fixed(fr.ChiSq, 3), fr.K-1, pval(fr.PChiSq), f.ff, fixed(fr.FF, 3), fr.K-1, (fr.K-1)*(fr.N-1), pval(fr.PFF),
			fixed(a.CD, 3), f.alpha, fixed(c.Alpha, 2), fr.K, fr.N))
		var pairs []string
		order := make([]int, len(c.Rows))
		for i := range order {
			order[i] = i
		}
		sort.SliceStable(order, func(i, j int) bool { return fr.AvgRanks[order[i]] < fr.AvgRanks[order[j]] })
		for i, r := range order {
			for _, s := range order[i+1:] {
				if fr.AvgRanks[s]-fr.AvgRanks[r] >= a.CD {
					pairs = append(pairs, fmt.Sprintf("%s (%s) > %s (%s)", f.esc(c.Rows[r].Label), fixed(fr.AvgRanks[r], 2),
						f.esc(c.Rows[s].Label), fixed(fr.AvgRanks[s], 2)))
				}
			}
		}
		if len(pairs) == 0 {
			out = append(out, "Nemenyi: no two rows differ by at least CD.")
		} else {
			out = append(out, "Nemenyi, rank difference at least CD: "+strings.Join(pairs, "; ")+".")
		}
		if w := a.Wilcoxon; w != nil {
			how := "exact"
			if !w.Exact {
				how = "normal approximation, z = " + fixed(w.Z, 3)
			}
			out = append(out, fmt.Sprintf("Wilcoxon signed-ranks, %s vs %s: %s = %s, %s = %s, T = %s, p %s (%s).",
				f.esc(c.Rows[0].Label), f.esc(c.Rows[1].Label), f.rplus, fixed(w.RPlus, 1), f.rminus, fixed(w.RMinus, 1),
				fixed(w.T, 1), pval(w.P), how))
		}
	}
	for _, n := range c.Notes {
		out = append(out, "Note: "+f.esc(n)+".")
	}
	return out
}

// entryText formats an entry: "mean ± std" and its mark, or "failed" or "".
// A single split (a holdout or a test file) has no spread: its value
// stands alone.
func entryText(e Entry, pm string) string {
	switch {
	case !e.Present:
		return ""
	case e.Failed:
		return "failed"
	}
	s := fixed(e.Mean, 4)
	if e.N != 1 {
		s += " " + pm + " " + fixed(e.Std, 4)
	}
	if e.Mark != "" {
		s += " " + e.Mark
	}
	return s
}

func wtlText(c *Comparison, r int) string {
	if r == c.Baseline {
		return "baseline"
	}
	w := c.WTL[r]
	return fmt.Sprintf("%d/%d/%d", w.Win, w.Tie, w.Loss)
}

// showEncoder reports whether the rows differ in encoder.
func showEncoder(rows []Row) bool {
	for _, r := range rows {
		if r.Encoder != rows[0].Encoder {
			return true
		}
	}
	return false
}

func mdEscape(s string) string { return strings.ReplaceAll(s, "|", `\|`) }

var texReplacer = strings.NewReplacer(
	`\`, `\textbackslash{}`, `_`, `\_`, `%`, `\%`, `&`, `\&`, `#`, `\#`, `$`, `\$`,
	`{`, `\{`, `}`, `\}`, `~`, `\textasciitilde{}`, `^`, `\textasciicircum{}`,
	`<`, `\textless{}`, `>`, `\textgreater{}`, `–`, `--`, `—`, `---`, `−`, `$-$`, `±`, `$\pm$`,
)

// texEscape escapes LaTeX's special characters.
func texEscape(s string) string { return texReplacer.Replace(s) }

var htmlReplacer = strings.NewReplacer(`&`, "&amp;", `<`, "&lt;", `>`, "&gt;", `"`, "&quot;", `'`, "&#39;")

func htmlEscape(s string) string { return htmlReplacer.Replace(s) }

// writeMarkdownTable writes one comparison as a Markdown table with its
// statistics.
func writeMarkdownTable(b *strings.Builder, c *Comparison) {
	fmt.Fprintf(b, "## %s (%s)\n\n", c.Metric, direction(c.HigherIsBetter))
	showEnc := showEncoder(c.Rows)
	head := []string{"learner", "params", "reduction"}
	if showEnc {
		head = append([]string{"encoder"}, head...)
	}
	nID := len(head)
	head = append(head, columnHeads(c)...)
	head = append(head, "avg. rank")
	if c.Baseline >= 0 {
		head = append(head, "w/t/l")
	}
	b.WriteString("| " + strings.Join(head, " | ") + " |\n")
	b.WriteString("|" + strings.Repeat(" --- |", nID) + strings.Repeat(" ---: |", len(head)-nID) + "\n")
	for r, row := range c.Rows {
		fields := []string{mdEscape(row.Learner), orDash(row.Params), mdEscape(row.Reduction)}
		if showEnc {
			fields = append([]string{mdEscape(row.Encoder)}, fields...)
		}
		for d := range c.Datasets {
			e := c.Entries[r][d]
			v := entryText(Entry{Present: e.Present, Failed: e.Failed, Mean: e.Mean, Std: e.Std, N: e.N}, "±")
			if e.Best && e.ok() {
				v = "**" + v + "**"
			}
			if e.Mark != "" {
				v += " " + strings.ReplaceAll(e.Mark, "*", `\*`)
			}
			fields = append(fields, v)
		}
		fields = append(fields, fixed(c.AvgRank[r], 2))
		if c.Baseline >= 0 {
			fields = append(fields, wtlText(c, r))
		}
		b.WriteString("| " + strings.Join(fields, " | ") + " |\n")
	}
	b.WriteString("\n")
	for _, l := range statLines(c, mdFlavor) {
		b.WriteString(l + "\n\n")
	}
}

// columnHeads names the dataset columns of c; a column whose every value
// comes from a single split (a test file or one holdout) says so.
func columnHeads(c *Comparison) []string {
	heads := make([]string, len(c.Datasets))
	for d, name := range c.Datasets {
		heads[d] = name
		single, any := true, false
		for r := range c.Rows {
			if e := c.Entries[r][d]; e.Present && !e.Failed {
				any = true
				single = single && e.N == 1
			}
		}
		if any && single {
			heads[d] += " (holdout)"
		}
	}
	return heads
}
