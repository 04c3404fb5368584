// scaling-experiment: mean largest softmax weight against width d, with and without dividing by √d.
// Choosing a width works on the embedded data; new keys per query or a new draw asks the worker.
// The chart is built once per width and updated in place; the readout and the key numbers are
// the model's text, the choices and the seed's range its schema.
import { linear, ticks } from "../js/scale.js";
import { html, nearestIndex, onResize, point, rangeControl, set, svg } from "../js/svg.js";

const SERIES = [["unscaled", "prediction"], ["scaled", "key"]]; // data key, colour class

export function mount(root, ctx) {
  let data = ctx.data;
  let index = ctx.opening(data.start);
  const schema = data.schema;

  const controls = html("div", { class: "figure-controls" }, root);
  const { input: slider, output: readout } = rangeControl(controls, ctx.figure.id + "-d", "Width d ",
    { "data-key-control": "ArrowLeft" });
  const plot = html("div", { class: "figure-plot" }, root);
  const live = html("div", { class: "figure-controls" }, root);
  const keysLabel = html("label", { for: ctx.figure.id + "-k" }, live, "Keys per query ");
  const keys = html("select", { id: ctx.figure.id + "-k" }, keysLabel);
  for (const k of schema.keys.choices) html("option", { value: k }, keys, String(k));
  const redraw = html("button", { type: "button" }, live, "Draw new random vectors");

  slider.addEventListener("input", () => { index = Number(slider.value); update(); });
  keys.addEventListener("change", () => recompute({ keys: Number(keys.value) }));
  redraw.addEventListener("click", () => {
    const { lo, hi } = schema.seed;
    recompute({ seed: data.params.seed >= hi ? lo : data.params.seed + 1 });
  });

  async function recompute(change) {
    live.setAttribute("aria-busy", "true");
    redraw.disabled = true;
    const out = await ctx.request({ ...data.params, ...change });
    redraw.disabled = false;
    live.removeAttribute("aria-busy");
    if (out) {
      const d = data.rows[index].d;
      data = out;
      index = Math.max(0, data.rows.findIndex((r) => r.d === d));
      ctx.markLive();
    }
    update();
  }

  let view = null;
  // Picking listens on the plot: a touch drag keeps going across every update.
  const pick = (e) => {
    if (!view) return;
    const best = nearestIndex(data.rows.map((r) => view.sx(r.d)), point(view.s, e).x);
    if (best !== index) { index = best; update(); }
  };
  plot.addEventListener("pointerdown", pick);
  plot.addEventListener("pointermove", (e) => { if (e.pointerType === "mouse" || e.buttons) pick(e); });

  onResize(plot, (w) => { build(w); update(); });

  /** The chart's frame and elements for this width: the one time its svg is replaced. */
  function build(width) {
    const rows = data.rows;
    const h = 260, pad = { l: 44, r: 12, t: 12, b: 40 };
    const innerW = Math.max(120, width - pad.l - pad.r), innerH = h - pad.t - pad.b;
    const sx0 = linear([Math.log2(rows[0].d), Math.log2(rows[rows.length - 1].d)], [pad.l, pad.l + innerW]);
    const sx = (d) => sx0(Math.log2(d));
    const sy = linear([0, 1], [pad.t + innerH, pad.t]);
    const s = svg("svg", { width, height: h, viewBox: `0 0 ${width} ${h}`, role: "img",
      "aria-label": "Mean largest weight against width, scaled and unscaled" });
    svg("line", { x1: pad.l, x2: pad.l + innerW, y1: sy(0), y2: sy(0), class: "axis" }, s);
    ticks(s, { ys: [0, 0.5, 1], sx, sy, x0: rows[0].d }); // weights run from 0 to 1
    const step = Math.ceil(rows.length / Math.max(2, Math.floor(innerW / 36)));
    rows.forEach((r, i) => {
      if (i % step === 0 || i === rows.length - 1) {
        svg("text", { x: sx(r.d), y: h - 22, class: "tick", "text-anchor": "middle" }, s).textContent = String(r.d);
      }
    });
    svg("text", { x: pad.l + innerW / 2, y: h - 4, class: "axis-label", "text-anchor": "middle" }, s).textContent = "width d";
    const uniform = svg("line", { x1: pad.l, x2: pad.l + innerW, class: "uniform" }, s);
    const guide = svg("line", { y1: pad.t, y2: sy(0), class: "guide" }, s);
    const series = SERIES.map(([key, cls]) => ({ key,
      line: svg("polyline", { class: "series " + cls }, s),
      dots: rows.map(() => svg("circle", { class: cls }, s)) }));
    const legend = svg("g", { class: "legend" }, s);
    svg("text", { x: pad.l + 8, y: pad.t + 12, class: "prediction-text" }, legend).textContent = "as is";
    svg("text", { x: pad.l + 8, y: pad.t + 30, class: "key-text" }, legend).textContent = "divided by √d"; // a line box (17 px) apart
    svg("rect", { x: pad.l, y: pad.t, width: innerW, height: innerH, class: "hit" }, s);
    plot.replaceChildren(s);
    view = { s, sx, sy, uniform, guide, series };
  }

  function update() {
    const { sx, sy, uniform, guide, series } = view;
    const rows = data.rows;
    const row = rows[index];
    keys.value = String(data.params.keys);
    slider.max = rows.length - 1;
    slider.value = index;
    slider.setAttribute("aria-valuetext", "d = " + row.d);
    readout.textContent = data.text.states[index].label;
    set(uniform, { y1: sy(data.uniform), y2: sy(data.uniform) });
    set(guide, { x1: sx(row.d), x2: sx(row.d) });
    for (const { key, line, dots } of series) {
      set(line, { points: rows.map((r) => `${sx(r.d)},${sy(r[key])}`).join(" ") });
      dots.forEach((dot, i) => set(dot, { cx: sx(rows[i].d), cy: sy(rows[i][key]), r: i === index ? 5 : 3 }));
    }
    ctx.setText(data.text, index);
  }

  return {};
}
