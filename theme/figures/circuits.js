// circuits: a head read from its weights. Radio buttons choose a view (chapter 3's head, the same
// head with other factors, chapter 9's trained head); each view is a row of grids (W_Q W_Kᵀ, W_V W_O,
// and for the hand-set head its factors), built once and shown or hidden. Clicking or tapping a cell
// prints its value (the model's template text.parts.cell); the key numbers are text.states[view].
import { html, radioGroup } from "../js/svg.js";
import { fill } from "../js/text.js";

export function mount(root, ctx) {
  const data = ctx.data;
  const id = ctx.figure.id;
  let view = ctx.opening(data.start);

  const radios = radioGroup(root, { name: id + "-view", legend: "Head", className: "ci-views",
    labels: data.labels, checked: view, onChange: (v) => { view = v; update(); } });

  const readout = html("output", { class: "ci-readout", "aria-live": "polite" }, root);
  const views = data.views.map((v) => {
    const box = html("div", { class: "ci-panels" }, root);
    v.panels.forEach((p) => grid(box, p));
    return box;
  });
  html("p", { class: "figure-hint" }, root, `${data.text.legend} Click or tap a cell for its value.`);

  /** One panel as a table, coloured once: the values never change, only which view is shown. */
  function grid(parent, panel) {
    const wrap = html("div", { class: "ci-grid-box" }, parent);
    const dense = panel.rows.length > 10;
    const table = html("table", { class: dense ? "ci-grid ci-dense" : "ci-grid" }, wrap);
    html("caption", {}, table, panel.title);
    const hr = html("tr", {}, html("thead", {}, table));
    html("td", {}, hr);
    for (const c of panel.cols) html("span", {}, html("th", { scope: "col" }, hr), c);
    const body = html("tbody", {}, table);
    panel.rows.forEach((r, i) => {
      const tr = html("tr", {}, body);
      html("th", { scope: "row" }, tr, r);
      panel.values[i].forEach((v, j) => {
        const td = html("td", { class: v < 0 ? "ci-cell ci-negative" : "ci-cell" }, tr);
        td.style.setProperty("--w", String(Math.sqrt(Math.min(1, Math.abs(v) / panel.scale)))); // sqrt: small entries show
        td.addEventListener("click", () => {
          readout.textContent = `${panel.title}: ${r} × ${panel.cols[j]} = ${fill(data.text.parts.cell, { v })}`;
        });
      });
    });
  }

  function update() {
    radios.forEach((r, k) => { r.checked = k === view; });
    views.forEach((box, k) => { box.hidden = k !== view; });
    readout.textContent = "";
    ctx.setText(data.text, view);
  }

  update();
  return {};
}
