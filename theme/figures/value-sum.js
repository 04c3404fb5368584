// value-sum: the output of "it" built term by term, each weight times a word's value, largest weight first.
// Both endings and every partial sum are in the embedded data: the toggle and the slider only choose
// what is shown. Left (or above, when narrow): the values as green points and the sum so far as a
// chain of arrows; right (or below): the table of terms, the ones not yet added greyed.
import { arrowHead } from "../js/arrows.js";
import { linear, ticks } from "../js/scale.js";
import { html, onResize, rangeControl, set, svg } from "../js/svg.js";
import { fill } from "../js/text.js";

const LO = -0.15, HI = 1.1; // the plane shown, in value units
const FAR = 0.1; // values farther than this from the origin get a name on the plane

export function mount(root, ctx) {
  const data = ctx.data;
  const id = ctx.figure.id;
  let last = data.last_words[ctx.opening(data.last_words.indexOf(data.params.last))];
  const n = data.modes[last].words.length;
  let shown = n; // terms added so far

  const toggles = html("div", { class: "figure-controls", role: "group", "aria-label": "Last word of the sentence" }, root);
  html("span", {}, toggles, "Last word:");
  const buttons = data.last_words.map((word) => {
    const b = html("button", { type: "button", class: "vs-toggle", "data-word": word }, toggles, word);
    b.addEventListener("click", () => { last = word; update(); });
    return b;
  });
  buttons.find((b) => b.dataset.word !== last)?.setAttribute("data-key-control", "Enter");
  const steps = html("div", { class: "figure-controls" }, root);
  const { input: slider, output: sliderOut } = rangeControl(steps, id + "-terms", "Terms added ", { max: n, value: n });
  slider.addEventListener("input", () => { shown = Number(slider.value); update(); });

  const body = html("div", { class: "vs-body" }, root);
  const plot = html("div", { class: "figure-plot vs-plot" }, body);
  const scroller = html("div", { class: "vs-table table-scroll", tabindex: 0, role: "region", "aria-label": "Terms of the sum" }, body);
  const table = html("table", {}, scroller);
  const caption = html("caption", {}, table);
  const head = html("tr", {}, html("thead", {}, table));
  ["word", "weight", "× value", "sum so far"].forEach((t) => html("th", { scope: "col" }, head, t));
  const tbody = html("tbody", {}, table);
  const rows = Array.from({ length: n }, () => {
    const tr = html("tr", {}, tbody);
    return { tr, word: html("th", { scope: "row" }, tr), weight: html("td", {}, tr), value: html("td", {}, tr), sum: html("td", {}, tr) };
  });

  const num = (v) => fill(data.text.parts.number, { v });
  const pair = (p) => `(${num(p[0])}, ${num(p[1])})`;
  let view = null;
  onResize(plot, (w) => { build(Math.min(w, 360)); update(); });


  /** The plane for this width: built once per width, its points and arrows updated in place. */
  function build(width) {
    const size = width, pad = 30;
    const sx = linear([LO, HI], [pad, size - 8]), sy = linear([LO, HI], [size - pad, 8]);
    const s = svg("svg", { width: size, height: size, viewBox: `0 0 ${size} ${size}`, role: "img" });
    const head = arrowHead(s, id + "-vs-head", "vs-head", { refX: 9, size: 5 });
    svg("line", { x1: sx(LO), x2: sx(HI), y1: sy(0), y2: sy(0), class: "axis" }, s);
    svg("line", { x1: sx(0), x2: sx(0), y1: sy(LO), y2: sy(HI), class: "axis" }, s);
    ticks(s, { xs: [0.5, 1], ys: [0.5, 1], sx, sy });
    const points = Array.from({ length: n }, () => svg("circle", { r: 3.5, class: "vs-value" }, s));
    const names = Array.from({ length: n }, () => svg("text", { class: "vs-name" }, s));
    const arrows = Array.from({ length: n }, () => svg("line", { class: "vs-term", "marker-end": head }, s));
    const dot = svg("circle", { r: 5, class: "vs-output" }, s);
    view = { s, draw: (mode) => {
      mode.values.forEach((v, i) => {
        set(points[i], { cx: sx(v[0]), cy: sy(v[1]) });
        const far = Math.abs(v[0]) > FAR || Math.abs(v[1]) > FAR;
        const right = v[0] > 0.6; // names near the right edge end at their point
        set(names[i], { x: sx(v[0]) + (right ? 0 : 5), y: sy(v[1]) - 7, "text-anchor": right ? "middle" : "start",
          visibility: far ? "visible" : "hidden" });
        names[i].textContent = mode.words[i];
      });
      arrows.forEach((a, k) => {
        const [p, q] = [mode.running[k], mode.running[k + 1]];
        const long = Math.hypot(sx(q[0]) - sx(p[0]), sy(q[1]) - sy(p[1])) > 6; // a head only where it fits
        set(a, { x1: sx(p[0]), y1: sy(p[1]), x2: sx(q[0]), y2: sy(q[1]),
          visibility: k < shown ? "visible" : "hidden", "marker-end": long ? head : "none" });
      });
      set(dot, { cx: sx(mode.running[shown][0]), cy: sy(mode.running[shown][1]) });
    } };
    plot.replaceChildren(s);
  }

  function update() {
    const i = data.last_words.indexOf(last);
    const mode = data.modes[last];
    buttons.forEach((b) => b.setAttribute("aria-pressed", String(b.dataset.word === last)));
    set(view.s, { "aria-label": data.text.states[i].label });
    view.draw(mode);
    sliderOut.textContent = `${shown} of ${n}: ${pair(mode.running[shown])}`;
    caption.textContent = `The output of “it” with “${last}”, one term at a time`;
    mode.order.forEach((w, k) => {
      const r = rows[k];
      r.tr.classList.toggle("vs-pending", k >= shown);
      r.tr.classList.toggle("vs-latest", k === shown - 1);
      r.word.textContent = mode.words[w];
      r.weight.textContent = fill(data.text.parts.weight, { v: mode.weights[w] });
      r.value.textContent = pair(mode.values[w]);
      r.sum.textContent = pair(mode.running[k + 1]);
    });
    ctx.setText(data.text, i);
  }

  return {};
}
