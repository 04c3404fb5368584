// softmax-bars: softmax in its two steps. Draggable scores (top) -> e^score (middle) -> each
// exponential's share of their total (bottom). Every score change is recomputed in the worker;
// until the answer comes, the lower rows are dimmed, since they still show the previous scores.
// The plot is built once per width and updated in place; the exponentials' labels, their total
// and the sentence under the plot are the model's text (data.text.exps, exp_sum, total).
import { scoreBars, scoreEditor } from "../js/bars.js";
import { columnRow } from "../js/weights.js";
import { fmt, html, onResize, svg } from "../js/svg.js";

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

  let view = null;
  onResize(plot, (w) => { build(w); update(); });

  function title(parent, y, parts) {
    // parts: pieces of text; a piece given as [text] is raised as an exponent. Returns the last tspan.
    const t = svg("text", { x: 4, y, class: "axis-label row-title" }, parent);
    let last = null;
    for (const part of parts) {
      const raised = Array.isArray(part);
      last = svg("tspan", raised ? { "baseline-shift": "super", "font-size": "8px" } : {}, t);
      last.textContent = raised ? part[0] : part;
    }
    return last;
  }

  function build(width) {
    const n = data.labels.length;
    const pad = { l: 8, r: 8 };
    const innerW = Math.max(120, width - pad.l - pad.r);
    const band = innerW / n;
    const geo = { band, barW: Math.min(56, band * 0.6), cx: (i) => pad.l + band * (i + 0.5) };
    const rowGap = 56; // room for a row's title and the labels above its tallest bar
    const scoreTop = 28, scoreH = 100;
    const expTop = scoreTop + scoreH + rowGap, expH = 70;
    const weightTop = expTop + expH + rowGap, weightH = 70;
    const h = weightTop + weightH + 24;
    const line = (parent, y) => svg("line", { x1: pad.l, x2: pad.l + innerW, y1: y, y2: y, class: "axis" }, parent);

    // role "group", not "img": the score bars inside are focusable sliders.
    const s = svg("svg", { width, height: h, viewBox: `0 0 ${width} ${h}`, role: "group",
      "aria-label": "Softmax step by step: scores, their exponentials, and the weights" });
    title(s, 12, ["1. Scores"]);
    line(s, scoreTop + scoreH / 2);
    const bars = scoreBars(s, { labels: data.labels, schema, onChange: (i, v) => edit.set(i, v), keyControl: "ArrowUp" });

    const expG = svg("g", { class: "softmax-bars-row" }, s);
    const expTotal = title(expG, expTop - 28, ["2. Exponentials e", ["score"], ", total "]);
    const expTotalText = svg("tspan", {}, expTotal.parentNode);
    const exps = columnRow(expG, n, "data");
    line(expG, expTop + expH);

    const weightG = svg("g", { class: "softmax-bars-row" }, s);
    const weightTitle = title(weightG, weightTop - 28, ["3. Weights: each exponential ÷ "]);
    const weights = columnRow(weightG, n, "prediction");
    line(weightG, weightTop + weightH);

    data.labels.forEach((word, i) => {
      svg("text", { x: geo.cx(i), y: h - 8, class: "tick", "text-anchor": "middle" }, s).textContent = word;
    });
    plot.replaceChildren(s); // a new width: the one time the drawing is replaced
    view = { bars, exps, weights, expG, weightG, expTotalText, weightTitle, geo, scoreTop, scoreH, expTop, expH,
      weightTop, weightH };
  }

  function update() {
    const v = view;
    const text = data.text;
    const maxAbs = Math.max(schema.hi / 2, ...edit.scores.map(Math.abs));
    v.bars({ scores: edit.scores, ...v.geo, top: v.scoreTop, height: v.scoreH, maxAbs });
    v.exps({ values: data.exps, labels: text.exps, ...v.geo, top: v.expTop, height: v.expH,
      max: Math.max(...data.exps) });
    v.weights({ values: data.weights, labels: data.weights.map((w) => fmt(w)), ...v.geo, top: v.weightTop,
      height: v.weightH, max: 1 });
    v.expTotalText.textContent = text.exp_sum;
    v.weightTitle.textContent = "3. Weights: each exponential ÷ " + text.exp_sum;
    for (const g of [v.expG, v.weightG]) g.classList.toggle("stale", edit.waiting);
    total.textContent = edit.waiting ? "Recomputing…" : text.total;
    total.classList.toggle("stale", edit.waiting);
    // One computation, whole: the model's text for the scores it last worked on.
    ctx.setText(text);
  }

  return {};
}
