// weight-norms: one row of the trained model, each word's attention weight beside its share of the
// row's weighted-vector lengths ‖w·v‖. Radio buttons choose the head; the word buttons (click, tap,
// or arrow keys) choose the row. Every (head, row) pair is precomputed: state h * words + i of
// data.text.states; bar labels are the model's template (text.parts.value).
import { html, radioGroup } from "../js/svg.js";
import { clampIndex, lineKeys } from "../js/keys.js";
import { fill } from "../js/text.js";

export function mount(root, ctx) {
  const data = ctx.data;
  const n = data.words.length;
  const id = ctx.figure.id;
  const opened = ctx.opening(data.start.head * n + data.start.row); // state = head * n + row; a link may name another
  let head = Math.floor(opened / n);
  let row = opened % n;

  const radios = radioGroup(root, { name: id + "-head", legend: "Head", className: "wn-heads",
    labels: data.heads.map((_, h) => `head ${h + 1}`), checked: head, onChange: (h) => { head = h; update(); } });

  const rowList = html("ol", { class: "wn-rows", "aria-label": "The word whose row is shown" }, root);
  const rowButtons = data.words.map((word, i) => {
    const b = html("button", { type: "button", class: "wn-row chip" }, html("li", {}, rowList), word);
    b.addEventListener("click", () => { row = i; update(); });
    lineKeys(b, (step) => { row = clampIndex(row + step, n); update(); rowButtons[row].focus(); });
    return b;
  });

  const table = html("div", { class: "wn-bars" }, root);
  const legend = html("p", { class: "figure-hint" }, root,
    "Upper bar: the attention weight. Lower bar: the share of the row’s total length of weighted vectors w·v. Outlined: the row’s targets.");
  const bars = data.words.map((word) => {
    const line = html("div", { class: "wn-line" }, table);
    html("span", { class: "wn-word" }, line, word);
    const cells = html("span", { class: "wn-pair" }, line);
    const pair = ["weight", "share"].map((kind) => {
      const one = html("span", { class: "wn-one wn-" + kind }, cells);
      const track = html("span", { class: "wn-track", "aria-hidden": "true" }, one);
      const fillEl = html("span", { class: "wn-fill" }, track);
      const num = html("span", { class: "wn-num" }, one);
      return { fillEl, num };
    });
    return { line, pair };
  });
  legend.before(table);

  function update() {
    const h = data.heads[head];
    radios.forEach((r, k) => { r.checked = k === head; });
    rowButtons.forEach((b, i) => b.setAttribute("aria-pressed", String(i === row)));
    bars.forEach((b, j) => {
      const values = [h.weights[row][j], h.shares[row][j]];
      b.pair.forEach((p, k) => {
        p.fillEl.style.setProperty("--v", String(values[k]));
        p.num.textContent = fill(data.text.parts.value, { v: values[k] });
      });
      b.line.classList.toggle("wn-target", data.targets.attached[row] === j || data.targets.previous[row] === j);
    });
    ctx.setText(data.text, head * n + row);
  }

  update();
  return {};
}
