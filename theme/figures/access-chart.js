// access-chart: which keys each query may read, causal or bidirectional, for the first few words.
// The grids are the engine's masks in the embedded data (grids[mode][length - 1]); state =
// mode index * n + (length - 1), as the model's text is indexed.
import { showFirst, wordGrid } from "../js/grid.js";
import { html, onResize, rangeControl, set } from "../js/svg.js";
import { fill } from "../js/text.js";

export function mount(root, ctx) {
  const data = ctx.data;
  const n = data.words.length;
  // state = mode * n + length - 1 (update below); a link may name another
  const opened = ctx.opening(data.modes.indexOf(data.params.causal ? "causal" : "bidirectional") * n + data.params.length - 1);
  let mode = data.modes[Math.floor(opened / n)];
  let length = opened % n + 1;

  const controls = html("div", { class: "figure-controls" }, root);
  const group = html("div", { class: "segmented", role: "group", "aria-label": "Kind of attention" }, controls);
  const buttons = data.modes.map((m) => {
    const b = html("button", { type: "button", class: "toggle", "data-mode": m }, group, m);
    b.addEventListener("click", () => { mode = m; update(); });
    return b;
  });
  buttons.find((b) => b.dataset.mode !== mode)?.setAttribute("data-key-control", "Enter");
  const { input: slider, output } = rangeControl(controls, ctx.figure.id + "-length", "Words ",
    { min: 1, max: n, value: length });
  slider.addEventListener("input", () => { length = Number(slider.value); update(); });
  const plot = html("div", { class: "figure-plot" }, root);

  let grid = null;
  onResize(plot, (w) => {
    grid = wordGrid(w, data.words, { title: "Rows: the query. Columns: the keys it may read." });
    plot.replaceChildren(grid.s);
    update();
  });

  function update() {
    const state = data.modes.indexOf(mode) * n + length - 1;
    const g = data.grids[mode][length - 1];
    buttons.forEach((b) => b.setAttribute("aria-pressed", String(b.dataset.mode === mode)));
    slider.value = String(length);
    output.textContent = fill(data.text.parts.readout, { v: length, word: data.words[length - 1] });
    showFirst(grid, length);
    grid.cells.forEach((row, i) => row.forEach((cell, j) => {
      set(cell, { class: i < length && j < length && g[i][j] ? "grid-cell readable" : "grid-cell" });
    }));
    set(grid.s, { "aria-label": data.text.states[state].label });
    ctx.setText(data.text, state);
  }

  return {};
}
