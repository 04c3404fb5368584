// dot-product: two arrows from the origin; their dot product as a sum of products and as |a| |b| cos θ.
// Tips stop on whole-number grid points; the model has every pair's readouts and the text
// templates for them (data.text.templates), so the view only looks up and fills in.
// Every element is made once; a resize re-places them and a move updates them in place.
import { arrowHead } from "../js/arrows.js";
import { gridKeys } from "../js/keys.js";
import { linear, planeGrid, ticks } from "../js/scale.js";
import { fill, scopeAt } from "../js/text.js";
import { drag, html, onResize, set, svg, WIDE } from "../js/svg.js";

const ARROWS = [
  { name: "a", cls: "arrow-a", label: "orange arrow a" },
  { name: "b", cls: "arrow-b", label: "blue arrow b" },
];

export function mount(root, ctx) {
  const data = ctx.data;
  const E = data.extent;
  const at = new Map(data.points.map(([x, y], i) => [x + "," + y, i]));
  const P = data.points.length;
  const opened = ctx.opening(data.start[0] * P + data.start[1], P * P); // state a * P + b; a link may name another
  const tips = [Math.floor(opened / P), opened % P]; // grid indices of a's tip and b's tip

  const layout = html("div", { class: "dot-layout" }, root);
  const plot = html("div", { class: "figure-plot" }, layout);
  const readout = html("div", { class: "dot-readout", "aria-live": "polite" }, layout);
  const lines = [html("p", { class: "dot-vectors" }, readout), html("p", {}, readout), html("p", {}, readout)];
  const verdict = html("p", { class: "dot-verdict" }, readout);
  html("p", { class: "figure-hint" }, root,
    "Drag either arrow's tip, or focus a tip and use the arrow keys to move it one step.");

  // The plane is drawn at its widest size (MAX px) and scaled to the screen by its viewBox, so a
  // resize only changes the svg's size, and its text's size, which the scaling must not shrink.
  const MAX = 360;
  const UNIT = (MAX - 24) / (2 * E + 1);
  const size = MAX;
  const c = size / 2;
  const px = linear([0, 1], [c, c + UNIT]), py = linear([0, 1], [c, c - UNIT]);
  const s = svg("svg", { viewBox: `0 0 ${size} ${size}`, role: "group",
    "aria-label": "Two arrows from the origin with movable tips" }, plot);
  planeGrid(s, px, py, { lo: -E, hi: E, from: -E - 0.5, to: E + 0.5 });
  const whole = [];
  for (let v = -E; v <= E; v++) if (v) whole.push(v);
  ticks(s, { xs: whole, ys: whole, sx: px, sy: py });
  svg("circle", { cx: c, cy: c, r: 3, class: "origin" }, s);
  const parts = ARROWS.map((a, k) => {
    const head = arrowHead(s, `${ctx.figure.id}-${a.name}-head`, a.cls + " head", { refX: 13, size: 7 });
    const line = svg("line", { x1: c, y1: c, class: "shaft " + a.cls, "marker-end": head }, s);
    const tip = svg("g", { class: "tip " + a.cls, tabindex: 0, role: "slider", "aria-label": "Tip of the " + a.label,
      "aria-valuemin": -E, "aria-valuemax": E }, s);
    if (a.name === "b") tip.setAttribute("data-key-control", "ArrowRight");
    svg("circle", { r: 18, class: "tip-hit" }, tip);
    svg("circle", { r: 6, class: "tip-dot" }, tip);
    const name = svg("text", { class: "tip-name " + a.cls }, s);
    name.textContent = a.name;
    const clamp = (v) => Math.max(-E, Math.min(E, Math.round(v)));
    drag(tip, s, (p) => setTip(k, clamp(px.invert(p.x)), clamp(py.invert(p.y))));
    gridKeys(tip, (dx, dy) => {
      let [x, y] = data.points[tips[k]];
      x += dx; y += dy;
      if (x === 0 && y === 0) { x += dx; y += dy; } // hop over the origin
      setTip(k, x, y);
    });
    return { line, tip, name };
  });

  function setTip(k, x, y) {
    const i = at.get(x + "," + y);
    if (i === undefined || i === tips[k]) return; // off the grid or the origin: stay put
    tips[k] = i;
    update();
  }

  onResize(layout, (width) => {
    const beside = width >= WIDE;
    const shown = Math.min(beside ? width - 240 : width, MAX);
    set(s, { width: shown, height: shown });
    s.style.setProperty("--unscale", String(MAX / shown)); // its text stays at its size on screen (dot-product.css)
    layout.classList.toggle("stacked", !beside);
  }); // the layout, not the plot: the plot shrinks to its drawing

  /** The values the model's templates name, for the pair of tips on screen. */
  function update() {
    tips.forEach((t, k) => {
      const [x, y] = data.points[t];
      const { line, tip, name } = parts[k];
      set(line, { x2: px(x), y2: py(y) });
      set(tip, { transform: `translate(${px(x)} ${py(y)})`, "aria-valuenow": x, "aria-valuetext": `(${x}, ${y})` });
      set(name, { x: px(x) + (x >= 0 ? 10 : -18), y: py(y) + (y >= 0 ? -8 : 16) });
    });
    const state = tips[0] * P + tips[1];
    const values = scopeAt(data.text.scope, data, state);
    const text = { numbers: data.text.templates.map((t) => fill(t, values)) };
    text.numbers.forEach((t, k) => { lines[k].textContent = t; });
    verdict.textContent = "The dot product is " + (values.dot > 0 ? "positive: the arrows point roughly the same way"
      : values.dot < 0 ? "negative: the arrows point apart" : "zero: the arrows are at right angles") + ".";
    ctx.setText(text, state);
  }

  update();
  return {};
}
