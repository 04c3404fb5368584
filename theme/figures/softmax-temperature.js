// softmax-temperature: scores (draggable, top) become weights (bottom) at the chosen temperature.
// The temperature slider walks the precomputed grid; changing a score asks the worker.
import { replaceKeepingFocus, scoreBars, scoreEditor, SCORE_MAX, valueRow } from "../js/bars.js";
import { fmt, html, nearestIndex, onResize, rangeControl, setNumbers, svg } from "../js/svg.js";

export function mount(root, ctx) {
  let data = ctx.data;
  let index = data.start;

  const controls = html("div", { class: "figure-controls" }, root);
  const { input: slider, output: readout } = rangeControl(controls, ctx.figure.id + "-t", "Temperature ",
    { "data-key-control": "ArrowRight" });
  const plot = html("div", { class: "figure-plot" }, root);
  html("p", { class: "figure-hint" }, root,
    "Drag a score bar up or down, or focus it and use the arrow keys, to change that word's score.");

  slider.addEventListener("input", () => { index = Number(slider.value); draw(); });

  function temperature() { return data.temperatures[index]; }

  let asked = temperature(); // the temperature of the pending score request
  const edit = scoreEditor(ctx, {
    scores: data.scores,
    params: (scores) => { asked = temperature(); return { ...data.params, scores, temperature: asked }; },
    accept: (out) => { data = out; index = nearestIndex(data.temperatures, asked); },
    current: () => data.scores,
    draw,
  });

  const bars = scoreBars(plot, (i, v) => edit.set(i, v));

  let width = 560;
  onResize(plot, (w) => { width = w; draw(); });

  function draw() {
    const n = data.labels.length;
    const h = 300;
    const pad = { l: 44, r: 10, t: 14, b: 30 };
    const innerW = Math.max(120, width - pad.l - pad.r);
    const band = innerW / n;
    const barW = Math.min(56, band * 0.6);
    const scoreTop = pad.t, scoreH = 100;
    const weightTop = scoreTop + scoreH + 40, weightH = h - weightTop - pad.b;
    const weights = data.weights[index];
    const scores = edit.scores;
    const maxAbs = Math.max(SCORE_MAX / 2, ...scores.map(Math.abs));
    const cx = (i) => pad.l + band * (i + 0.5);

    slider.max = data.temperatures.length - 1;
    slider.value = index;
    slider.setAttribute("aria-valuetext", "temperature " + fmt(temperature()));
    readout.textContent = "T = " + fmt(temperature()) + (edit.waiting ? " (recomputing…)" : "");

    // role "group", not "img": the score bars inside are focusable sliders.
    const root = svg("svg", { width, height: h, viewBox: `0 0 ${width} ${h}`, role: "group",
      "aria-label": "Scores and softmax weights at temperature " + fmt(temperature()) });
    svg("text", { x: 4, y: scoreTop + 10, class: "axis-label" }, root).textContent = "score";
    svg("text", { x: 4, y: weightTop + 10, class: "axis-label" }, root).textContent = "weight";
    const zeroY = scoreTop + scoreH / 2;
    svg("line", { x1: pad.l, x2: pad.l + innerW, y1: zeroY, y2: zeroY, class: "axis" }, root);
    svg("line", { x1: pad.l, x2: pad.l + innerW, y1: weightTop + weightH, y2: weightTop + weightH, class: "axis" }, root);

    bars.draw(root, { labels: data.labels, scores, cx, band, barW, top: scoreTop, height: scoreH, maxAbs });
    valueRow(root, { values: weights, cx, barW, top: weightTop, height: weightH, max: 1, cls: "prediction" });
    data.labels.forEach((word, i) => {
      svg("text", { x: cx(i), y: h - 10, class: "tick", "text-anchor": "middle" }, root).textContent = word;
    });
    replaceKeepingFocus(plot, root);

    setNumbers(ctx.numbers, [
      "Scores: " + data.labels.map((l, i) => l + " " + fmt(scores[i], 1)).join(", "),
      "Temperature " + fmt(temperature()) + ": " + data.labels.map((l, i) => l + " " + fmt(weights[i])).join(", "),
    ]);
  }

  return {};
}

