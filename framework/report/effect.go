package report

import (
	"math"
	"strconv"
	"strings"
)

// signed formats x with d decimals and its sign, "+0.0210" or "-0.0120";
// zero as "0.0000".
func signed(x float64, d int) string {
	s := fixed(x, d)
	if x > 0 && !math.IsInf(x, 0) {
		s = "+" + s
	}
	return s
}

// effectText is the p-value and effect size of an entry tested against
// the baseline, "p = 0.0123, Δ = +0.0210 [+0.0080, +0.0340]": the
// corrected resampled t-test's two-sided p-value and the mean over folds
// of the row's score minus the baseline's with its 95% interval; "" when
// the entry was not tested, or "no test: WHY" when the test's
// preconditions fail.
func effectText(e Entry) string {
	return strings.Join(effectParts(e), " ")
}

// effectParts is effectText in the parts that a line may break between:
// "p = 0.0123,", "Δ = +0.0210" and "[+0.0080, +0.0340]"; nil when the
// entry was not tested, and the one part "no test: WHY" when the test's
// preconditions fail.
func effectParts(e Entry) []string {
	if e.NoTest != "" {
		return []string{noTestCell(e.NoTest)}
	}
	if !e.Tested {
		return nil
	}
	return []string{"p " + pval(e.P) + ",", "Δ = " + signed(e.Diff, meanDigits), "[" + signed(e.Lo, meanDigits) + ", " + signed(e.Hi, meanDigits) + "]"}
}

// short3 formats x with 3 decimals and no leading zero when |x| < 1
// (".012", "-.004", "1.250"), as papers print p-values and small
// differences.
func short3(x float64) string {
	s := strconv.FormatFloat(x, 'f', 3, 64)
	switch {
	case strings.HasPrefix(s, "0."):
		return s[1:]
	case strings.HasPrefix(s, "-0."):
		return "-" + s[2:]
	}
	return s
}

// texEffect is effectText compactly, for a marked entry of a LaTeX table:
// the p-value as a superscript and the mean difference ± the half-width
// of its 95% interval (the interval is symmetric) as a subscript,
// "$^{p=.012}_{+.021\pm.013}$"; "" for an entry without a mark; "no
// test: WHY" in small type when the test's preconditions fail.
func texEffect(e Entry) string {
	if e.NoTest != "" {
		return ` {\scriptsize(` + texEscape(noTestCell(e.NoTest)) + `)}`
	}
	if !e.Tested || e.Mark == "" {
		return ""
	}
	p := "p=" + short3(e.P)
	if e.P < 0.001 {
		p = "p<.001"
	}
	d := short3(e.Diff)
	if e.Diff > 0 {
		d = "+" + d
	}
	half := (e.Hi - e.Lo) / 2
	return `$^{` + p + `}_{` + d + `\pm` + short3(half) + `}$`
}

// Legends of the p-values and effect sizes beside the entries (see
// flavor.effect).
const (
	effectNote    = "Beside each entry tested against the baseline: p, the corrected t-test's two-sided p-value, and Δ, the mean over folds of the row's score minus the baseline's, with its 95 % interval from the same t distribution."
	texEffectNote = "Beside a mark: the p-value (superscript) and $\\Delta$, the mean over folds of the row's score minus the baseline's, " +
		"$\\pm$ the half-width of its 95\\,\\% interval from the corrected resampled t-test (subscript)."
)
