// chain-rule: the curve y = e^(x²), its tangent at x, and the chain rule's product beside the
// central difference. The slider steps through data.xs (keyboard, mouse and touch, as any range
// input); every stop is precomputed by the model: stop i is state i of data.text.states. A press,
// tap or drag on the plot moves the point to where it is: at once to the nearest stop, then the
// worker computes the exact x (to the schema's step) and the grid comes back with that x as a stop
// of its own. The plot's lines are the model's text for the state (data.text.states[i].numbers).
import { latestOnly } from "../js/latest.js";
import { linear, ticks } from "../js/scale.js";
import { drag, html, nearestIndex, onResize, rangeControl, set, svg } from "../js/svg.js";
import { fill } from "../js/text.js";

const H = 230, PAD = { l: 34, r: 10, t: 10, b: 24 };

export function mount(root, ctx) {
  let data = ctx.data;
  let stop = ctx.opening(data.start);
  let waiting = false;
  const ask = latestOnly(ctx);

  const controls = html("div", { class: "figure-controls" }, root);
  const { input: slider, output } = rangeControl(controls, ctx.figure.id + "-x", "Where the tangent touches ",
    { "data-key-control": "ArrowRight" });
  slider.addEventListener("input", () => { stop = Number(slider.value); update(); });

  const plot = html("div", { class: "figure-plot" }, root);
  const s = svg("svg", { role: "img", class: "cr-plot" }, plot);
  let frame = svg("g", {}, s); // axes and ticks: redrawn for a new width
  const curve = svg("path", { class: "cr-curve" }, s);
  const tangent = svg("line", { class: "cr-tangent" }, s);
  const point = svg("circle", { class: "cr-point", r: 5 }, s);
  const area = svg("rect", { class: "hit" }, s); // on top: a press anywhere on the plot moves the point
  const lines = html("p", { class: "cr-lines", "aria-live": "polite" }, root);
  const lineEls = [0, 1, 2].map(() => html("span", {}, lines));
  html("p", { class: "figure-hint" }, root,
    "Move the slider, or press or drag on the plot: the engine recomputes the slope at the new point.");

  let sx = null, sy = null;
  onResize(plot, (w) => { layout(w); update(); });
  drag(area, s, (p) => moveTo(sx.invert(p.x)), () => askWanted(), { hold: false });

  function layout(width) {
    const box = data.box;
    sx = linear(box.x, [PAD.l, width - PAD.r]);
    sy = linear(box.y, [H - PAD.b, PAD.t]);
    set(s, { width, height: H, viewBox: `0 0 ${width} ${H}` });
    const f = svg("g");
    svg("line", { x1: sx(box.x[0]), x2: sx(box.x[1]), y1: sy(0), y2: sy(0), class: "axis" }, f);
    svg("line", { x1: sx(0), x2: sx(0), y1: sy(box.y[0]), y2: sy(box.y[1]), class: "axis" }, f);
    ticks(f, { xs: [-1, 1], ys: [5, 10], sx, sy });
    svg("text", { x: sx(box.x[1]) - 2, y: sy(0) - 6, class: "axis-label", "text-anchor": "end" }, f).textContent = "x";
    svg("text", { x: sx(0) + 6, y: sy(box.y[1]) + 10, class: "axis-label" }, f).textContent = "y = e^(x²)";
    frame.replaceWith(f);
    frame = f;
    set(area, { x: PAD.l, y: PAD.t, width: width - PAD.l - PAD.r, height: H - PAD.t - PAD.b });
    set(curve, { d: data.curve.x.map((x, i) => `${i ? "L" : "M"}${sx(x).toFixed(1)},${sy(data.curve.y[i]).toFixed(1)}`).join("") });
  }

  let wanted = null; // the x the reader pointed at, to the schema's step
  function moveTo(x) {
    const { lo, hi, step } = data.schema.x;
    wanted = Math.max(lo, Math.min(hi, Math.round(x / step) * step));
    stop = nearestIndex(data.xs, wanted); // at once, from the precomputed stops
    update();
  }

  async function askWanted() {
    if (wanted === null || Math.abs(data.xs[stop] - wanted) < 1e-9) return; // already a stop
    waiting = true;
    update();
    const answer = await ask({ ...data.params, x: wanted });
    if (!answer) return; // a newer request is on its way
    const { out } = answer;
    waiting = false;
    if (out) {
      data = out;
      stop = data.start;
    }
    update();
  }

  function update() {
    if (!sx) return;
    slider.max = data.xs.length - 1;
    slider.value = String(stop);
    const readout = fill(data.text.parts.x, { v: data.xs[stop] });
    slider.setAttribute("aria-valuetext", readout);
    output.textContent = readout + (waiting ? " (recomputing…)" : "");
    const [[x1, y1], [x2, y2]] = data.tangents[stop];
    set(tangent, { x1: sx(x1), y1: sy(y1), x2: sx(x2), y2: sy(y2) });
    set(point, { cx: sx(data.xs[stop]), cy: sy(data.y[stop]) });
    const numbers = data.text.states[stop].numbers;
    lineEls.forEach((el, k) => { el.textContent = numbers[k]; });
    lines.classList.toggle("stale", waiting);
    s.setAttribute("aria-label", data.text.legend + " " + numbers[0]);
    ctx.setText(data.text, stop);
  }

  return {};
}
