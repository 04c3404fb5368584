// quadratic-cost: a length slider over the model's precomputed lengths (log scale). Left, the score
// grid as a square with the causal triangle shaded (stairs, one per token up to 100); right, the
// number of scores against the length on log axes, with a dot at the length chosen. Dragging or
// tapping along the chart picks the nearest length too. Side by side where they fit, stacked below
// svg.js WIDE. Every label and number shown is the model's text; state i is rows[i].
import { linear } from "../js/scale.js";
import { drag, html, nearestIndex, onResize, rangeControl, set, svg, WIDE } from "../js/svg.js";

export function mount(root, ctx) {
  const data = ctx.data;
  const rows = data.rows;
  let index = ctx.opening(data.start);

  const controls = html("div", { class: "figure-controls" }, root);
  const { input: slider, output: readout } = rangeControl(controls, ctx.figure.id + "-n", "Length ",
    { max: rows.length - 1, value: index, "data-key-control": "ArrowRight" });
  slider.addEventListener("input", () => { index = Number(slider.value); update(); });
  const plot = html("div", { class: "figure-plot" }, root);
  html("p", { class: "figure-hint" }, root, "Drag the slider, or drag or tap along the chart, to change the length.");

  const s = svg("svg", { role: "img" }, plot);
  let parts = null;
  onResize(plot, (w) => { layout(w); update(); });

  function layout(width) {
    const wide = width >= WIDE;
    const side = Math.min(wide ? 200 : width - 40, 240);
    const chartW = wide ? width - side - 64 : width;
    const chartH = wide ? side + 50 : 230;
    const gx = 20, gy = 22;
    const cx = wide ? side + 64 : 0, cy = wide ? 0 : side + 64;  // wide: room for the grid's caption lines
    const h = Math.max(cy + chartH, wide ? gy + side + 36 : 0) + 4;
    set(s, { width, height: h, viewBox: `0 0 ${width} ${h}` });
    s.replaceChildren();
    // The grid: the whole square is what a bidirectional encoder scores; the triangle a causal decoder's.
    const grid = svg("g", { transform: `translate(${gx},${gy})` }, s);
    const title = svg("text", { x: 0, y: -8, class: "value" }, grid);
    svg("rect", { x: 0, y: 0, width: side, height: side, class: "qc-all" }, grid);
    const stairs = svg("polygon", { class: "qc-causal" }, grid);
    for (let i = 1; i < data.grid; i++) {
      const at = (i * side) / data.grid;
      svg("line", { x1: at, x2: at, y1: 0, y2: side, class: "qc-line" }, grid);
      svg("line", { x1: 0, x2: side, y1: at, y2: at, class: "qc-line" }, grid);
    }
    svg("rect", { x: 0, y: 0, width: side / 2, height: side / 2, class: "qc-half" }, grid);
    const cell = svg("text", { x: 0, y: side + 16, class: "tick" }, grid);
    svg("text", { x: 0, y: side + 30, class: "tick" }, grid).textContent = data.labels.half;

    // The chart: log scores against log length.
    const pad = { l: 76, r: 30, t: 14, b: 34 };
    const sx = linear(data.x_range, [cx + pad.l, cx + chartW - pad.r]);
    const sy = linear(data.y_range, [cy + chartH - pad.b, cy + pad.t]);
    const chart = svg("g", {}, s);
    // Every other length is labelled where a label ("1,000,000" at 12 px) is wider than a tick's room.
    const room = Math.abs(sx(data.x_ticks[1].at) - sx(data.x_ticks[0].at));
    for (const t of data.x_ticks) {
      svg("line", { x1: sx(t.at), x2: sx(t.at), y1: sy(data.y_range[0]), y2: sy(data.y_range[1]), class: "grid" }, chart);
      svg("text", { x: sx(t.at), y: sy(data.y_range[0]) + 14, class: "tick", "text-anchor": "middle" }, chart)
        .textContent = room >= 64 || t.at % 2 === 1 ? t.label : "";
    }
    for (const t of data.y_ticks) {
      svg("line", { x1: sx(data.x_range[0]), x2: sx(data.x_range[1]), y1: sy(t.at), y2: sy(t.at), class: "grid" }, chart);
      svg("text", { x: sx(data.x_range[0]) - 5, y: sy(t.at) + 4, class: "tick", "text-anchor": "end" }, chart)
        .textContent = t.label;
    }
    svg("text", { x: (sx(data.x_range[0]) + sx(data.x_range[1])) / 2, y: cy + chartH - 4, class: "axis-label",
      "text-anchor": "middle" }, chart).textContent = data.labels.x;
    const line = (key) => rows.map((r) => `${sx(r.log_n)},${sy(r[key])}`).join(" ");
    svg("polyline", { points: line("log_bidirectional"), class: "series key" }, chart);
    svg("polyline", { points: line("log_causal"), class: "series prediction" }, chart);
    svg("text", { x: sx(data.x_range[0]) + 6, y: sy(data.y_range[1]) + 12, class: "key-text" }, chart)
      .textContent = data.labels.bidirectional;
    svg("text", { x: sx(data.x_range[0]) + 6, y: sy(data.y_range[1]) + 28, class: "prediction-text" }, chart)
      .textContent = data.labels.causal;
    const dot = svg("circle", { r: 6, class: "prediction" }, chart);
    const dotB = svg("circle", { r: 4, class: "key" }, chart);
    const hit = svg("rect", { x: sx(data.x_range[0]), y: cy, width: sx(data.x_range[1]) - sx(data.x_range[0]),
      height: chartH, class: "hit" }, chart);
    drag(hit, s, ({ x }) => {
      const i = nearestIndex(rows.map((r) => r.log_n), sx.invert(x));
      if (i !== index) { index = i; update(); }
    });
    parts = { title, stairs, cell, dot, dotB, side, sx, sy };
  }

  function stairs(k, side) {
    const pts = [[0, 0]];
    for (let i = 0; i < k; i++) pts.push([(i + 1) / k, i / k], [(i + 1) / k, (i + 1) / k]);
    pts.push([0, 1]);
    return pts.map(([x, y]) => `${x * side},${y * side}`).join(" ");
  }

  function update() {
    const r = rows[index];
    slider.value = String(index);
    slider.setAttribute("aria-valuetext", r.n_label);
    readout.textContent = r.n_label;
    parts.title.textContent = r.n_label;
    parts.cell.textContent = r.cell_label;
    set(parts.stairs, { points: stairs(r.steps, parts.side) });
    set(parts.dot, { cx: parts.sx(r.log_n), cy: parts.sy(r.log_causal) });
    set(parts.dotB, { cx: parts.sx(r.log_n), cy: parts.sy(r.log_bidirectional) });
    set(s, { "aria-label": data.text.states[index].label });
    ctx.setText(data.text, index);
  }

  return {};
}
