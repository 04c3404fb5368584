// softmax-temperature: scores (draggable, top) become weights (bottom) at the chosen temperature.
// The temperature slider walks the precomputed grid; changing a score asks the worker. The plot is
// built once and updated in place; the key numbers are the model's text for the state, and every
// other number (bar labels, the slider's readout and valuetext) is filled from its text.parts.
import { scoreBars, scoreEditor } from "../js/bars.js";
import { columnRow } from "../js/weights.js";
import { html, nearestIndex, onResize, rangeControl, set, svg } from "../js/svg.js";
import { fill } from "../js/text.js";

export function mount(root, ctx) {
  let data = ctx.data;
  let index = ctx.opening(data.start, data.temperatures.length); // a link may name another
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

  // Built once: the score bars and the weight columns are updated in place, even on a resize,
  // so a bar keeps focus and a drag keeps going. role "group": the score bars are focusable sliders.
  const s = svg("svg", { role: "group", "aria-label": "Scores and their softmax weights at the chosen temperature" }, plot);
  let frame = svg("g", {}, s); // axes and words: redrawn for a new width (nothing in it takes focus)
  const bars = scoreBars(svg("g", {}, s), { labels: data.labels, schema, part: data.text.parts.score,
    onChange: (i, v) => edit.set(i, v) });
  const weights = columnRow(svg("g", {}, s), data.labels.length, "prediction");
  let geo = null;
  onResize(plot, (w) => { layout(w); update(); });

  function layout(width) {
    const n = data.labels.length;
    const h = 300;
    const pad = { l: 44, r: 10, t: 14, b: 30 };
    const innerW = Math.max(120, width - pad.l - pad.r);
    const band = innerW / n;
    geo = { band, barW: Math.min(56, band * 0.6), cx: (i) => pad.l + band * (i + 0.5),
      scoreTop: pad.t, scoreH: 100, weightTop: pad.t + 140, weightH: h - pad.t - 140 - pad.b };
    set(s, { width, height: h, viewBox: `0 0 ${width} ${h}` });
    const f = svg("g");
    svg("text", { x: 4, y: geo.scoreTop + 10, class: "axis-label" }, f).textContent = "score";
    svg("text", { x: 4, y: geo.weightTop + 10, class: "axis-label" }, f).textContent = "weight";
    const zeroY = geo.scoreTop + geo.scoreH / 2, base = geo.weightTop + geo.weightH;
    svg("line", { x1: pad.l, x2: pad.l + innerW, y1: zeroY, y2: zeroY, class: "axis" }, f);
    svg("line", { x1: pad.l, x2: pad.l + innerW, y1: base, y2: base, class: "axis" }, f);
    data.labels.forEach((word, i) => {
      svg("text", { x: geo.cx(i), y: h - 10, class: "tick", "text-anchor": "middle" }, f).textContent = word;
    });
    frame.replaceWith(f);
    frame = f;
  }

  function update() {
    slider.max = data.temperatures.length - 1;
    slider.value = index;
    const parts = data.text.parts;
    slider.setAttribute("aria-valuetext", fill(parts.temperature, { v: temperature() }));
    readout.textContent = fill(parts.readout, { v: temperature() }) + (edit.waiting ? " (recomputing…)" : "");
    const maxAbs = Math.max(schema.hi / 2, ...edit.scores.map(Math.abs));
    bars({ scores: edit.scores, ...geo, top: geo.scoreTop, height: geo.scoreH, maxAbs });
    const w = data.weights[index];
    weights({ values: w, labels: w.map((v) => fill(parts.weight, { v })), ...geo, top: geo.weightTop,
      height: geo.weightH, max: 1 });
    ctx.setText(data.text, index);
  }

  return {};
}
