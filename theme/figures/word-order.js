// word-order: "dog bites man" and "man bites dog" through one head, positions off and on.
// Both settings are in the embedded data (data.modes, text.states indexed like data.settings),
// so the toggle only switches between them. Each sentence gets a table of weights (rows: the
// word gathering, columns: the words read); below, each word's output in both orders, side by
// side, with the model's verdict. Every number shown is filled from the model's text.parts (cell, share).
import { html, set } from "../js/svg.js";
import { fill } from "../js/text.js";

export function mount(root, ctx) {
  const data = ctx.data;
  const parts = data.text.parts;
  let setting = data.settings[ctx.opening(data.settings.indexOf(data.params.positions ? "on" : "off"))];

  const controls = html("div", { class: "figure-controls", role: "group", "aria-label": "Position codes" }, root);
  html("span", {}, controls, "Positions:");
  const buttons = data.settings.map((name) => {
    const b = html("button", { type: "button", class: "toggle", "data-setting": name }, controls, name);
    b.addEventListener("click", () => { setting = name; update(); });
    return b;
  });
  // The keyboard check presses Enter on the setting not shown first.
  buttons.find((b) => b.dataset.setting !== setting)?.setAttribute("data-key-control", "Enter");

  const summary = html("p", { class: "word-order-label", "aria-live": "polite" }, root);
  const panels = html("div", { class: "word-order-panels" }, root);
  const grids = data.sentences.map((words) => {
    const table = html("table", { class: "word-order-grid" }, panels);
    html("caption", {}, table, `“${words.join(" ")}”: attention weights`);
    const head = html("tr", {}, html("thead", {}, table));
    html("td", {}, head);
    words.forEach((w) => html("th", { scope: "col", class: "key" }, head, w));
    const body = html("tbody", {}, table);
    return words.map((w) => {
      const tr = html("tr", {}, body);
      html("th", { scope: "row", class: "query" }, tr, w);
      return words.map(() => html("td", {}, tr));
    });
  });

  const outputs = html("table", { class: "word-order-outputs" }, root);
  html("caption", {}, outputs, "Each word's output: how much of dog, man and bites it gathered");
  const oh = html("tr", {}, html("thead", {}, outputs));
  html("th", { scope: "col" }, oh, "word");
  data.sentences.forEach((words) => html("th", { scope: "col" }, oh, `in “${words.join(" ")}”`));
  html("th", { scope: "col" }, oh, "both orders");
  const ob = html("tbody", {}, outputs);
  const outRows = data.words.map((w) => {
    const tr = html("tr", {}, ob);
    html("th", { scope: "row" }, tr, w);
    return { cells: data.sentences.map(() => html("td", {}, tr)), verdict: html("td", { class: "verdict" }, tr) };
  });

  function update() {
    const i = data.settings.indexOf(setting);
    const mode = data.modes[setting];
    const text = data.text.states[i];
    buttons.forEach((b) => b.setAttribute("aria-pressed", String(b.dataset.setting === setting)));
    summary.textContent = text.label;
    grids.forEach((rows, s) => rows.forEach((cells, q) => cells.forEach((td, k) => {
      const v = mode.sentences[s].weights[q][k];
      td.textContent = fill(parts.cell, { v });
      td.style.setProperty("--w", String(v));
    })));
    outRows.forEach((r, w) => {
      r.cells.forEach((td, s) => { td.textContent = mode.by_word[w][s].map((v, i) => fill(parts.share, { word: data.words[i], v })).join(", "); });
      const verdict = mode.same[w] ? "same" : "differs";
      r.verdict.textContent = fill(parts[verdict], {});
      set(r.verdict, { "data-verdict": verdict });
    });
    ctx.setText(data.text, i);
  }

  update();
  return {};
}
