// scaling-experiment: mean largest softmax weight against width d, with and without dividing by √d.
// Choosing a width works on the embedded data; new keys per query or a new draw asks the worker.
import { fmt, html, nearestIndex, onResize, point, rangeControl, setNumbers, svg } from "../js/svg.js";

const KEY_CHOICES = [2, 4, 8, 16, 32];

export function mount(root, ctx) {
  let data = ctx.data;
  let index = data.rows.findIndex((r) => r.d === 512);
  if (index < 0) index = data.rows.length - 1;

  const controls = html("div", { class: "figure-controls" }, root);
  const { input: slider, output: readout } = rangeControl(controls, ctx.figure.id + "-d", "Width d ",
    { "data-key-control": "ArrowLeft" });
  const plot = html("div", { class: "figure-plot" }, root);
  const live = html("div", { class: "figure-controls" }, root);
  const keysLabel = html("label", { for: ctx.figure.id + "-k" }, live, "Keys per query ");
  const keys = html("select", { id: ctx.figure.id + "-k" }, keysLabel);
  for (const k of KEY_CHOICES) html("option", { value: k }, keys, String(k));
  const redraw = html("button", { type: "button" }, live, "Draw new random vectors");

  slider.addEventListener("input", () => { index = Number(slider.value); draw(); });
  keys.addEventListener("change", () => recompute({ keys: Number(keys.value) }));
  redraw.addEventListener("click", () => recompute({ seed: (data.params.seed + 1) % 2 ** 31 }));

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
    draw();
  }

  // Picking listens on the plot, which outlives every redraw: a touch drag keeps going.
  let xs = [];
  const pick = (e) => {
    const root = plot.querySelector("svg");
    if (!root || !xs.length) return;
    const best = nearestIndex(xs, point(root, e).x);
    if (best !== index) { index = best; draw(); }
  };
  plot.addEventListener("pointerdown", pick);
  plot.addEventListener("pointermove", (e) => { if (e.pointerType === "mouse" || e.buttons) pick(e); });

  let width = 560;
  onResize(plot, (w) => { width = w; draw(); });

  function draw() {
    const rows = data.rows;
    const row = rows[index];
    keys.value = String(data.params.keys);
    slider.max = rows.length - 1;
    slider.value = index;
    slider.setAttribute("aria-valuetext", "d = " + row.d);
    readout.textContent = `d = ${row.d}: largest weight ${fmt(row.unscaled)} as is, ${fmt(row.scaled)} divided by √d`;

    const h = 260, pad = { l: 44, r: 12, t: 12, b: 40 };
    const innerW = Math.max(120, width - pad.l - pad.r), innerH = h - pad.t - pad.b;
    const lo = Math.log2(rows[0].d), hi = Math.log2(rows[rows.length - 1].d) || 1;
    const sx = (d) => pad.l + (hi === lo ? innerW / 2 : ((Math.log2(d) - lo) / (hi - lo)) * innerW);
    const sy = (v) => pad.t + innerH * (1 - v);
    const root = svg("svg", { width, height: h, viewBox: `0 0 ${width} ${h}`, role: "img",
      "aria-label": "Mean largest weight against width, scaled and unscaled" });
    svg("line", { x1: pad.l, x2: pad.l + innerW, y1: sy(0), y2: sy(0), class: "axis" }, root);
    for (const v of [0, 0.5, 1]) {
      svg("text", { x: pad.l - 6, y: sy(v) + 4, class: "tick", "text-anchor": "end" }, root).textContent = String(v);
    }
    const step = Math.ceil(rows.length / Math.max(2, Math.floor(innerW / 36)));
    rows.forEach((r, i) => {
      if (i % step === 0 || i === rows.length - 1) {
        svg("text", { x: sx(r.d), y: h - 22, class: "tick", "text-anchor": "middle" }, root).textContent = String(r.d);
      }
    });
    svg("text", { x: pad.l + innerW / 2, y: h - 4, class: "axis-label", "text-anchor": "middle" }, root).textContent = "width d";
    svg("line", { x1: pad.l, x2: pad.l + innerW, y1: sy(data.uniform), y2: sy(data.uniform), class: "uniform" }, root);
    svg("line", { x1: sx(row.d), x2: sx(row.d), y1: pad.t, y2: sy(0), class: "guide" }, root);
    for (const [key, cls] of [["unscaled", "prediction"], ["scaled", "key"]]) {
      svg("polyline", { points: rows.map((r) => `${sx(r.d)},${sy(r[key])}`).join(" "), class: "series " + cls }, root);
      rows.forEach((r, i) => svg("circle", { cx: sx(r.d), cy: sy(r[key]), r: i === index ? 5 : 3, class: cls }, root));
    }
    const legend = svg("g", { class: "legend" }, root);
    svg("text", { x: pad.l + 8, y: pad.t + 12, class: "prediction-text" }, legend).textContent = "as is";
    svg("text", { x: pad.l + 8, y: pad.t + 28, class: "key-text" }, legend).textContent = "divided by √d";
    svg("rect", { x: pad.l, y: pad.t, width: innerW, height: innerH, class: "hit" }, root);
    xs = rows.map((r) => sx(r.d));
    plot.replaceChildren(root);

    setNumbers(ctx.numbers, rows.map((r) => `d = ${r.d}: ${fmt(r.unscaled)} unscaled, ${fmt(r.scaled)} scaled`));
  }

  return {};
}
