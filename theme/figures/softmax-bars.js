// softmax-bars: softmax in its two steps. Draggable scores (top) -> e^score (middle) -> each
// exponential's share of their total (bottom). Every score change is recomputed in the worker;
// until the answer comes, the lower rows are dimmed, since they still show the previous scores.
// The plot is built once and updated in place; the exponentials' labels, their total
// and the sentence under the plot are the model's text (data.text.exps, exp_sum, total); the
// scores' and the weights' labels are filled from its parts (data.text.parts.score, weight).
import { scoreBars, scoreEditor } from "../js/bars.js";
import { columnRow } from "../js/weights.js";
import { html, onResize, set, svg } from "../js/svg.js";
import { fill } from "../js/text.js";

export function mount(root, ctx) {
  let data = ctx.data;
  const schema = data.schema.scores;

  const plot = html("div", { class: "figure-plot" }, root);
  const total = html("p", { class: "softmax-bars-total", "aria-live": "polite" }, root);
  html("p", { class: "figure-hint" }, root,
    "Drag a score bar up or down, or focus it (Tab) and use the arrow keys; "
    + "the exponentials and the weights follow.");

  const edit = scoreEditor(ctx, {
    schema,
    scores: data.scores,
    params: (scores) => ({ ...data.params, scores }),
    accept: (out) => { data = out; },
    current: () => data.scores,
    draw: () => update(),
  });

  // Built once and updated in place, even on a resize (only x positions follow the width), so a
  // score bar keeps focus and a drag keeps going. Rows stack at fixed heights.
  const rowGap = 56; // room for a row's title and the labels above its tallest bar
  const rows = { scoreTop: 28, scoreH: 100, expH: 70, weightH: 70 };
  rows.expTop = rows.scoreTop + rows.scoreH + rowGap;
  rows.weightTop = rows.expTop + rows.expH + rowGap;
  const h = rows.weightTop + rows.weightH + 24;
  const n = data.labels.length;

  function title(parent, y, parts) {
    // parts: pieces of text; a piece given as [text] is raised as an exponent. Returns a tspan
    // after the last piece, for the part of the title that changes.
    const t = svg("text", { x: 4, y, class: "axis-label row-title" }, parent);
    for (const part of parts) {
      const raised = Array.isArray(part);
      svg("tspan", raised ? { "baseline-shift": "super", "font-size": "8px" } : {}, t)
        .textContent = raised ? part[0] : part;
    }
    return svg("tspan", {}, t);
  }

  // role "group", not "img": the score bars inside are focusable sliders.
  const s = svg("svg", { height: h, role: "group",
    "aria-label": "Softmax step by step: scores, their exponentials, and the weights" }, plot);
  title(s, 12, ["1. Scores"]);
  const axes = [svg("line", { class: "axis" }, s)];
  const bars = scoreBars(s, { labels: data.labels, schema, part: data.text.parts.score,
    onChange: (i, v) => edit.set(i, v), keyControl: "ArrowUp" });
  const expG = svg("g", { class: "softmax-bars-row" }, s);
  const expTotal = title(expG, rows.expTop - 28, ["2. Exponentials e", ["score"], ", total "]);
  const exps = columnRow(expG, n, "data");
  axes.push(svg("line", { class: "axis" }, expG));
  const weightG = svg("g", { class: "softmax-bars-row" }, s);
  const weightTotal = title(weightG, rows.weightTop - 28, ["3. Weights: each exponential ÷ "]);
  const weights = columnRow(weightG, n, "prediction");
  axes.push(svg("line", { class: "axis" }, weightG));
  const words = data.labels.map((word) => {
    const t = svg("text", { y: h - 8, class: "tick", "text-anchor": "middle" }, s);
    t.textContent = word;
    return t;
  });

  let geo = null;
  onResize(plot, (w) => { layout(w); update(); });

  /** Put what depends on the width where it belongs. */
  function layout(width) {
    const pad = { l: 8, r: 8 };
    const innerW = Math.max(120, width - pad.l - pad.r);
    const band = innerW / n;
    geo = { band, barW: Math.min(56, band * 0.6), cx: (i) => pad.l + band * (i + 0.5) };
    set(s, { width, viewBox: `0 0 ${width} ${h}` });
    const ys = [rows.scoreTop + rows.scoreH / 2, rows.expTop + rows.expH, rows.weightTop + rows.weightH];
    axes.forEach((line, k) => set(line, { x1: pad.l, x2: pad.l + innerW, y1: ys[k], y2: ys[k] }));
    words.forEach((t, i) => set(t, { x: geo.cx(i) }));
  }

  function update() {
    const text = data.text;
    const maxAbs = Math.max(schema.hi / 2, ...edit.scores.map(Math.abs));
    bars({ scores: edit.scores, ...geo, top: rows.scoreTop, height: rows.scoreH, maxAbs });
    exps({ values: data.exps, labels: text.exps, ...geo, top: rows.expTop, height: rows.expH,
      max: Math.max(...data.exps) });
    weights({ values: data.weights, labels: data.weights.map((w) => fill(text.parts.weight, { v: w })), ...geo,
      top: rows.weightTop, height: rows.weightH, max: 1 });
    expTotal.textContent = text.exp_sum;
    weightTotal.textContent = text.exp_sum;
    for (const g of [expG, weightG]) g.classList.toggle("stale", edit.waiting);
    total.textContent = edit.waiting ? "Recomputing…" : text.total;
    total.classList.toggle("stale", edit.waiting);
    // One computation, whole: the model's text for the scores it last worked on.
    ctx.setText(text);
  }

  return {};
}
