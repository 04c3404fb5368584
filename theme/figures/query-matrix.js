// query-matrix: the query of "it" is its six-number description times the query matrix. Two
// sliders (how much of the describing word was copied into "it", the matrix's strength) and a
// choice of last word walk a grid the engine precomputed; the view shows the description, the
// matrix, the query and every word's weight, and computes nothing itself.
import { fmt, html, rangeControl, setNumbers } from "../js/svg.js";

export function mount(root, ctx) {
  const data = ctx.data;
  let last = data.start.last_word;
  let ci = data.start.copy;
  let si = data.start.strength;
  const id = ctx.figure.id;

  const words = html("div", { class: "figure-controls", role: "group", "aria-label": "Last word of the sentence" }, root);
  html("span", {}, words, "Last word:");
  const wordButtons = {};
  for (const w of Object.keys(data.sentences)) {
    wordButtons[w] = html("button", { type: "button", class: "qm-word" }, words, w);
    wordButtons[w].addEventListener("click", () => { last = w; draw(); });
  }
  const controls = html("div", { class: "figure-controls qm-sliders" }, root);
  const { input: copy, output: copyOut } = rangeControl(controls, id + "-copy", "Copied into “it” ",
    { max: data.copies.length - 1 });
  const { input: strength, output: strengthOut } = rangeControl(controls, id + "-strength", "Query matrix strength ",
    { max: data.strengths.length - 1, "data-key-control": "ArrowRight" });
  copy.addEventListener("input", () => { ci = Number(copy.value); draw(); });
  strength.addEventListener("input", () => { si = Number(strength.value); draw(); });

  // description of "it"  ×  W_Q  =  query
  const sum = html("div", { class: "qm-sum", "aria-live": "polite" }, root);
  const descBox = html("figure", { class: "qm-block" }, sum);
  html("figcaption", {}, descBox, "“it”, six numbers");
  const descTable = html("table", { class: "qm-table qm-data" }, descBox);
  html("span", { class: "qm-op", "aria-hidden": "true" }, sum, "×");
  const matBox = html("figure", { class: "qm-block" }, sum);
  const matCaption = html("figcaption", {}, matBox);
  const matTable = html("table", { class: "qm-table qm-model" }, matBox);
  html("span", { class: "qm-op", "aria-hidden": "true" }, sum, "=");
  const qBox = html("figure", { class: "qm-block" }, sum);
  html("figcaption", {}, qBox, "query of “it”");
  const qTable = html("table", { class: "qm-table qm-query" }, qBox);

  const bars = html("div", { class: "qm-bars", role: "table", "aria-label": "Weight of it on every word" }, root);

  // A small table: a header row, then rows of text; with rowHeads, each row's first entry names it.
  function cells(table, rows, header, rowHeads = false) {
    table.replaceChildren();
    const tr = html("tr", {}, table);
    for (const h of header) html("th", { scope: "col" }, tr, h);
    for (const r of rows) {
      const tr = html("tr", {}, table);
      r.forEach((v, k) => html(rowHeads && k === 0 ? "th" : "td", rowHeads && k === 0 ? { scope: "row" } : {}, tr, v));
    }
  }

  function draw() {
    const sentence = data.sentences[last];
    const c = data.copies[ci], s = data.strengths[si];
    const q = sentence.queries[ci][si];
    const w = sentence.weights[ci][si];
    for (const [k, b] of Object.entries(wordButtons)) b.setAttribute("aria-pressed", String(k === last));
    copy.value = ci;
    strength.value = si;
    copyOut.textContent = `${c} of ${last}`;
    strengthOut.textContent = String(s);
    copy.setAttribute("aria-valuetext", `${c} of ${last}`);
    strength.setAttribute("aria-valuetext", "strength " + s);

    const described = sentence.described[ci];
    cells(descTable, data.features.map((f, k) => [f, fmt(described[k], 2)]), ["number", "it"], true);
    matCaption.textContent = `query matrix × ${s}`;
    cells(matTable, data.query_matrices[si].map((r) => r.map((v) => String(v))), ["→", "↑"]);
    cells(qTable, [[fmt(q[0]), fmt(q[1])]], ["→", "↑"]);

    bars.replaceChildren();
    sentence.words.forEach((word, j) => {
      const row = html("div", { role: "row", class: "qm-row" + (j === sentence.target ? " qm-target" : "") }, bars);
      html("span", { role: "rowheader", class: "qm-w" }, row, word);
      const cell = html("span", { role: "cell", class: "qm-cell" }, row);
      const bar = html("span", { class: "qm-bar", "aria-hidden": "true" }, cell);
      html("span", { class: "qm-fill", style: `width: ${(100 * w[j]).toFixed(1)}%` }, bar);
      html("span", { class: "qm-num" }, cell, fmt(w[j]));
    });

    setNumbers(ctx.numbers, [
      `Copied ${c} of ${last} into it, query matrix strength ${s}: query (${fmt(q[0])}, ${fmt(q[1])})`,
      "Weights of it: " + sentence.words.map((word, j) => `${word} ${fmt(w[j])}`).join(", "),
    ]);
  }

  draw();
  return {};
}
