// winograd-head: where "it" looks in "The animal didn't cross the street because it was too tired/wide".
// Both endings are in the embedded data, so the toggle only switches between them.
// Wide screens: the sentence on one line, arcs from "it", bars under the words.
// Narrow screens: one word per line with a horizontal bar.
// The drawing is built once per width and updated in place; its label and the key numbers are
// the model's text for the ending shown (data.text.states, indexed like last_words).
import { columnRow, rowBars } from "../js/weights.js";
import { html, onResize, set, svg } from "../js/svg.js";
import { fill } from "../js/text.js";

const NARROW = 520; // below this width the sentence is drawn one word per line

export function mount(root, ctx) {
  const data = ctx.data;
  let last = data.last_words[ctx.opening(data.last_words.indexOf(data.params.last))];
  const n = data.modes[last].words.length;

  const controls = html("div", { class: "figure-controls", role: "group", "aria-label": "Last word of the sentence" }, root);
  html("span", {}, controls, "Last word:");
  const buttons = data.last_words.map((word) => {
    const b = html("button", { type: "button", class: "toggle", "data-word": word }, controls, word);
    b.addEventListener("click", () => { last = word; update(); });
    return b;
  });
  // The keyboard check presses Enter on the word that is not shown first.
  buttons.find((b) => b.dataset.word !== last)?.setAttribute("data-key-control", "Enter");
  const plot = html("div", { class: "figure-plot" }, root);
  const details = html("details", { class: "winograd-numbers" }, root);
  html("summary", {}, details, "The numbers each word starts with");
  const scroller = html("div", { class: "table-scroll", tabindex: 0, role: "region",
    "aria-label": "Numbers per word" }, details);

  // The table of each word's numbers (one column per feature of the model), built once.
  const table = html("table", {}, scroller);
  const caption = html("caption", {}, table);
  const headRow = html("tr", {}, html("thead", {}, table));
  html("th", { scope: "col" }, headRow, "word");
  data.features.forEach((f) => html("th", { scope: "col" }, headRow, f));
  const body = html("tbody", {}, table);
  const tableRows = Array.from({ length: n }, (_, i) => {
    const tr = html("tr", i === data.it ? { class: "query-row" } : {}, body);
    return { word: html("th", { scope: "row" }, tr), cells: data.features.map(() => html("td", {}, tr)) };
  });

  let view = null;
  onResize(plot, (w) => { build(w); update(); });

  function wordClass(mode, i) {
    return i === data.it ? "word query-word" : (i === mode.top ? "word top-word" : "word");
  }

  /** The drawing for this width (wide or narrow): the one time its svg is replaced. */
  function build(width) {
    const narrow = width < NARROW;
    const h = narrow ? 26 + n * 24 + 6 : 260;
    const s = svg("svg", { width, height: h, viewBox: `0 0 ${width} ${h}`, role: "img" });
    const pad = 8;
    if (narrow) {
      svg("text", { x: pad, y: 14, class: "axis-label" }, s).textContent = "Attention from “it” to each word";
      const bars = rowBars(s, n, "prediction");
      const geo = { x0: 76, top: 26, rowH: 24, barH: 13, maxW: Math.max(60, width - 70 - pad - 46) };
      view = { s, draw: (mode) => bars({ ...geo, words: mode.words, values: mode.weights,
        labels: barLabels(), wordClass: (i) => wordClass(mode, i) }) };
    } else {
      const wordY = 150, barTop = 168, barH = 70;
      const arcs = Array.from({ length: n }, () => svg("path", { class: "arc" }, s));
      const words = Array.from({ length: n }, () => svg("text", { y: wordY, "text-anchor": "middle" }, s));
      const columns = columnRow(s, n, "prediction");
      svg("line", { x1: pad, x2: width - pad, y1: barTop + barH, y2: barTop + barH, class: "axis" }, s);
      svg("text", { x: pad, y: 14, class: "axis-label" }, s).textContent =
        "Arcs and bars: how much of its attention “it” gives each word";
      view = { s, draw: (mode) => {
        // Each word gets room in proportion to its length.
        const chars = mode.words.map((w) => w.length + 2);
        const unit = (width - 2 * pad) / chars.reduce((a, b) => a + b, 0);
        const xs = [];
        let at = pad;
        for (const c of chars) { xs.push(at + (c * unit) / 2); at += c * unit; }
        const x0 = xs[data.it];
        mode.words.forEach((w, i) => {
          const weight = mode.weights[i];
          const lift = 20 + Math.abs(xs[i] - x0) * 0.35;
          set(arcs[i], { d: i === data.it ? "" : `M ${x0} ${wordY - 18} Q ${(x0 + xs[i]) / 2} ${wordY - 18 - lift} ${xs[i]} ${wordY - 18}`,
            "stroke-width": 0.5 + 12 * weight, "stroke-opacity": 0.25 + 0.75 * weight });
          set(words[i], { x: xs[i], class: wordClass(mode, i) });
          words[i].textContent = w;
        });
        columns({ values: mode.weights, labels: barLabels(), cx: (i) => xs[i], barW: 18,
          top: barTop, height: barH, max: 1 });
      } };
    }
    plot.replaceChildren(s);
  }

  /** The labels at the bars of the sentence shown: the model's, as the static figure prints them. */
  function barLabels() { return data.text.states[data.last_words.indexOf(last)].bars; }

  function update() {
    const i = data.last_words.indexOf(last);
    const mode = data.modes[last];
    const text = data.text.states[i];
    buttons.forEach((b) => b.setAttribute("aria-pressed", String(b.dataset.word === last)));
    set(view.s, { "aria-label": text.label });
    view.draw(mode);
    caption.textContent = `Numbers per word (with “${last}”)`;
    tableRows.forEach((r, k) => {
      r.word.textContent = mode.words[k];
      r.cells.forEach((td, f) => { td.textContent = fill(data.text.parts.cell, { v: mode.vectors[k][f] }); });
    });
    ctx.setText(data.text, i);
  }

  return {};
}
