// sinusoids: each position's sinusoidal code as a row of a heat map, and beside it a bar per
// position for its dot product with the picked position's code. Every position's numbers are in
// the embedded data (data.dots, text.states indexed by position), so picking one only switches
// rows. Pick by the slider (keyboard), or by clicking or tapping a row.
import { html, onResize, rangeControl, set, svg } from "../js/svg.js";
import { fill } from "../js/text.js";

export function mount(root, ctx) {
  const data = ctx.data;
  const n = data.codes.length, width = data.codes[0].length;
  const top = Math.max(...data.dots.map((row) => Math.max(...row)));
  let pos = ctx.opening(data.position);

  const controls = html("div", { class: "figure-controls" }, root);
  const { input, output } = rangeControl(controls, `${ctx.figure.id}-position`, "Position ",
    { max: n - 1, value: pos, "data-key-control": "ArrowRight" });
  input.addEventListener("input", () => { pos = Number(input.value); update(); });
  const plot = html("div", { class: "figure-plot" }, root);

  let view = null;
  onResize(plot, (w) => { build(w); update(); });

  /** The drawing for this width: code cells on the left, dot-product bars on the right. */
  function build(w) {
    const rowH = 14, head = 30, labelW = 24;
    const cell = Math.max(6, Math.min(14, Math.floor((w * 0.45 - labelW) / width)));
    const codeW = cell * width;
    const barX = labelW + codeW + 14, barMax = Math.max(40, w - barX - 40);
    const h = head + n * rowH + 4;
    const s = svg("svg", { width: w, height: h, viewBox: `0 0 ${w} ${h}`, role: "img" });
    svg("text", { x: labelW, y: 12, class: "axis-label" }, s).textContent = "code (sin, cos pairs)";
    svg("text", { x: barX, y: 12, class: "axis-label" }, s).textContent =
      w - barX > 260 ? "dot product with the picked position" : "dot product with picked row";
    const rows = [];
    for (let i = 0; i < n; i++) {
      const y = head + i * rowH;
      const g = svg("g", { class: "sin-row" }, s);
      const band = svg("rect", { x: 0, y, width: w, height: rowH, class: "sin-band" }, g);
      svg("text", { x: labelW - 4, y: y + rowH - 3, "text-anchor": "end", class: "tick" }, g).textContent = fill(data.text.parts.position, { v: i });
      data.codes[i].forEach((v, j) => {
        const r = svg("rect", { x: labelW + j * cell, y: y + 1, width: cell - 1, height: rowH - 2 }, g);
        const hue = v >= 0 ? "var(--query)" : "var(--key)";
        r.style.setProperty("fill", `color-mix(in srgb, ${hue} ${Math.round(Math.abs(v) * 100)}%, var(--surface))`);
      });
      const bar = svg("rect", { x: barX, y: y + 2, height: rowH - 4, class: "sin-bar" }, g);
      const label = svg("text", { y: y + rowH - 3, class: "tick sin-value" }, g);
      g.addEventListener("click", () => { pos = i; input.value = String(i); update(); });
      rows.push({ band, bar, label });
    }
    view = { s, rows, scale: (v) => Math.max(0, v) / top * barMax, barX };
    plot.replaceChildren(s);
  }

  function update() {
    const text = data.text.states[pos];
    output.textContent = fill(data.text.parts.position, { v: pos });
    set(input, { "aria-valuetext": text.label });
    set(view.s, { "aria-label": text.label });
    view.rows.forEach((r, j) => {
      const bw = view.scale(data.dots[pos][j]);
      set(r.bar, { width: bw, class: j === pos ? "sin-bar picked" : "sin-bar" });
      set(r.band, { class: j === pos ? "sin-band picked" : "sin-band" });
      set(r.label, { x: view.barX + bw + 4 });
      r.label.textContent = text.bars[j];
    });
    ctx.setText(data.text, pos);
  }

  return {};
}
