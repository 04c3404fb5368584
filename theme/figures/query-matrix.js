// query-matrix: the query of "it" is its description (a number per feature) times the query
// matrix. Two sliders (how much of the describing word was copied into "it", the matrix's strength) and a
// choice of last word walk a grid the engine precomputed; the view shows the description, the
// matrix, the query and every word's weight, and computes nothing itself. Everything is built
// once and updated in place; the key numbers and every number shown are the model's text
// templates (data.text.templates, data.text.parts) filled for the grid position.
import { weightBar } from "../js/weights.js";
import { html, rangeControl } from "../js/svg.js";
import { fill, fillAll, scopeAt } from "../js/text.js";

export function mount(root, ctx) {
  const data = ctx.data;
  // state (last word * copies + copy) * strengths + strength (query_matrix.py state_index); a link may name another
  const C = data.copies.length, S = data.strengths.length;
  const opened = ctx.opening((data.last_words.indexOf(data.start.last_word) * C + data.start.copy) * S + data.start.strength,
    data.last_words.length * C * S);
  let last = data.last_words[Math.floor(opened / (C * S))];
  let ci = Math.floor(opened / S) % C;
  let si = opened % S;
  const id = ctx.figure.id;

  const words = html("div", { class: "figure-controls", role: "group", "aria-label": "Last word of the sentence" }, root);
  html("span", {}, words, "Last word:");
  const wordButtons = {};
  for (const w of data.last_words) {
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
  html("figcaption", {}, descBox, "“it”, described");
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

  /** A table of text cells, built once: a header row, then rows×cols cells; with rowHeads each row's
   *  first cell is a row header. Returns the cells to fill in, by row. */
  function cells(table, rows, header, rowHeads = false) {
    const tr = html("tr", {}, table);
    for (const h of header) html("th", { scope: "col" }, tr, h);
    return Array.from({ length: rows }, () => {
      const row = html("tr", {}, table);
      return header.map((_, k) => html(rowHeads && k === 0 ? "th" : "td", rowHeads && k === 0 ? { scope: "row" } : {}, row));
    });
  }
  const descCells = cells(descTable, data.features.length, ["number", "it"], true);
  data.features.forEach((f, k) => { descCells[k][0].textContent = f; });
  const matrix = data.query_matrices[0];
  const matCells = cells(matTable, matrix.length, matrix[0].map((_, k) => ["→", "↑"][k] ?? ""));
  const qCells = cells(qTable, 1, ["→", "↑"])[0];
  // Every ending has a sentence of the same length: one row per word, built once.
  const n = data.sentences[last].words.length;
  const rows = Array.from({ length: n }, () => {
    const row = html("div", { role: "row", class: "qm-row" }, bars);
    const word = html("span", { role: "rowheader", class: "qm-w" }, row);
    const weight = weightBar(html("span", { role: "cell", class: "qm-cell" }, row));
    return { row, word, weight };
  });

  const parts = data.text.parts;
  /** The values the model's templates name for this state (query_matrix.py `state_index`). */
  const state = () => (data.last_words.indexOf(last) * C + ci) * S + si;
  const scope = () => scopeAt(data.text.scope, data, state());

  function draw() {
    const sentence = data.sentences[last];
    const values = scope();
    for (const [k, b] of Object.entries(wordButtons)) b.setAttribute("aria-pressed", String(k === last));
    copy.value = ci;
    strength.value = si;
    const copied = fill(parts.copy, values), strong = fill(parts.strength, values);
    copyOut.textContent = copied;
    strengthOut.textContent = strong;
    copy.setAttribute("aria-valuetext", copied);
    strength.setAttribute("aria-valuetext", "strength " + strong);

    sentence.described[ci].forEach((v, k) => { descCells[k][1].textContent = fill(parts.described, { v }); });
    matCaption.textContent = `query matrix × ${strong}`;
    data.query_matrices[si].forEach((r, i) => r.forEach((v, k) => { matCells[i][k].textContent = fill(parts.matrix, { v }); }));
    values.query.forEach((v, k) => { qCells[k].textContent = fill(parts.query, { v }); });
    sentence.words.forEach((word, j) => {
      const w = values.weights[j];
      rows[j].row.classList.toggle("qm-target", j === sentence.target);
      rows[j].word.textContent = word;
      rows[j].weight(w, fill(parts.weight, { v: w }));
    });
    ctx.setText({ numbers: fillAll(data.text.templates, values) }, state());
  }

  draw();
  return {};
}
