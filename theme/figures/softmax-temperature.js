// softmax-temperature: scores (draggable, top) become weights (bottom) at the chosen temperature.
// The temperature slider walks the precomputed grid; changing a score asks the worker. The plot is
// built once per width and updated in place; the key numbers are the model's text for the state.
import { scoreBars, scoreEditor } from "../js/bars.js";
import { columnRow } from "../js/weights.js";
import { fmt, html, nearestIndex, onResize, rangeControl, set, svg } from "../js/svg.js";

export function mount(root, ctx) {
  let data = ctx.data;
  let index = data.start;
  const schema = data.schema.scores;

  const controls = html("div", { class: "figure-controls" }, root);
  const { input: slider, output: readout } = rangeControl(controls, ctx.figure.id + "-t", "Temperature ",
    { "data-key-control": "ArrowRight" });
  const plot = html("div", { class: "figure-plot" }, root);
  html("p", { class: "figure-hint" }, root,
    "Drag a score bar up or down, or focus it and use the arrow keys, to change that word's score.");

  slider.addEventListener("input", () => { index = Number(slider.value); update(); });

  function temperature() { return data.temperatures[index]; }

  let asked = temperature(); // the temperature of the pending score request
  const edit = scoreEditor(ctx, {
    schema,
    scores: data.scores,
    params: (scores) => { asked = temperature(); return { ...data.params, scores, temperature: asked }; },
    accept: (out) => { data = out; index = nearestIndex(data.temperatures, asked); },
    current: () => data.scores,
    draw: () => update(),
  });

  let view = null;
  onResize(plot, (w) => { build(w); update(); });

  function build(width) {
    const n = data.labels.length;
    const h = 300;
    const pad = { l: 44, r: 10, t: 14, b: 30 };
    const innerW = Math.max(120, width - pad.l - pad.r);
    const band = innerW / n;
    const geo = { band, barW: Math.min(56, band * 0.6), cx: (i) => pad.l + band * (i + 0.5) };
    const scoreTop = pad.t, scoreH = 100;
    const weightTop = scoreTop + scoreH + 40, weightH = h - weightTop - pad.b;

    // role "group", not "img": the score bars inside are focusable sliders.
    const s = svg("svg", { width, height: h, viewBox: `0 0 ${width} ${h}`, role: "group" });
    svg("text", { x: 4, y: scoreTop + 10, class: "axis-label" }, s).textContent = "score";
    svg("text", { x: 4, y: weightTop + 10, class: "axis-label" }, s).textContent = "weight";
    const zeroY = scoreTop + scoreH / 2;
    svg("line", { x1: pad.l, x2: pad.l + innerW, y1: zeroY, y2: zeroY, class: "axis" }, s);
    svg("line", { x1: pad.l, x2: pad.l + innerW, y1: weightTop + weightH, y2: weightTop + weightH, class: "axis" }, s);
    const bars = scoreBars(s, { labels: data.labels, schema, onChange: (i, v) => edit.set(i, v) });
    const weights = columnRow(s, n, "prediction");
    data.labels.forEach((word, i) => {
      svg("text", { x: geo.cx(i), y: h - 10, class: "tick", "text-anchor": "middle" }, s).textContent = word;
    });
    plot.replaceChildren(s); // a new width: the one time the drawing is replaced
    view = { s, bars, weights, geo, scoreTop, scoreH, weightTop, weightH };
  }

  function update() {
    const { s, bars, weights, geo, scoreTop, scoreH, weightTop, weightH } = view;
    const text = data.text.states[index];
    slider.max = data.temperatures.length - 1;
    slider.value = index;
    slider.setAttribute("aria-valuetext", "temperature " + fmt(temperature()));
    readout.textContent = "T = " + fmt(temperature()) + (edit.waiting ? " (recomputing…)" : "");
    set(s, { "aria-label": text.label ?? "Scores and softmax weights at temperature " + fmt(temperature()) });
    const maxAbs = Math.max(schema.hi / 2, ...edit.scores.map(Math.abs));
    bars({ scores: edit.scores, ...geo, top: scoreTop, height: scoreH, maxAbs });
    const w = data.weights[index];
    weights({ values: w, labels: w.map((v) => fmt(v)), ...geo, top: weightTop, height: weightH, max: 1 });
    ctx.setText(data.text, index);
  }

  return {};
}
