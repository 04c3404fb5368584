// dot-product: two arrows from the origin; their dot product as a sum of products and as |a| |b| cos θ.
// Tips stop on whole-number grid points; the model has every pair's readouts, so the view only looks up.
import { drag, fmt, html, onResize, setNumbers, svg } from "../js/svg.js";

const ARROWS = [
  { name: "a", cls: "arrow-a", label: "orange arrow a" },
  { name: "b", cls: "arrow-b", label: "blue arrow b" },
];
const STEPS = { ArrowRight: [1, 0], ArrowLeft: [-1, 0], ArrowUp: [0, 1], ArrowDown: [0, -1] };

export function mount(root, ctx) {
  const data = ctx.data;
  const E = data.extent;
  const at = new Map(data.points.map(([x, y], i) => [x + "," + y, i]));
  const tips = [...data.start]; // grid indices of a's tip and b's tip

  const layout = html("div", { class: "dot-layout" }, root);
  const plot = html("div", { class: "figure-plot" }, layout);
  const readout = html("div", { class: "dot-readout", "aria-live": "polite" }, layout);
  html("p", { class: "figure-hint" }, root,
    "Drag either arrow's tip, or focus a tip and use the arrow keys to move it one step.");

  let view = null;
  let width = 560;
  onResize(layout, (w) => { width = w; build(); }); // the layout, not the plot: the plot shrinks to its drawing

  function state() {
    const [i, j] = tips;
    return { a: data.points[i], b: data.points[j], la: data.length[i], lb: data.length[j],
      dot: data.dot[i][j], geometric: data.geometric[i][j], angle: data.angle[i][j], cos: data.cos[i][j] };
  }

  function lines(s) {
    const [[a1, a2], [b1, b2]] = [s.a, s.b];
    return [
      `a = (${a1}, ${a2}), b = (${b1}, ${b2}), angle ${fmt(s.angle, 1)}°`,
      `Sum of products: (${a1})(${b1}) + (${a2})(${b2}) = ${s.dot}`,
      `|a| |b| cos θ: ${fmt(s.la)} × ${fmt(s.lb)} × cos ${fmt(s.angle, 1)}° = ${fmt(s.la)} × ${fmt(s.lb)} × ${fmt(s.cos, 3)} = ${fmt(s.geometric)}`,
    ];
  }

  function setTip(k, x, y) {
    const i = at.get(x + "," + y);
    if (i === undefined || i === tips[k]) return; // off the grid or the origin: stay put
    tips[k] = i;
    update();
  }

  function build() {
    const beside = width >= 560;
    const size = Math.min(beside ? width - 240 : width, 360);
    const unit = (size - 24) / (2 * E + 1);
    const c = size / 2;
    const px = (x) => c + x * unit, py = (y) => c - y * unit;
    const rootSvg = svg("svg", { width: size, height: size, viewBox: `0 0 ${size} ${size}`, role: "group",
      "aria-label": "Two arrows from the origin with movable tips" });
    const defs = svg("defs", {}, rootSvg);
    for (const a of ARROWS) {
      const m = svg("marker", { id: `${ctx.figure.id}-${a.name}-head`, viewBox: "0 0 10 10", refX: 13, refY: 5,
        markerWidth: 7, markerHeight: 7, orient: "auto-start-reverse" }, defs);
      svg("path", { d: "M 0 0 L 10 5 L 0 10 z", class: a.cls + " head" }, m);
    }
    for (let v = -E; v <= E; v++) {
      svg("line", { x1: px(v), x2: px(v), y1: py(-E - 0.5), y2: py(E + 0.5), class: v ? "grid" : "axis" }, rootSvg);
      svg("line", { x1: px(-E - 0.5), x2: px(E + 0.5), y1: py(v), y2: py(v), class: v ? "grid" : "axis" }, rootSvg);
    }
    for (let v = -E; v <= E; v++) {
      if (!v) continue;
      svg("text", { x: px(v), y: py(0) + 13, class: "tick", "text-anchor": "middle" }, rootSvg).textContent = String(v);
      svg("text", { x: px(0) - 5, y: py(v) + 4, class: "tick", "text-anchor": "end" }, rootSvg).textContent = String(v);
    }
    svg("circle", { cx: c, cy: c, r: 3, class: "origin" }, rootSvg);
    const parts = ARROWS.map((a, k) => {
      const line = svg("line", { x1: c, y1: c, class: "shaft " + a.cls, "marker-end": `url(#${ctx.figure.id}-${a.name}-head)` }, rootSvg);
      const tip = svg("g", { class: "tip " + a.cls, tabindex: 0, role: "slider", "aria-label": "Tip of the " + a.label,
        "aria-valuemin": -E, "aria-valuemax": E }, rootSvg);
      if (a.name === "b") tip.setAttribute("data-key-control", "ArrowRight");
      svg("circle", { r: 18, class: "tip-hit" }, tip);
      svg("circle", { r: 6, class: "tip-dot" }, tip);
      const name = svg("text", { class: "tip-name " + a.cls }, rootSvg);
      name.textContent = a.name;
      drag(tip, rootSvg, (p) => setTip(k, Math.max(-E, Math.min(E, Math.round((p.x - c) / unit))),
        Math.max(-E, Math.min(E, Math.round((c - p.y) / unit)))));
      tip.addEventListener("keydown", (e) => {
        const step = STEPS[e.key];
        if (!step) return;
        e.preventDefault();
        let [x, y] = data.points[tips[k]];
        x += step[0]; y += step[1];
        if (x === 0 && y === 0) { x += step[0]; y += step[1]; } // hop over the origin
        setTip(k, x, y);
      });
      return { line, tip, name };
    });
    view = { parts, px, py };
    plot.replaceChildren(rootSvg);
    layout.classList.toggle("stacked", !beside);
    update();
  }

  function update() {
    const { parts, px, py } = view;
    const s = state();
    [s.a, s.b].forEach(([x, y], k) => {
      const { line, tip, name } = parts[k];
      line.setAttribute("x2", px(x));
      line.setAttribute("y2", py(y));
      tip.setAttribute("transform", `translate(${px(x)} ${py(y)})`);
      tip.setAttribute("aria-valuenow", x);
      tip.setAttribute("aria-valuetext", `(${x}, ${y})`);
      name.setAttribute("x", px(x) + (x >= 0 ? 10 : -18));
      name.setAttribute("y", py(y) + (y >= 0 ? -8 : 16));
    });
    const [first, sum, geo] = lines(s);
    const verdict = s.dot > 0 ? "positive: the arrows point roughly the same way"
      : s.dot < 0 ? "negative: the arrows point apart" : "zero: the arrows are at right angles";
    readout.replaceChildren();
    html("p", { class: "dot-vectors" }, readout, first);
    html("p", {}, readout, sum);
    html("p", {}, readout, geo);
    html("p", { class: "dot-verdict" }, readout, "The dot product is " + verdict + ".");
    setNumbers(ctx.numbers, [first, sum, geo]);
  }

  return {};
}
