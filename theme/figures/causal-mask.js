// causal-mask: the hand-set head writing its sentence word by word, with the mask on or off.
// Every prefix and both settings are in the embedded data (modes[mode].weights[shown - 1]),
// so the controls only look states up; state = mode index * n + (shown - 1), as the model's
// text is indexed. Rows that changed when the newest word was added are outlined.
import { showFirst, wordGrid } from "../js/grid.js";
import { html, onResize, rangeControl, set } from "../js/svg.js";
import { fill } from "../js/text.js";

export function mount(root, ctx) {
  const data = ctx.data;
  const words = data.words;
  const n = words.length;
  // state = mode * n + shown - 1 (update below); a link may name another
  const opened = ctx.opening(data.mode_names.indexOf(data.params.causal ? "on" : "off") * n + data.params.shown - 1);
  let mode = data.mode_names[Math.floor(opened / n)];
  let shown = opened % n + 1;

  const controls = html("div", { class: "figure-controls" }, root);
  const group = html("div", { class: "segmented", role: "group", "aria-label": "Causal mask" }, controls);
  html("span", {}, group, "Mask: ");
  const buttons = data.mode_names.map((m) => {
    const b = html("button", { type: "button", class: "toggle", "data-mode": m }, group, m);
    b.addEventListener("click", () => { mode = m; update(); });
    return b;
  });
  const { input: slider, output } = rangeControl(controls, ctx.figure.id + "-shown", "Words written ",
    { min: 1, max: n, value: shown, "data-key-control": "ArrowLeft" });
  slider.addEventListener("input", () => { shown = Number(slider.value); update(); });
  const plot = html("div", { class: "figure-plot" }, root);

  let grid = null;
  onResize(plot, (w) => {
    grid = wordGrid(w, words, { title: "Rows: the word that reads. Columns: the words it reads." });
    plot.replaceChildren(grid.s);
    update();
  });

  function update() {
    const state = data.mode_names.indexOf(mode) * n + shown - 1;
    const m = data.modes[mode];
    const weights = m.weights[shown - 1];
    const changed = m.changed[shown - 1];
    buttons.forEach((b) => b.setAttribute("aria-pressed", String(b.dataset.mode === mode)));
    slider.value = String(shown);
    output.textContent = fill(data.text.parts.readout, { v: shown, word: words[shown - 1] });
    showFirst(grid, shown);
    grid.cells.forEach((row, i) => row.forEach((cell, j) => {
      if (i >= shown || j >= shown) { set(cell, { class: "grid-cell", "fill-opacity": 1 }); return; } // not written yet
      const blocked = mode === "on" && j > i;
      set(cell, { class: blocked ? "grid-cell blocked" : "grid-cell weight", "fill-opacity": blocked ? 1 : weights[i][j] });
    }));
    grid.rowBoxes.forEach((r, i) => set(r, { class: i < shown - 1 && changed[i] ? "grid-row changed" : (i === shown - 1 ? "grid-row newest" : "grid-row") }));
    set(grid.s, { "aria-label": data.text.states[state].label });
    ctx.setText(data.text, state);
  }

  return {};
}
