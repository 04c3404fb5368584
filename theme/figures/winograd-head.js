// winograd-head: where "it" looks in "The animal didn't cross the street because it was too tired/wide".
// Both endings are in the embedded data, so the toggle only switches between them.
// Wide screens: the sentence on one line, arcs from "it", bars under the words.
// Narrow screens: one word per line with a horizontal bar.
import { fmt, html, onResize, setNumbers, svg } from "../js/svg.js";

const NARROW = 520; // below this width the sentence is drawn one word per line

export function mount(root, ctx) {
  const data = ctx.data;
  let last = data.params.last;

  const controls = html("div", { class: "figure-controls", role: "group", "aria-label": "Last word of the sentence" }, root);
  html("span", {}, controls, "Last word:");
  const buttons = data.last_words.map((word) => {
    const b = html("button", { type: "button", class: "toggle", "data-word": word }, controls, word);
    b.addEventListener("click", () => { last = word; draw(); });
    return b;
  });
  // The keyboard check presses Enter on the word that is not shown first.
  buttons.find((b) => b.dataset.word !== last)?.setAttribute("data-key-control", "Enter");
  const plot = html("div", { class: "figure-plot" }, root);
  const details = html("details", { class: "winograd-numbers" }, root);
  html("summary", {}, details, "The six numbers each word starts with");
  const scroller = html("div", { class: "table-scroll", tabindex: 0, role: "region",
    "aria-label": "Six numbers per word" }, details);

  let width = 560;
  onResize(plot, (w) => { width = w; draw(); });

  function line(mode) {
    return `Last word “${last}”, attention from “it”: ` +
      mode.words.map((w, i) => w + " " + fmt(mode.weights[i])).join(", ");
  }

  function drawWide(mode, rootSvg, h) {
    const pad = 8;
    const chars = mode.words.map((w) => w.length + 2);
    const total = chars.reduce((a, b) => a + b, 0);
    const unit = (width - 2 * pad) / total;
    const xs = [];
    let at = pad;
    for (const c of chars) { xs.push(at + (c * unit) / 2); at += c * unit; }
    const wordY = 150, barTop = 168, barH = 70;
    const it = data.it;
    mode.words.forEach((w, i) => {
      const weight = mode.weights[i];
      if (i !== it) {
        const x0 = xs[it], x1 = xs[i];
        const lift = 20 + Math.abs(x1 - x0) * 0.35;
        svg("path", { d: `M ${x0} ${wordY - 18} Q ${(x0 + x1) / 2} ${wordY - 18 - lift} ${x1} ${wordY - 18}`,
          class: "arc", "stroke-width": 0.5 + 12 * weight, "stroke-opacity": 0.25 + 0.75 * weight }, rootSvg);
      }
    });
    mode.words.forEach((w, i) => {
      const weight = mode.weights[i];
      const cls = i === it ? "word query-word" : (i === mode.top ? "word top-word" : "word");
      svg("text", { x: xs[i], y: wordY, class: cls, "text-anchor": "middle" }, rootSvg).textContent = w;
      const hgt = Math.max(1, barH * weight);
      svg("rect", { x: xs[i] - 9, y: barTop + barH - hgt, width: 18, height: hgt, class: "prediction" }, rootSvg);
      svg("text", { x: xs[i], y: barTop + barH + 14, class: "value", "text-anchor": "middle" }, rootSvg)
        .textContent = Math.round(weight * 100) + "%";
    });
    svg("line", { x1: pad, x2: width - pad, y1: barTop + barH, y2: barTop + barH, class: "axis" }, rootSvg);
    svg("text", { x: pad, y: 14, class: "axis-label" }, rootSvg).textContent =
      "Arcs and bars: how much of its attention “it” gives each word";
    return h;
  }

  function drawNarrow(mode, rootSvg) {
    const rowH = 24, top = 26, labelW = 70, pad = 8;
    const barW = Math.max(60, width - labelW - pad - 46);
    svg("text", { x: pad, y: 14, class: "axis-label" }, rootSvg).textContent = "Attention from “it” to each word";
    mode.words.forEach((w, i) => {
      const y = top + i * rowH;
      const cls = i === data.it ? "word query-word" : (i === mode.top ? "word top-word" : "word");
      svg("text", { x: labelW, y: y + 15, class: cls, "text-anchor": "end" }, rootSvg).textContent = w;
      const bw = Math.max(1, barW * mode.weights[i]);
      svg("rect", { x: labelW + 6, y: y + 5, width: bw, height: 13, class: "prediction" }, rootSvg);
      svg("text", { x: labelW + 10 + bw, y: y + 15, class: "value" }, rootSvg)
        .textContent = Math.round(mode.weights[i] * 100) + "%";
    });
    return top + mode.words.length * rowH + 6;
  }

  function drawTable(mode) {
    const table = html("table", {});
    html("caption", {}, table, `Six numbers per word (with “${last}”)`);
    const head = html("tr", {}, html("thead", {}, table));
    html("th", { scope: "col" }, head, "word");
    data.features.forEach((f) => html("th", { scope: "col" }, head, f));
    const body = html("tbody", {}, table);
    mode.words.forEach((w, i) => {
      const tr = html("tr", i === data.it ? { class: "query-row" } : {}, body);
      html("th", { scope: "row" }, tr, w);
      mode.vectors[i].forEach((v) => html("td", {}, tr, fmt(v, 1)));
    });
    scroller.replaceChildren(table);
  }

  function draw() {
    const mode = data.modes[last];
    buttons.forEach((b) => b.setAttribute("aria-pressed", String(b.dataset.word === last)));
    const narrow = width < NARROW;
    const h = narrow ? 26 + mode.words.length * 24 + 6 : 260;
    const top = mode.words[mode.top];
    const rootSvg = svg("svg", { width, height: h, viewBox: `0 0 ${width} ${h}`, role: "img",
      "aria-label": `With “${last}”, “it” puts ${Math.round(mode.weights[mode.top] * 100)}% of its attention on “${top}”` });
    if (narrow) drawNarrow(mode, rootSvg); else drawWide(mode, rootSvg, h);
    plot.replaceChildren(rootSvg);
    drawTable(mode);
    setNumbers(ctx.numbers, [line(mode)]);
  }

  return {};
}
