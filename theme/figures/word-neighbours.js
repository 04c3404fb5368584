// word-neighbours: pick a word, see every other word ranked by cosine similarity of the full vectors.
// The rankings of all 16 words are embedded, so picking only switches lists; the bars are built
// once per width and updated in place, and the key numbers are the model's text for the word (the
// bars' labels are filled from its text.parts.similarity).
import { rowBars } from "../js/weights.js";
import { html, onResize, set, svg } from "../js/svg.js";
import { fill } from "../js/text.js";

const GROUP_NAMES = { animal: "Animals", place: "Places", describing: "Describing words" };

export function mount(root, ctx) {
  const data = ctx.data;
  let index = ctx.opening(data.start);

  const picker = html("div", { class: "word-picker", role: "radiogroup", "aria-label": "Word to compare" }, root);
  const radios = [];
  for (const group of Object.keys(GROUP_NAMES)) {
    const row = html("div", { class: "word-picker-row" }, picker);
    html("span", { class: "word-picker-group", "aria-hidden": "true" }, row, GROUP_NAMES[group]);
    data.words.forEach((word, i) => {
      if (data.groups[i] !== group) return;
      const b = html("button", { type: "button", role: "radio", class: "word-choice chip", "data-index": i }, row, word);
      b.addEventListener("click", () => pick(i, false));
      radios[i] = b;
    });
  }
  radios[index].setAttribute("data-key-control", "ArrowRight");
  // Arrow keys move through the words in reading order (one tab stop for the whole group).
  const order = [...picker.querySelectorAll("button")].map((b) => Number(b.dataset.index));
  picker.addEventListener("keydown", (e) => {
    const step = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 }[e.key];
    if (!step && e.key !== "Home" && e.key !== "End") return;
    e.preventDefault();
    const at = order.indexOf(index);
    const next = e.key === "Home" ? 0 : e.key === "End" ? order.length - 1 : (at + step + order.length) % order.length;
    pick(order[next], true);
  });
  const plot = html("div", { class: "figure-plot" }, root);

  let view = null;
  onResize(plot, (w) => { build(w); draw(); });

  function pick(i, focus) {
    index = i;
    draw();
    if (focus) radios[i].focus();
  }

  /** The chart for this width: the one time its svg is replaced. */
  function build(width) {
    const rows = data.rankings[index].length;
    const rowH = 20, top = 24, labelW = 62, pad = 8;
    const h = top + rows * rowH + 8;
    const s = svg("svg", { width, height: h, viewBox: `0 0 ${width} ${h}`, role: "img" });
    const title = svg("text", { x: pad, y: 14, class: "axis-label" }, s);
    const bars = rowBars(s, rows, "data");
    plot.replaceChildren(s);
    view = { s, title, bars, geo: { x0: labelW + 6, top, rowH, barH: 12, maxW: Math.max(80, width - labelW - pad - 44) } };
  }

  function draw() {
    radios.forEach((b, i) => {
      b.setAttribute("aria-checked", String(i === index));
      b.tabIndex = i === index ? 0 : -1;
    });
    const ranking = data.rankings[index];
    const word = data.words[index];
    set(view.s, { "aria-label": `Words ranked by similarity to “${word}”; nearest: ${ranking[0][0]}` });
    view.title.textContent = `Cosine similarity to “${word}” (${data.vector_length} numbers per word)`;
    view.bars({ ...view.geo, words: ranking.map(([w]) => w), values: ranking.map(([, v]) => v),
      labels: ranking.map(([, v]) => fill(data.text.parts.similarity, { v })),
      wordClass: (r) => (r === 0 ? "rank-word first" : "rank-word") });
    ctx.setText(data.text, index);
  }

  return {};
}
