// A square grid with a row per query and a column per key, words as labels: the drawing that
// causal-mask and access-chart share. Built once per width; views update its cells in place.
import { set, svg } from "./svg.js";

const LABEL_W = 66; // room for a word at the left of each row
const LABEL_H = 56; // room for the column words, slanted, above the grid

/**
 * An SVG grid for `words` (one row and one column each) fitting `width`. Returns
 * { s, cells[i][j], rowLabels, colLabels, rowBoxes, size } where rowBoxes[i] outlines row i.
 */
export function wordGrid(width, words, { title = "" } = {}) {
  const n = words.length;
  const size = Math.max(14, Math.min(30, Math.floor((width - LABEL_W - 8) / n)));
  const w = LABEL_W + n * size + 8;
  const h = LABEL_H + n * size + 20;
  const s = svg("svg", { width: w, height: h, viewBox: `0 0 ${w} ${h}`, role: "img", class: "word-grid" });
  if (title) svg("text", { x: 0, y: h - 4, class: "axis-label" }, s).textContent = title;
  const rowLabels = words.map((word, i) => {
    const t = svg("text", { x: LABEL_W - 6, y: LABEL_H + i * size + size / 2 + 4, "text-anchor": "end", class: "grid-word" }, s);
    t.textContent = word;
    return t;
  });
  const colLabels = words.map((word, j) => {
    const x = LABEL_W + j * size + size / 2, y = LABEL_H - 6;
    const t = svg("text", { x, y, transform: `rotate(-55 ${x} ${y})`, class: "grid-word" }, s);
    t.textContent = word;
    return t;
  });
  const cells = words.map((_, i) => words.map((__, j) =>
    svg("rect", { x: LABEL_W + j * size + 1, y: LABEL_H + i * size + 1, width: size - 2, height: size - 2, class: "grid-cell" }, s)));
  const rowBoxes = words.map((_, i) =>
    svg("rect", { x: LABEL_W - 1, y: LABEL_H + i * size, width: n * size + 2, height: size, class: "grid-row" }, s));
  return { s, cells, rowLabels, colLabels, rowBoxes, size };
}

/** Show only the first `shown` rows and columns of a grid (the words written so far). */
export function showFirst(grid, shown) {
  grid.cells.forEach((row, i) => row.forEach((c, j) => set(c, { visibility: i < shown && j < shown ? "visible" : "hidden" })));
  grid.rowLabels.forEach((t, i) => set(t, { class: i < shown ? "grid-word" : "grid-word unwritten" }));
  grid.colLabels.forEach((t, j) => set(t, { class: j < shown ? "grid-word" : "grid-word unwritten" }));
}
