// word-neighbours: pick a word, see every other word ranked by cosine similarity of the full vectors.
// The rankings of all 16 words are embedded, so picking only switches lists.
import { fmt, html, onResize, setNumbers, svg } from "../js/svg.js";

const GROUP_NAMES = { animal: "Animals", place: "Places", describing: "Describing words" };

export function mount(root, ctx) {
  const data = ctx.data;
  let index = data.start;

  const picker = html("div", { class: "word-picker", role: "radiogroup", "aria-label": "Word to compare" }, root);
  const radios = [];
  for (const group of Object.keys(GROUP_NAMES)) {
    const row = html("div", { class: "word-picker-row" }, picker);
    html("span", { class: "word-picker-group", "aria-hidden": "true" }, row, GROUP_NAMES[group]);
    data.words.forEach((word, i) => {
      if (data.groups[i] !== group) return;
      const b = html("button", { type: "button", role: "radio", class: "word-choice", "data-index": i }, row, word);
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

  let width = 560;
  onResize(plot, (w) => { width = w; draw(); });

  function pick(i, focus) {
    index = i;
    draw();
    if (focus) radios[i].focus();
  }

  function line() {
    return `Nearest to “${data.words[index]}”: ` + data.rankings[index].map(([w, s]) => w + " " + fmt(s)).join(", ");
  }

  function draw() {
    radios.forEach((b, i) => {
      b.setAttribute("aria-checked", String(i === index));
      b.tabIndex = i === index ? 0 : -1;
    });
    const ranking = data.rankings[index];
    const rowH = 20, top = 24, labelW = 62, pad = 8;
    const barMax = Math.max(80, width - labelW - pad - 44);
    const h = top + ranking.length * rowH + 8;
    const rootSvg = svg("svg", { width, height: h, viewBox: `0 0 ${width} ${h}`, role: "img",
      "aria-label": `Words ranked by similarity to “${data.words[index]}”; nearest: ${ranking[0][0]}` });
    svg("text", { x: pad, y: 14, class: "axis-label" }, rootSvg).textContent =
      `Cosine similarity to “${data.words[index]}” (${data.facts.vector_length} numbers per word)`;
    ranking.forEach(([word, s], r) => {
      const y = top + r * rowH;
      svg("text", { x: labelW, y: y + 14, class: r === 0 ? "rank-word first" : "rank-word", "text-anchor": "end" }, rootSvg)
        .textContent = word;
      const bw = Math.max(0.5, barMax * s);
      svg("rect", { x: labelW + 6, y: y + 4, width: bw, height: 12, class: "data" }, rootSvg);
      svg("text", { x: labelW + 10 + bw, y: y + 14, class: "value" }, rootSvg).textContent = fmt(s);
    });
    plot.replaceChildren(rootSvg);
    setNumbers(ctx.numbers, [line()]);
  }

  return {};
}
