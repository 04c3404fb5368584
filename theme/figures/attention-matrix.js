// attention-matrix: the hand-set head's whole attention matrix A = softmax(QKᵀ/√d_k) as a grid, one row
// per query (orange labels), one column per key (blue labels), with the values (Vᵀ, green) and the
// column sums under the columns. Point at a row, tap it, or focus the grid and use the up and down
// arrows to select it; the selected row's output (that row of AV) is listed under the grid.
// Every row's numbers are in the embedded data: selecting only chooses what is shown.
import { clampIndex, lineKeys } from "../js/keys.js";
import { html, onResize, set, svg } from "../js/svg.js";
import { fill } from "../js/text.js";

const LABEL_W = 64, CELL_H = 24, GAP = 10, MIN_CELL = 34, CHAR_W = 7.2; // CHAR_W: a generous 12 px character

export function mount(root, ctx) {
  const data = ctx.data;
  const n = data.words.length;
  const dv = data.values[0].length;
  let row = ctx.opening(data.start);

  const grid = html("div", { class: "figure-plot am-grid", tabindex: 0, role: "group",
    "aria-label": "Attention matrix: up and down arrows choose a row", "data-key-control": "ArrowDown" }, root);
  const out = html("p", { class: "am-output", "aria-live": "polite" }, root);
  const cell = (v) => fill(data.text.parts.cell, { v });

  lineKeys(grid, (step) => select(clampIndex(row - step, n))); // down (step -1) moves to the next row
  let view = null;
  onResize(grid, (w) => { build(w); select(row); });

  /** The grid for this width, built once per width; selecting a row only moves the highlight. */
  function build(width) {
    // Cells never narrower than a number: below that the grid scrolls sideways inside its box.
    const cw = Math.max(MIN_CELL, Math.min(48, (width - LABEL_W - 4) / n));
    // The key words stand at -55° above the columns: room for the longest, at 12 px.
    const TOP = 12 + Math.ceil(Math.sin(55 * Math.PI / 180) * CHAR_W * Math.max(...data.words.map((w) => w.length)));
    const gridH = n * CELL_H, below = TOP + gridH + GAP;
    const h = below + (dv + 2) * CELL_H + 4;
    const w = LABEL_W + n * cw + 4;
    const s = svg("svg", { width: w, height: h, viewBox: `0 0 ${w} ${h}`, role: "img" });
    const x = (j) => LABEL_W + j * cw, y = (i) => TOP + i * CELL_H;
    data.words.forEach((word, j) => {
      const tx = x(j) + cw / 2, ty = TOP - 4;
      svg("text", { x: tx, y: ty, class: "am-key", transform: `rotate(-55 ${tx} ${ty})` }, s).textContent = word;
    });
    const band = svg("rect", { x: 0, width: w, height: CELL_H, class: "am-band" }, s);
    const labels = data.words.map((word, i) =>
      Object.assign(svg("text", { x: LABEL_W - 4, y: y(i) + CELL_H / 2 + 4, "text-anchor": "end", class: "am-query" }, s),
        { textContent: word }));
    data.weights.forEach((r, i) => r.forEach((v, j) => {
      svg("rect", { x: x(j) + 0.5, y: y(i) + 0.5, width: cw - 1, height: CELL_H - 1, class: "am-cell",
        "fill-opacity": v > 0.5 ? 1 : 0.08 + 0.92 * v }, s);
      svg("text", { x: x(j) + cw / 2, y: y(i) + CELL_H / 2 + 3.5, class: v > 0.5 ? "am-num am-strong" : "am-num" }, s)
        .textContent = cell(v);
    }));
    // Under the columns: the values (Vᵀ, one line per number of a value) and the column sums.
    const extra = [...Array.from({ length: dv }, (_, k) => [`value ${k + 1}`, data.values.map((v) => v[k]), "am-v"]),
      ["col. sum", data.column_sums, "am-sum"]];
    extra.forEach(([name, vals, cls], k) => {
      const yy = below + k * CELL_H + CELL_H / 2 + 4;
      svg("text", { x: LABEL_W - 4, y: yy, "text-anchor": "end", class: cls }, s).textContent = name;
      vals.forEach((v, j) => {
        svg("text", { x: x(j) + cw / 2, y: yy, class: `am-num ${cls}` }, s).textContent = cell(v);
      });
    });
    // The legend under it all, where no key word reaches.
    svg("text", { x: 2, y: below + (dv + 1) * CELL_H + CELL_H / 2 + 4, class: "axis-label" }, s)
      .textContent = "rows: queries (Q) · columns: keys (K) · green: V";
    const outline = svg("rect", { x: LABEL_W, width: n * cw, height: CELL_H, class: "am-selected" }, s);
    const pick = (e) => {
      const r = s.getBoundingClientRect();
      const i = Math.floor(((e.clientY - r.top) * (h / r.height) - TOP) / CELL_H);
      if (i >= 0 && i < n) select(i);
    };
    s.addEventListener("pointermove", (e) => { if (e.pointerType === "mouse") pick(e); });
    s.addEventListener("click", pick);
    view = { s, labels, show: (i) => { set(band, { y: y(i) }); set(outline, { y: y(i) }); } };
    grid.replaceChildren(s);
  }

  function select(i) {
    row = i;
    const text = data.text.states[i];
    view.show(i);
    view.labels.forEach((l, k) => l.classList.toggle("am-on", k === i));
    set(view.s, { "aria-label": text.label });
    out.textContent = text.numbers[1];
    ctx.setText(data.text, i);
  }

  return {};
}
