package report

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/polyclass/polyclass/framework/curves"
)

// entryDataAttrs returns the data attributes of a table entry that the
// report's script reads: its mean (data-v, the key a click on its column
// sorts by) and its fold scores (data-folds, shown when the pointer rests
// on it), each "R.F=VALUE" with the repeat and fold counted from 1 and the
// value in full.
func entryDataAttrs(e Entry) []dataAttr {
	if !e.ok() {
		return nil
	}
	var folds []string
	for _, f := range e.folds {
		folds = append(folds, fmt.Sprintf("%d.%d=%s", f.repeat+1, f.fold+1, num(f.v)))
	}
	return []dataAttr{{"v", num(e.Mean)}, {"folds", strings.Join(folds, " ")}}
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
.js #curve-panel.js-only{display:block}
.curve-plots{display:flex;flex-wrap:wrap;gap:1.5em;align-items:flex-start}
.curve-plots figure{width:26em}
.curve-plots svg{width:100%;height:auto;font-family:inherit}
#curve-legend{list-style:none;padding:0;margin:.5em 0;font-size:.85em;columns:2 14em}
#curve-legend li{break-inside:avoid;margin:.1em 0}
#curve-legend .swatch{display:inline-block;width:1.6em;height:0;border-top:2px solid;vertical-align:middle;margin-right:.4em}
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
const data = $("#curve-data"), pick = $("#curve-cell");
const tab10 = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"];
const NS = "http://www.w3.org/2000/svg";
function el(name, attrs, parent) {
  const e = document.createElementNS(NS, name);
  for (const k in attrs) e.setAttribute(k, attrs[k]);
  if (parent) parent.appendChild(e);
  return e;
}
function styleOf(i, classes, average) {
  if (average === "micro") return { stroke: "#000", "stroke-width": 2, "stroke-dasharray": "6 3" };
  if (average === "macro") return { stroke: "#000", "stroke-width": 2, "stroke-dasharray": "1.5 2.5" };
  if (classes > 10) return { stroke: "#aaa", "stroke-width": 0.8 };
  return { stroke: tab10[i], "stroke-width": 1.5 };
}
function plot(svg, family, classes, xl, yl, diagonal) {
  svg.replaceChildren();
  const x0 = 45, y0 = 300, w = 300, h = 280;
  const X = (x) => x0 + w * x, Y = (y) => y0 - h * y;
  el("rect", { x: x0, y: y0 - h, width: w, height: h, fill: "none", stroke: "#222" }, svg);
  for (const v of [0, 0.5, 1]) {
    el("line", { x1: X(v), y1: y0, x2: X(v), y2: y0 - h, stroke: "#ddd" }, svg);
    el("line", { x1: x0, y1: Y(v), x2: x0 + w, y2: Y(v), stroke: "#ddd" }, svg);
    el("text", { x: X(v), y: y0 + 14, "text-anchor": "middle", "font-size": 11 }, svg).textContent = v;
    el("text", { x: x0 - 6, y: Y(v) + 4, "text-anchor": "end", "font-size": 11 }, svg).textContent = v;
  }
  el("text", { x: x0 + w / 2, y: y0 + 32, "text-anchor": "middle", "font-size": 12 }, svg).textContent = xl;
  el("text", { x: 12, y: y0 - h / 2, "text-anchor": "middle", "font-size": 12, transform: "rotate(-90 12 " + (y0 - h / 2) + ")" }, svg).textContent = yl;
  if (diagonal) el("line", { x1: X(0), y1: Y(0), x2: X(1), y2: Y(1), stroke: "#999", "stroke-dasharray": "2 2" }, svg);
  const lines = family.classes.map((c, i) => [c, i, ""]).concat([[family.micro, 0, "micro"], [family.macro, 0, "macro"]]);
  for (const [c, i, avg] of lines) {
    const p = c.points.split(" ").map(Number);
    if (p.length < 4 || p.some(isNaN)) continue; // undefined: the figure's caption says so
    const pts = [];
    for (let j = 0; j < p.length; j += 2) pts.push(X(p[j]).toFixed(1) + "," + Y(p[j + 1]).toFixed(1));
    const a = Object.assign({ points: pts.join(" "), fill: "none", class: avg || "class" }, styleOf(i, family.classes.length, avg));
    el("polyline", a, svg);
  }
}
function area(x) { return x === null ? "–" : x.toFixed(3); }
function drawCurves() {
  const cells = JSON.parse(data.textContent), c = cells[+pick.value];
  plot($("#roc-svg"), c.roc, c.classes, "false positive rate", "true positive rate", true);
  plot($("#pr-svg"), c.pr, c.classes, "recall", "precision", false);
  const legend = $("#curve-legend");
  legend.replaceChildren();
  const item = (style, text) => {
    const li = document.createElement("li"), s = document.createElement("span");
    s.className = "swatch";
    s.style.borderTopColor = style.stroke;
    if (style["stroke-dasharray"]) s.style.borderTopStyle = style["stroke-dasharray"].startsWith("6") ? "dashed" : "dotted";
    li.append(s, text);
    legend.appendChild(li);
  };
  const k = c.classes.length;
  c.classes.forEach((name, i) => item(styleOf(i, k, ""), name + ": AUC " + area(c.roc.classes[i].area) + ", AP " + area(c.pr.classes[i].area)));
  item(styleOf(0, k, "micro"), "micro-average: AUC " + area(c.roc.micro.area) + ", AP " + area(c.pr.micro.area));
  item(styleOf(0, k, "macro"), "macro-average: AUC " + area(c.roc.macro.area) + ", AP " + area(c.pr.macro.area));
}
if (data && pick) {
  pick.addEventListener("change", drawCurves);
  drawCurves();
}
})();
`

// writeHTMLScript writes the script at the end of the body.
func writeHTMLScript(b *strings.Builder) {
	b.WriteString("<script>\n" + htmlScript + "</script>\n")
}

// curvePanelData is what the curve panel's script draws: each row ×
// dataset with views, its classes and its thinned curves.
type curvePanelData struct {
	Dataset string        `json:"dataset"`
	Row     string        `json:"row"`
	Classes []string      `json:"classes"`
	ROC     curves.Family `json:"roc"`
	PR      curves.Family `json:"pr"`
}

// writeHTMLCurvePanel writes the panel that draws the ROC and
// precision–recall curves of any row on any dataset (the script draws
// them as SVG from the curves embedded as JSON), when the script runs.
func writeHTMLCurvePanel(b *strings.Builder, t *Tables) error {
	var data []curvePanelData
	rows := tableRows(t)
	for _, v := range t.Views {
		if v.curves == nil {
			continue
		}
		data = append(data, curvePanelData{Dataset: v.Dataset, Row: rows[v.Row].Label, Classes: v.classes, ROC: v.curves.ROC, PR: v.curves.PR})
	}
	if len(data) == 0 {
		return nil
	}
	// encoding/json writes <, > and & as \u003c…: the JSON cannot end the
	// script element.
	j, err := json.Marshal(data)
	if err != nil {
		return fmt.Errorf("curve panel: %w", err)
	}
	b.WriteString("<div id=\"curve-panel\" class=\"js-only\">\n<h3>Curves of any row</h3>\n<label>Row and dataset <select id=\"curve-cell\">\n")
	for i, d := range data {
		fmt.Fprintf(b, "<option value=\"%d\">%s: %s</option>\n", i, htmlEscape(d.Dataset), htmlEscape(d.Row))
	}
	b.WriteString("</select></label>\n<div class=\"curve-plots\"><figure><svg id=\"roc-svg\" viewBox=\"0 0 360 340\" role=\"img\" aria-label=\"ROC curves\"></svg><figcaption>ROC, one class against the rest</figcaption></figure>" +
		"<figure><svg id=\"pr-svg\" viewBox=\"0 0 360 340\" role=\"img\" aria-label=\"precision–recall curves\"></svg><figcaption>precision–recall</figcaption></figure>" +
		"<ul id=\"curve-legend\"></ul></div>\n</div>\n<script type=\"application/json\" id=\"curve-data\">")
	b.Write(j)
	b.WriteString("</script>\n")
	return nil
}
