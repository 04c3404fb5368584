// exp-log: each word's score (draggable bars), e to that score, and its share of the total, in three
// rows; below, the loss −ln p against the right answer's share p, with a dot where it stands.
// The right answer's bar steps through data.stops, every one precomputed by the model: stop i is
// state i of data.text.states (its keys and drags need no Python). Dragging another word's bar asks
// the worker, whose answer brings the stops again for the new scores; without Python that bar goes
// back and the figure's note says why. Labels are filled from data.text.parts; the lines under the
// plot are the state's last two key numbers (data.text.states[i].numbers): the ratio and the loss.
import { scoreBars } from "../js/bars.js";
import { latestOnly } from "../js/latest.js";
import { linear, ticks } from "../js/scale.js";
import { html, nearestIndex, onResize, set, svg } from "../js/svg.js";
import { fill } from "../js/text.js";
import { columnRow } from "../js/weights.js";

const PAD = { l: 58, r: 12 };
const ROW = { score: [8, 96], exp: [130, 62], share: [222, 62] }; // [top, height] of each row of bars
const WORDS_Y = 304, LOSS = { top: 330, height: 130 }, H = 498;

export function mount(root, ctx) {
  let data = ctx.data;
  let stop = ctx.opening(data.start);
  const n = data.labels.length, k = data.answer;
  const schema = data.schema.scores;
  let scores = current(); // what the bars show: the state's scores, or the reader's edit while it is computed
  let waiting = false, timer = null;
  const ask = latestOnly(ctx);

  function current() {
    return data.scores.map((v, j) => (j === k ? data.stops[stop] : v));
  }

  const plot = html("div", { class: "figure-plot" }, root);
  const s = svg("svg", { role: "group", "aria-label": "Scores, their exponentials and shares, and the loss" }, plot);
  let frame = svg("g", {}, s); // labels, axes and the loss curve: redrawn for a new width
  const bars = scoreBars(svg("g", {}, s), { labels: data.labels, schema, part: data.text.parts.score,
    keyControl: null, onChange });
  const barEls = s.querySelectorAll(".score-bar");
  barEls[k].setAttribute("data-key-control", "ArrowUp"); // the right answer's bar: precomputed
  barEls[k].setAttribute("aria-label", `score of ${data.labels[k]}, the right answer`);
  const exps = columnRow(svg("g", {}, s), n, "data");
  const shares = columnRow(svg("g", {}, s), n, "prediction");
  const guide = svg("line", { class: "el-guide" }, s);
  const dot = svg("circle", { class: "el-dot", r: 5 }, s);
  const lines = html("p", { class: "el-lines", "aria-live": "polite" }, root);
  const lineEls = [0, 1].map(() => html("span", {}, lines)); // the ratio and the loss: the bars show the rest
  html("p", { class: "figure-hint" }, root,
    `Drag a score bar, or focus it (Tab) and use the arrow keys. The right answer is ${data.labels[k]}.`);

  let geo = null;
  onResize(plot, (w) => { layout(w); update(); });

  function onChange(i, value) {
    const v = Math.max(schema.lo, Math.min(schema.hi, Math.round(value / schema.step) * schema.step)) + 0;
    if (v === scores[i]) return;
    if (i === k && !waiting) { // the right answer's score: a precomputed stop
      stop = nearestIndex(data.stops, v);
      scores = current();
      update();
      return;
    }
    scores[i] = v;
    waiting = true;
    update();
    clearTimeout(timer);
    timer = setTimeout(async () => {
      const answer = await ask({ ...data.params, scores: [...scores] });
      if (!answer) return; // a newer request is on its way
      const { out } = answer;
      waiting = false;
      if (out) {
        data = out;
        stop = data.start;
      }
      scores = current();
      update();
    }, 150);
  }

  function layout(width) {
    const innerW = Math.max(160, width - PAD.l - PAD.r), band = innerW / n;
    const sx = linear([0, 1], [PAD.l, PAD.l + innerW]);
    const sy = linear([0, Math.max(...data.curve.loss)], [LOSS.top + LOSS.height, LOSS.top]);
    geo = { band, barW: Math.min(48, band * 0.55), cx: (i) => PAD.l + band * (i + 0.5), sx, sy, width };
    set(s, { width, height: H, viewBox: `0 0 ${width} ${H}` });
    const f = svg("g");
    [["score", ROW.score], ["e^score", ROW.exp], ["share", ROW.share]].forEach(([name, [top, h]]) => {
      svg("text", { x: 2, y: top + h / 2 + 4, class: "axis-label" }, f).textContent = name;
    });
    const zero = ROW.score[0] + ROW.score[1] / 2;
    svg("line", { x1: PAD.l, x2: PAD.l + innerW, y1: zero, y2: zero, class: "axis" }, f);
    for (const [top, h] of [ROW.exp, ROW.share]) {
      svg("line", { x1: PAD.l, x2: PAD.l + innerW, y1: top + h, y2: top + h, class: "axis" }, f);
    }
    data.labels.forEach((word, i) => {
      const t = svg("text", { x: geo.cx(i), y: WORDS_Y, class: "tick" + (i === k ? " el-right" : ""), "text-anchor": "middle" }, f);
      t.textContent = word;
    });
    const base = LOSS.top + LOSS.height;
    svg("line", { x1: sx(0), x2: sx(1), y1: base, y2: base, class: "axis" }, f);
    svg("line", { x1: sx(0), x2: sx(0), y1: LOSS.top, y2: base, class: "axis" }, f);
    ticks(f, { xs: [0.5, 1], sx, sy, x0: 0, y0: 0 });
    ticks(f, { ys: [2, 4], sx, sy, x0: 0, y0: 0 });
    svg("text", { x: 2, y: LOSS.top + 10, class: "axis-label" }, f).textContent = "−ln p";
    svg("text", { x: sx(1), y: base + 31, class: "axis-label", "text-anchor": "end" }, f).textContent =
      `share p of ${data.labels[k]}`;
    svg("path", { class: "el-curve", d: data.curve.p.map((p, i) =>
      `${i ? "L" : "M"}${sx(p).toFixed(1)},${sy(data.curve.loss[i]).toFixed(1)}`).join("") }, f);
    frame.replaceWith(f);
    frame = f;
  }

  function update() {
    if (!geo) return;
    const parts = data.text.parts;
    bars({ scores, ...geo, top: ROW.score[0], height: ROW.score[1], maxAbs: Math.max(-schema.lo, schema.hi) });
    const e = data.exps[stop], w = data.shares[stop];
    exps({ values: e, labels: e.map((v) => fill(parts.exp, { v })), ...geo, top: ROW.exp[0], height: ROW.exp[1],
      max: Math.max(...e) });
    shares({ values: w, labels: w.map((v) => fill(parts.share, { v })), ...geo, top: ROW.share[0],
      height: ROW.share[1], max: 1 });
    const p = w[k], loss = data.loss[stop];
    const { sx, sy } = geo;
    set(dot, { cx: sx(p), cy: sy(Math.min(loss, sy.invert(LOSS.top))) });
    set(guide, { x1: sx(p), x2: sx(p), y1: LOSS.top + LOSS.height, y2: sy(Math.min(loss, sy.invert(LOSS.top))) });
    const numbers = data.text.states[stop].numbers.slice(-2);
    lineEls.forEach((el, j) => { el.textContent = numbers[j]; });
    lines.classList.toggle("stale", waiting);
    ctx.setText(data.text, stop);
  }

  return {};
}
