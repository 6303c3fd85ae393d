package report

import (
	"fmt"
	"strings"
)

// entryData returns the data attributes of a table entry that the
// report's script reads: its mean (data-v, the key a click on its column
// sorts by) and its fold scores (data-folds, shown when the pointer rests
// on it), each "R.F=VALUE" with the repeat and fold counted from 1 and the
// value in full.
func entryData(e Entry) string {
	if !e.ok() {
		return ""
	}
	var folds []string
	for _, f := range e.folds {
		folds = append(folds, fmt.Sprintf("%d.%d=%s", f.repeat+1, f.fold+1, num(f.v)))
	}
	return fmt.Sprintf(" data-v=\"%s\" data-folds=\"%s\"", num(e.Mean), strings.Join(folds, " "))
}

// writeHTMLControls writes the controls of the interactive report: the
// metric whose table shows (all by default), a filter on the rows'
// labels, and a count of the rows shown. They show only when the script
// runs (the class js on the document); the page reads whole without it.
func writeHTMLControls(b *strings.Builder, t *Tables) {
	if len(t.Metrics) == 0 {
		return
	}
	b.WriteString("<div id=\"controls\" class=\"js-only\" role=\"search\">\n<label>Metric <select id=\"metric\">\n<option value=\"\">all metrics</option>\n")
	for _, c := range t.Metrics {
		fmt.Fprintf(b, "<option value=\"%s\">%s</option>\n", htmlEscape(c.Metric), htmlEscape(c.Metric))
	}
	b.WriteString("</select></label>\n<label>Rows <input id=\"filter\" type=\"search\" placeholder=\"filter by label, e.g. logreg\" autocomplete=\"off\"></label>\n")
	fmt.Fprintf(b, "<span id=\"shown\" aria-live=\"polite\">%s</span>\n", plural(len(tableRows(t)), "row"))
	b.WriteString("<span class=\"hint\">Click a column&rsquo;s head to sort by it; rest the pointer on a score for its folds.</span>\n</div>\n<div id=\"tip\" role=\"tooltip\" hidden></div>\n")
}

// htmlInteractiveStyle styles the controls, the sort marks and the
// tooltip.
const htmlInteractiveStyle = `.js-only{display:none}
.js #controls.js-only{display:flex}
#controls{position:sticky;top:0;z-index:2;background:#fff;border-bottom:1px solid #d5dde5;padding:.5em 0;margin:.5em 0;gap:1.5em;align-items:center;flex-wrap:wrap;font-size:.92em}
#controls input{width:22em}
#controls .hint{color:#555}
table.cmp th[data-sort]{cursor:pointer;user-select:none}
table.cmp th[data-sort]:hover{background:#eef3f8}
table.cmp th[aria-sort=ascending]::after{content:" ▲";font-size:.8em}
table.cmp th[aria-sort=descending]::after{content:" ▼";font-size:.8em}
td[data-folds]{cursor:help}
#tip{position:absolute;z-index:3;background:#fff;border:1px solid #2c5d8f;box-shadow:0 2px 8px rgba(0,0,0,.2);padding:.4em .7em;font-size:.85em;pointer-events:none;font-variant-numeric:tabular-nums;white-space:nowrap}
#tip .tip-head{font-weight:bold;margin-bottom:.2em}
`

// htmlScript is the report's script: inline, no library, nothing fetched.
// It marks the document (class js) so that the controls show; the metric
// choice shows one metric's section; the filter hides the rows (of every
// table, and the per-class reports) whose label lacks its text, case
// aside; a click on a comparison table's column head sorts its rows by
// that column (numbers by data-v, the rows without a value last; again
// to reverse); and resting the pointer on an entry shows its fold scores.
const htmlScript = `(function () {
"use strict";
document.documentElement.classList.add("js");
const $ = (s, e) => (e || document).querySelector(s);
const $$ = (s, e) => Array.from((e || document).querySelectorAll(s));
const metric = $("#metric"), filter = $("#filter"), shown = $("#shown"), tip = $("#tip");
function showMetric() {
  const m = metric ? metric.value : "";
  for (const s of $$("section.metric")) s.hidden = m !== "" && s.dataset.metric !== m;
}
function applyFilter() {
  const q = filter ? filter.value.trim().toLowerCase() : "";
  const labels = new Set();
  for (const e of $$("[data-label]")) {
    const hit = e.dataset.label.toLowerCase().includes(q);
    e.hidden = !hit;
    if (hit && e.closest("table.cmp")) labels.add(e.dataset.label);
  }
  const all = new Set($$("table.cmp tr[data-label]").map((r) => r.dataset.label));
  if (shown) shown.textContent = labels.size + " of " + all.size + " row" + (all.size === 1 ? "" : "s");
}
function sortBy(th) {
  const table = th.closest("table"), tbody = table.tBodies[0];
  const col = Array.from(th.parentNode.children).indexOf(th);
  const dir = th.getAttribute("aria-sort") === "descending" ? "ascending" : "descending";
  for (const h of $$("th", table)) h.removeAttribute("aria-sort");
  th.setAttribute("aria-sort", dir);
  const sign = dir === "ascending" ? 1 : -1;
  const rows = Array.from(tbody.rows).map((r, i) => ({ r, i, c: r.cells[col] }));
  rows.sort((a, b) => {
    if (th.dataset.sort === "num") {
      const x = a.c.dataset.v, y = b.c.dataset.v;
      if (x === undefined || y === undefined) return (x === undefined) - (y === undefined) || a.i - b.i;
      return sign * (parseFloat(x) - parseFloat(y)) || a.i - b.i;
    }
    return sign * a.c.textContent.localeCompare(b.c.textContent) || a.i - b.i;
  });
  for (const x of rows) tbody.appendChild(x.r);
}
function showTip(td) {
  const table = td.closest("table"), col = td.cellIndex;
  const head = table.tHead.rows[0].cells[col].textContent;
  const lines = td.dataset.folds.split(" ").map((f) => {
    const [rf, v] = f.split("="), [r, k] = rf.split(".");
    return "<div>repeat " + r + ", fold " + k + ": <span class=\"v\">" + v + "</span></div>";
  });
  tip.innerHTML = "<div class=\"tip-head\"></div>" + lines.join("");
  tip.firstChild.textContent = td.parentNode.dataset.label + " on " + head + " (" + table.dataset.metric + ")";
  const box = td.getBoundingClientRect();
  tip.hidden = false;
  tip.style.left = Math.max(0, Math.min(scrollX + box.left, scrollX + innerWidth - tip.offsetWidth - 8)) + "px";
  tip.style.top = (scrollY + box.bottom + 4) + "px";
}
if (metric) metric.addEventListener("change", showMetric);
if (filter) filter.addEventListener("input", applyFilter);
for (const th of $$("table.cmp th[data-sort]")) th.addEventListener("click", () => sortBy(th));
for (const td of $$("td[data-folds]")) {
  td.addEventListener("mouseenter", () => showTip(td));
  td.addEventListener("mouseleave", () => { tip.hidden = true; });
}
applyFilter();
})();
`

// writeHTMLScript writes the script at the end of the body.
func writeHTMLScript(b *strings.Builder) {
	b.WriteString("<script>\n" + htmlScript + "</script>\n")
}
