package report

import (
	"fmt"
	"math"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/polyclass/polyclass/framework/stats"
)

// flavor is how one output format writes the statistics under a table.
type flavor struct {
	esc                func(string) string // escapes a label
	chi, ff, alpha, pm string              // χ²_F, F_F, α, ±
	rplus, rminus, le  string              // R+, R−, ≤
	zdef               string              // the z statistic against the baseline
	dagger             string              // the softmax footnote mark, with its leading space
	ddagger            string              // the tied-scores footnote mark, with its leading space
	section            string              // the not-converged footnote mark, with its leading space
	effect             string              // the legend of the p-values and effect sizes beside the entries
}

var (
	mdFlavor = flavor{esc: mdEscape, chi: "χ²_F", ff: "F_F", alpha: "α", pm: "±", rplus: "R+", rminus: "R−", le: "≤",
		zdef: "z = (R_i − R_baseline)/√(k(k+1)/6N)", dagger: " †", ddagger: " ‡", section: " §", effect: effectNote}
	texFlavor = flavor{esc: texEscape, chi: `$\chi^2_F$`, ff: `$F_F$`, alpha: `$\alpha$`, pm: `$\pm$`,
		rplus: `$R^+$`, rminus: `$R^-$`, le: `$\le$`, zdef: `$z = (R_i - R_{\mathrm{baseline}})/\sqrt{k(k+1)/6N}$`,
		dagger: `\,$^\dagger$`, ddagger: `\,$^\ddagger$`, section: `\,$^\S$`, effect: texEffectNote}
	htmlFlavor = flavor{esc: htmlEscape, chi: "χ<sup>2</sup><sub>F</sub>", ff: "F<sub>F</sub>", alpha: "α", pm: "±",
		rplus: "R<sup>+</sup>", rminus: "R<sup>−</sup>", le: "≤", zdef: "z = (R<sub>i</sub> − R<sub>baseline</sub>)/√(k(k+1)/6N)",
		dagger: "<sup>†</sup>", ddagger: "<sup>‡</sup>", section: "<sup>§</sup>", effect: effectNote}
)

// meanDigits is the number of decimals the tables show of a mean and a
// standard deviation.
const meanDigits = 4

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
		out = append(out, fmt.Sprintf("v / *: significantly better / worse than the baseline %s (Nadeau–Bengio corrected resampled t-test on the fold scores, %s = %s); w/t/l counts the datasets won, tied and lost%s.",
			f.esc(c.Rows[c.Baseline].Label), f.alpha, fixed(c.Alpha, 2), noTestClause(c)))
		out = append(out, f.effect)
	}
	if c.hasSoftmax() {
		out = append(out, fmt.Sprintf("%s: %s from a softmax of the decoder's class scores, not from probabilities (the learner gives none, or the reduction's decoder does not pass them on): it measures how the scores rank, not calibration; calibrate = \"platt\" or \"isotonic\" on the reduction makes probabilities.",
			strings.TrimSpace(strings.TrimPrefix(f.dagger, `\,`)), f.esc(c.Metric)))
	}
	if tied := c.constantEntries(f.esc, func(e *Entry) int { return e.TiedFolds }); len(tied) > 0 {
		out = append(out, fmt.Sprintf("%s: the class scores were all tied on every test row of some folds, each prediction made by the tie-breaking rule: a constant model, whose %s says nothing of the learner (%s).",
			strings.TrimSpace(strings.TrimPrefix(f.ddagger, `\,`)), f.esc(c.Metric), strings.Join(tied, "; ")))
	}
	if one := c.constantEntries(f.esc, func(e *Entry) int { return e.OneClassFolds }); len(one) > 0 {
		out = append(out, fmt.Sprintf("%s: one class was predicted for every test row of some folds whose test rows hold several classes: a constant model (features on a scale the learner's arithmetic cannot resolve, a kernel far too narrow, say), whose %s says nothing of the learner (%s).",
			strings.TrimSpace(strings.TrimPrefix(f.ddagger, `\,`)), f.esc(c.Metric), strings.Join(one, "; ")))
	}
	if nc := c.notConvergedEntries(f.esc); len(nc) > 0 {
		out = append(out, fmt.Sprintf("%s: the learner's fits did not converge on some of the binary or multiclass problems of some folds, each stopping at its iteration bound (%s, say) before its stopping rule was met, its model the last iterate, or meeting it on a degenerate kernel matrix (a kernel svm whose off-diagonal kernel values on the training rows are all alike: rbf with a gamma far too large for the data's scale, a saturated sigmoid), its model a constant (%s).",
			strings.TrimSpace(strings.TrimPrefix(f.section, `\,`)), f.esc("max_iter"), strings.Join(nc, "; ")))
	}
	if a := c.Across; a != nil {
		out = append(out, acrossLines(c, a, f)...)
	}
	for _, n := range c.Notes {
		out = append(out, "Note: "+f.esc(n)+".")
	}
	return out
}

// labels returns the escaped labels of rows.
func labels(c *Comparison, rows []int, f flavor) []string {
	out := make([]string, len(rows))
	for i, r := range rows {
		out[i] = f.esc(c.Rows[r].Label)
	}
	return out
}

// acrossLines describes the tests across datasets: which rows were left
// out, why there is no test, or the Friedman test with its post-hoc tests,
// and the Wilcoxon test of two rows.
func acrossLines(c *Comparison, a *Across, f flavor) []string {
	var out []string
	if len(a.LeftOut) > 0 {
		out = append(out, fmt.Sprintf("The average ranks and the tests across datasets use the %d rows with a value on every dataset; left out (missing or failed on some dataset, no average rank): %s.",
			len(a.Rows), strings.Join(labels(c, a.LeftOut, f), ", ")))
	}
	if a.NoTest != "" && len(a.Datasets) > 1 {
		// One dataset is no comparison across datasets: nothing to explain.
		out = append(out, strings.ToUpper(a.NoTest[:1])+a.NoTest[1:]+".")
	}
	if fr := a.Friedman; fr != nil {
		ff := fmt.Sprintf("Iman–Davenport %s = %s (df %d, %d, p %s)", f.ff, fixed(fr.FF, 3), fr.K-1, (fr.K-1)*(fr.N-1), pval(fr.PFF))
		if math.IsInf(fr.FF, 0) {
			ff = fmt.Sprintf("Iman–Davenport %s undefined (every dataset ranks the rows alike)", f.ff)
		}
		out = append(out, fmt.Sprintf("Across %d datasets: Friedman %s = %s (df %d, p %s), %s; Nemenyi critical difference CD = %s (%s = %s, k = %d, N = %d).",
			fr.N, f.chi, fixed(fr.ChiSq, 3), fr.K-1, pval(fr.PChiSq), ff, fixed(a.CD, 3), f.alpha, fixed(c.Alpha, 2), fr.K, fr.N))
		out = append(out, nemenyiLine(c, a, f))
		if a.Control != nil {
			out = append(out, controlLine(c, a, f))
		}
	}
	if w := a.Wilcoxon; w != nil {
		how := "exact"
		if !w.Exact {
			how = "normal approximation, z = " + fixed(w.Z, 3)
		}
		first, second := f.esc(c.Rows[a.Rows[0]].Label), f.esc(c.Rows[a.Rows[1]].Label)
		line := fmt.Sprintf("Wilcoxon signed-ranks, %s vs %s: %s = %s, %s = %s, T = %s, p %s (%s).",
			first, second, f.rplus, fixed(w.RPlus, 1), f.rminus, fixed(w.RMinus, 1), fixed(w.T, 1), pval(w.P), how)
		// A dropped zero difference leaves fewer ranked differences than
		// datasets: the bound is that of the differences ranked.
		if minP := stats.WilcoxonMinP(w.N); minP >= c.Alpha {
			ranked := ""
			if w.N != len(a.Datasets) {
				ranked = fmt.Sprintf(" (%d differences ranked)", w.N)
			}
			line += fmt.Sprintf(" With %d datasets%s this test cannot be significant at %s = %s: even the most extreme outcome has exact p = %s",
				len(a.Datasets), ranked, f.alpha, fixed(c.Alpha, 2), fixed(minP, 4))
			if !w.Exact && w.P < minP {
				line += ", which the normal approximation's p understates"
			}
			line += "."
		}
		out = append(out, line)
	}
	return out
}

// nemenyiLine lists the pairs of rows whose average ranks differ by at
// least the Nemenyi CD.
func nemenyiLine(c *Comparison, a *Across, f flavor) string {
	ranks := a.Friedman.AvgRanks
	order := make([]int, len(ranks))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(i, j int) bool { return ranks[order[i]] < ranks[order[j]] })
	var pairs []string
	for i, r := range order {
		for _, s := range order[i+1:] {
			if ranks[s]-ranks[r] >= a.CD {
				pairs = append(pairs, fmt.Sprintf("%s (%s) better than %s (%s)", f.esc(c.Rows[a.Rows[r]].Label), fixed(ranks[r], 2),
					f.esc(c.Rows[a.Rows[s]].Label), fixed(ranks[s], 2)))
			}
		}
	}
	if len(pairs) == 0 {
		return "Nemenyi: no two rows differ by at least CD."
	}
	return "Nemenyi, rank difference at least CD: " + strings.Join(pairs, "; ") + "."
}

// controlLine describes the post-hoc tests against the baseline: each
// row's z and p in Holm's order with Holm's verdict, and the
// Bonferroni–Dunn critical difference with the rows beyond it.
func controlLine(c *Comparison, a *Across, f flavor) string {
	ctl := a.Control
	ranks := a.Friedman.AvgRanks
	var parts, bd []string
	for _, cmp := range ctl.Comparisons {
		verdict := "not different"
		if cmp.Holm {
			verdict = "worse"
			if cmp.RankDiff < 0 {
				verdict = "better"
			}
		}
		label := f.esc(c.Rows[a.Rows[cmp.Method]].Label)
		parts = append(parts, fmt.Sprintf("%s (%s): z = %s, p %s, Holm p %s, %s", label, fixed(ranks[cmp.Method], 2),
			fixed(cmp.Z, 3), pval(cmp.P), pval(cmp.HolmP), verdict))
		if cmp.BonferroniDunn {
			bd = append(bd, label)
		}
	}
	bdText := "no row differs from the baseline by at least CD"
	if len(bd) > 0 {
		bdText = "beyond CD: " + strings.Join(bd, ", ")
	}
	line := fmt.Sprintf("Against the baseline %s (avg. rank %s), %s with Holm's step-down procedure at %s = %s: %s. Bonferroni–Dunn critical difference CD = %s (%s).",
		f.esc(c.Rows[c.Baseline].Label), fixed(ranks[ctl.Control], 2), f.zdef, f.alpha, fixed(c.Alpha, 2), strings.Join(parts, "; "),
		fixed(ctl.CD, 3), bdText)
	if !(a.Friedman.PFF < c.Alpha) {
		line += fmt.Sprintf(" The Iman–Davenport test does not reject equal ranks at %s = %s, so these post-hoc results do not establish differences.",
			f.alpha, fixed(c.Alpha, 2))
	}
	return line
}

// entryText formats an entry: "mean ± std" and its mark, or "failed", or
// absent ("–") for a cell the run does not have.
// A single split (a holdout or a test file) has no spread: its value
// stands alone.
func entryText(e Entry, pm string) string {
	switch {
	case !e.Present:
		return absent
	case e.Failed:
		return "failed"
	}
	s := fixed(e.Mean, meanDigits)
	if e.N != 1 {
		s += " " + pm + " " + fixed(e.Std, meanDigits)
	}
	if e.Mark != "" {
		s += " " + e.Mark
	}
	return s
}

// rankHeads names the columns after the datasets: the average rank (for a
// ranked table) and w/t/l (with a baseline).
func rankHeads(c *Comparison) []string {
	var h []string
	if c.Ranked {
		h = append(h, "avg. rank")
	}
	if c.Baseline >= 0 {
		h = append(h, "w/t/l")
	}
	return h
}

// rankFields are row r's values of the rankHeads columns.
func rankFields(c *Comparison, r int) []string {
	var f []string
	if c.Ranked {
		f = append(f, fixed(c.AvgRank[r], 2))
	}
	if c.Baseline >= 0 {
		f = append(f, wtlText(c, r))
	}
	return f
}

// noTestClause is what the w/t/l legend adds when some entry has no test
// against the baseline (its preconditions fail): such a dataset is none of
// the three, so a row's counts may sum to fewer than its datasets.
func noTestClause(c *Comparison) string {
	for _, row := range c.Entries {
		for _, e := range row {
			if e.NoTest != "" {
				return " (a dataset without a test, its entry saying why, counts in none of them)"
			}
		}
	}
	return ""
}

func wtlText(c *Comparison, r int) string {
	if r == c.Baseline {
		return "baseline"
	}
	w := c.WTL[r]
	return fmt.Sprintf("%d/%d/%d", w.Win, w.Tie, w.Loss)
}

var mdReplacer = strings.NewReplacer(`\`, `\\`, "|", `\|`, "<", "&lt;", ">", "&gt;", "](", `]\(`,
	"*", `\*`, "`", "\\`", "~", `\~`)

// mdEntity is what a Markdown renderer reads as an entity or numeric
// character reference (CommonMark 0.31, section 2.5).
var mdEntity = regexp.MustCompile(`&(#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{0,31});`)

// mdEscape escapes a label for Markdown so that a renderer shows it as
// written and no two labels read alike: "|" (it would end a table cell),
// "\" (a label ending in "\" would escape the "|" after it: "\|" would
// read as an escaped backslash and the cell's end) and "<", ">" (a
// Markdown renderer passes HTML through, so that a label "<script>" would
// run), as the HTML and LaTeX reports escape them. An "&" that begins an
// entity is written "&amp;", so that the labels "&lt;x" and "<x" stay
// two; any other "&" starts nothing and stays (wine&co, as the goldens
// have it). "](" is written "]\(", so that a label "[x](https://…)"
// shows as written, not as a link; other brackets stay (C=[0.01, 0.1]).
// "*", "`" and "~" (emphasis, code spans, strikethrough) are escaped, and
// "_" where it could open or close emphasis: not between two letters or
// digits (CommonMark's intraword rule), so that svm_cs stays as written
// and _x_ does not read as x.
func mdEscape(s string) string {
	s = mdEntity.ReplaceAllStringFunc(s, func(e string) string { return "&amp;" + e[1:] })
	return mdUnderscores(mdReplacer.Replace(s))
}

// mdUnderscores writes each "_" of s that is not between two letters or
// digits as "\_".
func mdUnderscores(s string) string {
	if !strings.Contains(s, "_") {
		return s
	}
	var b strings.Builder
	prev := rune(-1)
	for i, r := range s {
		if r == '_' {
			next, _ := utf8.DecodeRuneInString(s[i+1:])
			if !wordRune(prev) || !wordRune(next) {
				b.WriteByte('\\')
			}
		}
		b.WriteRune(r)
		prev = r
	}
	return b.String()
}

// wordRune reports whether r is a letter or a digit.
func wordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }

// texSpecial is what LaTeX's special characters, and the characters its
// text fonts cannot be relied on to hold, are written as.
var texSpecial = map[rune]string{
	'\\': `\textbackslash{}`, '_': `\_`, '%': `\%`, '&': `\&`, '#': `\#`, '$': `\$`,
	'{': `\{`, '}': `\}`, '~': `\textasciitilde{}`, '^': `\textasciicircum{}`,
	'<': `\textless{}`, '>': `\textgreater{}`, '−': `$-$`, '±': `$\pm$`,
	// Commands rather than ligatures, so that no two labels typeset
	// alike: "–" is not "--" (lda–x and lda--x), "|" prints as a dash in
	// OT1, LaTeX's default encoding, and '"' as ”; the curly quotes are
	// not the ASCII pairs.
	'–': `\textendash{}`, '—': `\textemdash{}`, '|': `\textbar{}`, '"': `\texttt{\char34}`,
	'‘': `\textquoteleft{}`, '’': `\textquoteright{}`, '“': `\textquotedblleft{}`, '”': `\textquotedblright{}`,
}

// texLigature reports whether TeX's text fonts join a followed by b into
// one glyph: two hyphens (an en dash), two backquotes or two apostrophes
// (curly quotes; ‘ and ’ print as a backquote and an apostrophe), two
// commas (a low quote in T1), and "!" or "?" before a backquote (inverted
// marks).
func texLigature(a, b rune) bool {
	a, b = texQuote(a), texQuote(b)
	switch a {
	case '-', '`', '\'', ',':
		return b == a
	case '!', '?':
		return b == '`'
	}
	return false
}

// texQuote is the ASCII character TeX's fonts print r as: ‘ as a
// backquote, ’ as an apostrophe, the hyphens U+2010 and U+2011 (which
// pdflatex's inputenc reads as -) as a hyphen-minus; any other r as
// itself.
func texQuote(r rune) rune {
	switch r {
	case '‘':
		return '`'
	case '’':
		return '\''
	case '\u2010', '\u2011':
		return '-'
	}
	return r
}

// texEscape escapes LaTeX's special characters (texSpecial) and breaks
// its ligatures with "{}", so that a label shows as written and no two
// read alike: "lda--x" and "lda–x" (written --) stay two.
func texEscape(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		t, ok := texSpecial[r]
		if !ok {
			t = s[i : i+n]
		}
		b.WriteString(t)
		i += n
		if next, _ := utf8.DecodeRuneInString(s[i:]); i < len(s) && texLigature(r, next) && !strings.HasSuffix(t, "{}") {
			b.WriteString("{}")
		}
	}
	return b.String()
}

var htmlReplacer = strings.NewReplacer(`&`, "&amp;", `<`, "&lt;", `>`, "&gt;", `"`, "&quot;", `'`, "&#39;")

func htmlEscape(s string) string { return htmlReplacer.Replace(s) }

// columnHeads names the dataset columns of c; a column whose every value
// comes from a single split says which: "(test set)" for a test file,
// "(holdout)" for one random split.
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
		switch {
		case any && single && d < len(c.TestSet) && c.TestSet[d]:
			heads[d] += " (test set)"
		case any && single:
			heads[d] += " (holdout)"
		}
	}
	return heads
}
