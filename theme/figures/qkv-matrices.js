// qkv-matrices: the queries (orange), keys (blue) and values (green) of one trained head, a row per
// word, and for the selected word's query the weights softmax(q·k/√d) with its raw and scaled scores.
// Every query's numbers are precomputed (engine/figures/qkv_matrices.py): selecting a word only looks
// them up and shows the model's text state for it. Select with a click or tap on a query row, or
// Tab to a word's button; the arrow keys move the selection (wrapping at the ends).
import { gridKeys } from "../js/keys.js";
import { html } from "../js/svg.js";
import { fill } from "../js/text.js";
import { weightBar } from "../js/weights.js";

const ROLES = [["q", "Q", "queries", "query"], ["k", "K", "keys", "key"], ["v", "V", "values", "value"]];

export function mount(root, ctx) {
  const data = ctx.data;
  const words = data.words;
  const n = words.length;
  const parts = data.text.parts;
  let shown = ctx.opening(data.start);

  const mats = html("div", { class: "qkv-mats" }, root);
  const buttons = [];
  const queryRows = [];
  for (const [role, letter, name, cls] of ROLES) {
    const box = html("div", { class: `qkv-mat qkv-${cls}` }, mats);
    const table = html("table", { class: "qkv-table" }, box);
    html("caption", { class: cls }, table, `${letter} (${name})`);
    const body = html("tbody", {}, table);
    data[role].forEach((row, i) => {
      const tr = html("tr", {}, body);
      const th = html("th", { scope: "row" }, tr);
      if (role === "q") {
        const b = html("button", { type: "button", class: "qkv-word chip", "aria-pressed": "false",
          "aria-label": `query of ${data.text.states[i].label}` }, th, words[i]);
        if (i === data.start) b.setAttribute("data-key-control", "ArrowDown");
        b.addEventListener("click", () => select(i));
        gridKeys(b, (dx, dy) => { select((shown + dx - dy + n) % n); buttons[shown].focus(); });
        buttons.push(b);
        queryRows.push(tr);
        tr.addEventListener("click", (e) => { if (e.target === tr || e.target.tagName === "TD") select(i); });
      } else {
        th.textContent = words[i];
      }
      for (const v of row) {
        const td = html("td", { class: "qkv-cell" }, tr, fill(parts.matrix, { v }));
        td.style.setProperty("--s", String(Math.min(1, Math.abs(v) / data.extent)));
      }
    });
  }

  const readout = html("p", { class: "qkv-readout", "aria-live": "polite" }, root);
  const list = html("div", { class: "qkv-list", role: "table", "aria-label": "Raw score, scaled score and weight of every word for the selected query" }, root);
  const head = html("div", { role: "row", class: "qkv-row qkv-row-head" }, list);
  for (const t of ["key of", "raw q·k", `scaled ÷√${data.d_k}`, "weight"]) html("span", { role: "columnheader" }, head, t);
  const rows = words.map((w) => {
    const r = html("div", { role: "row", class: "qkv-row" }, list);
    html("span", { role: "rowheader", class: "qkv-key-word" }, r, w);
    const score = html("span", { role: "cell", class: "qkv-num" }, r);
    const scaled = html("span", { role: "cell", class: "qkv-num" }, r);
    const weight = weightBar(html("span", { role: "cell", class: "qkv-weight" }, r));
    return { r, score, scaled, weight };
  });
  html("p", { class: "figure-hint" }, root,
    "Click or tap a word in Q to select its query, or Tab to it; the arrow keys move the selection.");

  function select(i) {
    if (i === shown) return;
    shown = i;
    update();
  }

  function update() {
    buttons.forEach((b, i) => b.setAttribute("aria-pressed", String(i === shown)));
    queryRows.forEach((tr, i) => tr.classList.toggle("qkv-selected", i === shown));
    const top = data.top[shown];
    rows.forEach((row, j) => {
      row.score.textContent = fill(parts.score, { v: data.scores[shown][j] });
      row.scaled.textContent = fill(parts.score, { v: data.scaled[shown][j] });
      row.weight(data.weights[shown][j], fill(parts.weight, { v: data.weights[shown][j] }));
      row.r.classList.toggle("qkv-top", j === top);
    });
    readout.textContent = data.text.states[shown].numbers[0];
    ctx.setText(data.text, shown);
  }

  update();
  return {};
}
