// bpe-merges: byte-pair merges learned on the series' prose. The slider steps through the merge
// counts the model precomputed (data.stops; state i is stop i, as text.states): the sentence as a
// row of token boxes (data.tokens[i]), the whole text's length in tokens as a curve over every
// merge count (data.lengths) with the stop marked, the stop's numbers in one line, and the latest
// merges. Tapping or dragging along the curve picks the nearest stop. Nothing asks Python.
import { drag, html, nearestIndex, onResize, rangeControl, set, svg } from "../js/svg.js";
import { fill } from "../js/text.js";

const CHART_H = 110, PAD = 8, LEFT = 52, BOTTOM = 26;

export function mount(root, ctx) {
  const data = ctx.data;
  const parts = data.text.parts;
  const space = data.text.space; // the model's mark for a token's leading space, and its name
  const last = data.stops.length - 1;
  let i = ctx.opening(data.start);

  const controls = html("div", { class: "figure-controls" }, root);
  // Opened on the last stop, the left arrow takes merges away; opened earlier, the right adds them.
  const slider = rangeControl(controls, ctx.figure.id + "-merges", "Merges ",
    { max: String(last), value: String(i), "data-key-control": i === last ? "ArrowLeft" : "ArrowRight" });
  slider.input.addEventListener("input", () => show(Number(slider.input.value)));

  const tokens = html("ol", { class: "bpe-tokens", "aria-label": "The sentence's tokens" }, root);
  const readout = html("p", { class: "bpe-readout", "aria-live": "polite" }, root);
  html("p", { class: "bpe-chart-title" }, root, "The whole text's length in tokens");
  const plot = html("div", { class: "figure-plot bpe-plot" }, root);
  html("p", { class: "bpe-latest-title" }, root, "Latest merges, newest first");
  const latest = html("ol", { class: "bpe-latest" }, root);
  html("p", { class: "figure-hint" }, root, data.text.legend);

  let chart = null;
  onResize(plot, (w) => { build(Math.min(w, 480)); draw(); });

  /** The curve for this width: the text's length in tokens against merges, ticks from the model. */
  function build(w) {
    const n = data.lengths.length - 1;
    const yHi = data.axis.y[data.axis.y.length - 1][0];
    const xs = (k) => LEFT + (k / (n || 1)) * (w - LEFT - PAD);
    const ys = (v) => CHART_H - BOTTOM - (v / yHi) * (CHART_H - BOTTOM - PAD);
    const s = svg("svg", { width: w, height: CHART_H, viewBox: `0 0 ${w} ${CHART_H}`, role: "img" });
    for (const [v, label] of data.axis.y) {
      svg("text", { x: LEFT - 4, y: ys(v) + 4, class: "tick", "text-anchor": "end" }, s).textContent = label;
    }
    for (const [k, label] of data.axis.x) {
      const anchor = k === 0 ? "start" : "end";
      svg("text", { x: xs(k), y: CHART_H - BOTTOM + 14, class: "tick", "text-anchor": anchor }, s).textContent = label;
    }
    svg("text", { x: (LEFT + w - PAD) / 2, y: CHART_H - 2, class: "axis-label", "text-anchor": "middle" }, s)
      .textContent = "merges";
    svg("line", { x1: LEFT, x2: w - PAD, y1: ys(0), y2: ys(0), class: "axis" }, s);
    svg("line", { x1: LEFT, x2: LEFT, y1: PAD, y2: ys(0), class: "axis" }, s);
    svg("polyline", { class: "bpe-curve", points: data.lengths.map((v, k) => `${xs(k)},${ys(v)}`).join(" ") }, s);
    const stopDots = data.stops.map((k) => svg("circle", { cx: xs(k), cy: ys(data.lengths[k]), r: 2, class: "bpe-stop" }, s));
    const marker = svg("circle", { r: 5, class: "bpe-now" }, s);
    const hit = svg("rect", { x: LEFT, y: 0, width: w - LEFT, height: CHART_H, class: "hit" }, s);
    const xsOfStops = data.stops.map(xs);
    drag(hit, s, (p) => show(nearestIndex(xsOfStops, p.x)));
    chart = { s, xs, ys, marker, stopDots };
    plot.replaceChildren(s);
  }

  /** A token as a box; a leading space is a mark of its own, so "·the" and "the" read apart. */
  function box(token) {
    const li = html("li", { class: token.length > 1 ? "bpe-token bpe-merged" : "bpe-token" }, tokens);
    const spaced = token.startsWith(space.mark);
    if (spaced) html("span", { class: "bpe-space", title: space.name }, li, space.mark);
    li.append(spaced ? token.slice(space.mark.length) : token);
  }

  function draw() {
    const k = data.stops[i];
    const text = data.text.states[i];
    slider.input.value = String(i);
    slider.output.textContent = fill(parts.readout, { v: k });
    set(slider.input, { "aria-valuetext": text.label });
    tokens.replaceChildren();
    data.tokens[i].forEach(box);
    readout.textContent = text.label;
    latest.replaceChildren();
    const shown = data.merges.slice(Math.max(0, k - data.latest), k).reverse();
    if (!shown.length) html("li", { class: "bpe-none" }, latest, parts.none);
    for (const merge of shown) html("li", {}, latest, merge);
    if (chart) {
      set(chart.marker, { cx: chart.xs(k), cy: chart.ys(data.lengths[k]) });
      chart.stopDots.forEach((dot, j) => dot.classList.toggle("bpe-stop-on", j === i));
      set(chart.s, { "aria-label": text.label });
    }
  }

  function show(next) {
    const j = Math.max(0, Math.min(last, next));
    if (j === i && slider.input.value === String(j)) return;
    i = j;
    draw();
    ctx.setText(data.text, i);
  }

  draw();
  ctx.setText(data.text, i);
  return {};
}
