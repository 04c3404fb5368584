// intervention: test what chapter 9's attention map suggests. Radio buttons mean-ablate no head,
// head 1, head 2 or both (the bars show both readouts' held-out accuracy); a menu under each word
// swaps it for another word of its kind (one word at a time), and the grids and the names each
// readout gives follow. Every (ablation, edit) pair is precomputed: state a * edits + e of
// data.text.states. The grids are weights.js's headTable.
import { html, radioGroup } from "../js/svg.js";
import { headTable } from "../js/weights.js";

export function mount(root, ctx) {
  const data = ctx.data;
  const id = ctx.figure.id;
  const E = data.edits.length;
  const opened = ctx.opening(data.start.ablation * E + data.start.edit); // state = ablation * E + edit; a link may name another
  let ablation = Math.floor(opened / E);
  let edit = opened % E;

  const radios = radioGroup(root, { name: id + "-ablate", legend: "Mean-ablate", className: "iv-ablate",
    labels: data.ablations.map((a) => a.short), checked: ablation, onChange: (k) => { ablation = k; update(); } });

  const acc = html("div", { class: "iv-accuracy", role: "group", "aria-label": "Held-out accuracy" }, root);
  html("p", { class: "iv-title" }, acc, "Held-out accuracy");
  const bars = Object.entries(data.readouts).map(([target, name]) => {
    const row = html("div", { class: "iv-bar-row" }, acc);
    html("span", { class: "iv-bar-name" }, row, name);
    const track = html("span", { class: "iv-track", "aria-hidden": "true" }, row);
    const fill = html("span", { class: "iv-fill iv-" + target }, track);
    const value = html("span", { class: "iv-bar-value" }, row);
    return { target, fill, value };
  });

  const sentence = html("div", { class: "iv-sentence" }, root);
  html("p", { class: "iv-title" }, sentence, "The sentence: change one word, and what each readout names");
  const words = html("ol", { class: "iv-words" }, sentence);
  const columns = data.words.map((word, p) => {
    const li = html("li", { class: "iv-word" }, words);
    const select = html("select", { id: `${id}-word-${p}`, "aria-label": `Word ${p + 1} (${word})` }, li);
    data.choices[p].forEach((w, k) => html("option", { value: String(k) }, select, w));
    select.value = String(data.choices[p].indexOf(word));
    select.addEventListener("change", () => { edit = data.edit_of[p][Number(select.value)]; update(); });
    const attached = html("span", { class: "iv-named iv-named-attached" }, li);
    const previous = html("span", { class: "iv-named iv-named-previous" }, li);
    return { select, attached, previous };
  });
  html("p", { class: "figure-hint" }, sentence,
    "Under each word: the word the readout for “the word it attaches to” names (solid), then the one for “the previous word” (dashed); ✗ marks a wrong name.");

  const heads = html("div", { class: "th-heads iv-heads" }, root);
  const grids = Array.from({ length: data.n_heads }, (_, h) => headTable(heads, data.words, data.targets, h));
  html("p", { class: "figure-hint" }, root, data.text.legend);

  function update() {
    const state = ablation * E + edit;
    const shown = data.edits[edit];
    const ablated = new Set(data.ablations[ablation].heads);
    radios.forEach((r, k) => { r.checked = k === ablation; });
    bars.forEach((b) => {
      b.fill.style.setProperty("--v", String(data.held_out.accuracy[ablation][b.target]));
      b.value.textContent = data.held_out.shown[ablation][b.target];
    });
    columns.forEach((c, p) => {
      const k = data.choices[p].indexOf(shown.words[p]);
      if (c.select.value !== String(k)) c.select.value = String(k); // one word changed at a time
      c.select.classList.toggle("iv-changed", p === shown.position);
      for (const target of ["attached", "previous"]) {
        const el = c[target];
        const right = shown.right[ablation][target][p] === 1;
        el.textContent = data.vocab[shown.named[ablation][target][p]] + (right ? "" : " ✗");
        el.classList.toggle("iv-wrong", !right);
      }
    });
    grids.forEach((g, h) => {
      const off = ablated.has(h);
      g.box.classList.toggle("iv-ablated", off);
      g.caption.textContent = off ? `Head ${h + 1}: ablated (its output replaced by its mean)` : `Head ${h + 1}`;
      g.colHeads.forEach((th, j) => { th.textContent = shown.words[j]; });
      g.rowHeads.forEach((th, i) => { th.textContent = shown.words[i]; });
      g.cells.forEach((row, i) => row.forEach((cell, j) => cell.style.setProperty("--w", String(shown.weights[h][i][j]))));
    });
    ctx.setText(data.text, state);
  }

  update();
  return {};
}
