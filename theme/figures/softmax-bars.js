// softmax-bars: softmax in its two steps. Draggable scores (top) -> e^score (middle) -> each
// exponential's share of their total (bottom). Every score change is recomputed in the worker;
// until the answer comes, the lower rows are dimmed, since they still show the previous scores.
import { replaceKeepingFocus, scoreBars, scoreEditor, SCORE_MAX, valueRow } from "../js/bars.js";
import { fmt, html, onResize, setNumbers, svg } from "../js/svg.js";

// How an exponential is printed: two decimals while they fit under a bar, none past 1000.
const fmtExp = (v) => fmt(v, v >= 1000 ? 0 : 2);

export function mount(root, ctx) {
  let data = ctx.data;

  const plot = html("div", { class: "figure-plot" }, root);
  const total = html("p", { class: "softmax-bars-total", "aria-live": "polite" }, root);
  html("p", { class: "figure-hint" }, root,
    "Drag a score bar up or down, or focus it (Tab) and use the arrow keys; "
    + "the exponentials and the weights follow.");

  const edit = scoreEditor(ctx, {
    scores: data.scores,
    params: (scores) => ({ ...data.params, scores }),
    accept: (out) => { data = out; },
    current: () => data.scores,
    draw,
  });

  const bars = scoreBars(plot, (i, v) => edit.set(i, v));

  let width = 560;
  onResize(plot, (w) => { width = w; draw(); });

  function title(parent, y, parts) {
    // parts: pieces of text; a piece given as [text] is raised as an exponent.
    const t = svg("text", { x: 4, y, class: "axis-label row-title" }, parent);
    for (const part of parts) {
      const raised = Array.isArray(part);
      svg("tspan", raised ? { "baseline-shift": "super", "font-size": "8px" } : {}, t)
        .textContent = raised ? part[0] : part;
    }
  }

  function draw() {
    const n = data.labels.length;
    const pad = { l: 8, r: 8 };
    const innerW = Math.max(120, width - pad.l - pad.r);
    const band = innerW / n;
    const barW = Math.min(56, band * 0.6);
    const cx = (i) => pad.l + band * (i + 0.5);
    const rowGap = 56; // room for a row's title and the labels above its tallest bar
    const scoreTop = 28, scoreH = 100;
    const expTop = scoreTop + scoreH + rowGap, expH = 70;
    const weightTop = expTop + expH + rowGap, weightH = 70;
    const h = weightTop + weightH + 24;
    const scores = edit.scores;
    const maxAbs = Math.max(SCORE_MAX / 2, ...scores.map(Math.abs));
    const stale = edit.waiting ? " stale" : "";

    // role "group", not "img": the score bars inside are focusable sliders.
    const svgRoot = svg("svg", { width, height: h, viewBox: `0 0 ${width} ${h}`, role: "group",
      "aria-label": "Softmax step by step: scores, their exponentials, and the weights" });

    title(svgRoot, 12, ["1. Scores"]);
    const zeroY = scoreTop + scoreH / 2;
    svg("line", { x1: pad.l, x2: pad.l + innerW, y1: zeroY, y2: zeroY, class: "axis" }, svgRoot);
    bars.draw(svgRoot, { labels: data.labels, scores, cx, band, barW, top: scoreTop, height: scoreH, maxAbs,
      keyControl: "ArrowUp" });

    const exps = svg("g", { class: "softmax-bars-row" + stale }, svgRoot);
    title(exps, expTop - 28, ["2. Exponentials e", ["score"], ", total " + fmtExp(data.exp_sum)]);
    const expBase = valueRow(exps, { values: data.exps, cx, barW, top: expTop, height: expH,
      max: Math.max(...data.exps), cls: "data", label: fmtExp });
    svg("line", { x1: pad.l, x2: pad.l + innerW, y1: expBase, y2: expBase, class: "axis" }, exps);

    const weights = svg("g", { class: "softmax-bars-row" + stale }, svgRoot);
    title(weights, weightTop - 28, ["3. Weights: each exponential ÷ " + fmtExp(data.exp_sum)]);
    const weightBase = valueRow(weights, { values: data.weights, cx, barW, top: weightTop, height: weightH,
      max: 1, cls: "prediction" });
    svg("line", { x1: pad.l, x2: pad.l + innerW, y1: weightBase, y2: weightBase, class: "axis" }, weights);

    data.labels.forEach((word, i) => {
      svg("text", { x: cx(i), y: h - 8, class: "tick", "text-anchor": "middle" }, svgRoot).textContent = word;
    });
    replaceKeepingFocus(plot, svgRoot);

    total.textContent = edit.waiting ? "Recomputing…"
      : "Total of the exponentials: " + data.exps.map(fmtExp).join(" + ") + " = " + fmtExp(data.exp_sum)
        + ". Each weight is its exponential divided by this total, so the weights add up to 1.";
    total.classList.toggle("stale", edit.waiting);

    // One computation, whole: the scores the engine last worked on, with their results.
    setNumbers(ctx.numbers, [
      "Scores: " + data.labels.map((l, i) => l + " " + fmt(data.scores[i], 1)).join(", "),
      "Exponentials: " + data.labels.map((l, i) => l + " " + fmt(data.exps[i])).join(", ")
        + "; total " + fmt(data.exp_sum),
      "Weights: " + data.labels.map((l, i) => l + " " + fmt(data.weights[i])).join(", "),
    ]);
  }

  return {};
}
