// softmax-temperature: scores (draggable, top) become weights (bottom) at the chosen temperature.
// The temperature slider walks the precomputed grid; changing a score asks the worker.
import { drag, fmt, html, nearestIndex, onResize, setNumbers, svg } from "../js/svg.js";

const SCORE_MAX = 10;
const SCORE_STEP = 0.5;

export function mount(root, ctx) {
  let data = ctx.data;
  let index = data.start;
  let scores = [...data.scores];
  let waiting = false;

  const controls = html("div", { class: "figure-controls" }, root);
  const label = html("label", { for: ctx.figure.id + "-t" }, controls, "Temperature ");
  const slider = html("input", { type: "range", id: ctx.figure.id + "-t", min: 0, step: 1,
    "data-key-control": "ArrowRight" }, label);
  const readout = html("output", { for: slider.id }, controls);
  const plot = html("div", { class: "figure-plot drag-y" }, root);
  const hint = html("p", { class: "figure-hint" }, root,
    "Drag a score bar up or down, or focus it and use the arrow keys, to change that word's score.");

  slider.addEventListener("input", () => { index = Number(slider.value); draw(); });

  let width = 560;
  onResize(plot, (w) => { width = w; draw(); });

  function temperature() { return data.temperatures[index]; }

  function setScore(i, value) {
    const v = Math.max(-SCORE_MAX, Math.min(SCORE_MAX, Math.round(value / SCORE_STEP) * SCORE_STEP));
    if (v === scores[i]) return;
    scores[i] = v;
    draw();
    recompute();
  }

  let timer = null;
  function recompute() {
    clearTimeout(timer);
    waiting = true;
    timer = setTimeout(async () => {
      const t = temperature();
      const out = await ctx.request({ ...data.params, scores: [...scores], temperature: t });
      waiting = false;
      if (out) {
        data = out;
        index = nearestIndex(data.temperatures, t);
        ctx.markLive();
      } else {
        scores = [...data.scores]; // keep what the figure can show honestly
      }
      draw();
    }, 150);
  }

  function draw() {
    const n = data.labels.length;
    const h = 300;
    const pad = { l: 44, r: 10, t: 14, b: 30 };
    const innerW = Math.max(120, width - pad.l - pad.r);
    const band = innerW / n;
    const barW = Math.min(56, band * 0.6);
    const scoreTop = pad.t, scoreH = 100, zeroY = scoreTop + scoreH / 2;
    const weightTop = scoreTop + scoreH + 40, weightH = h - weightTop - pad.b;
    const weights = data.weights[index];
    const maxAbs = Math.max(SCORE_MAX / 2, ...scores.map(Math.abs));
    const sy = (s) => zeroY - (s / maxAbs) * (scoreH / 2);

    slider.max = data.temperatures.length - 1;
    slider.value = index;
    slider.setAttribute("aria-valuetext", "temperature " + fmt(temperature()));
    readout.textContent = "T = " + fmt(temperature()) + (waiting ? " (recomputing…)" : "");

    // role "group", not "img": the score bars inside are focusable sliders.
    const root = svg("svg", { width, height: h, viewBox: `0 0 ${width} ${h}`, role: "group",
      "aria-label": "Scores and softmax weights at temperature " + fmt(temperature()) });
    svg("text", { x: 4, y: scoreTop + 10, class: "axis-label" }, root).textContent = "score";
    svg("text", { x: 4, y: weightTop + 10, class: "axis-label" }, root).textContent = "weight";
    svg("line", { x1: pad.l, x2: pad.l + innerW, y1: zeroY, y2: zeroY, class: "axis" }, root);
    svg("line", { x1: pad.l, x2: pad.l + innerW, y1: weightTop + weightH, y2: weightTop + weightH, class: "axis" }, root);

    data.labels.forEach((word, i) => {
      const cx = pad.l + band * (i + 0.5);
      const s = scores[i];
      const bar = svg("g", { class: "score-bar", tabindex: 0, role: "slider", "aria-label": "score of " + word,
        "aria-valuemin": -SCORE_MAX, "aria-valuemax": SCORE_MAX, "aria-valuenow": s }, root);
      svg("rect", { x: cx - band / 2, y: scoreTop, width: band, height: scoreH, class: "hit" }, bar);
      svg("rect", { x: cx - barW / 2, y: Math.min(sy(s), zeroY), width: barW,
        height: Math.max(1, Math.abs(sy(s) - zeroY)), class: "data" }, bar);
      svg("text", { x: cx, y: s >= 0 ? sy(s) - 4 : sy(s) + 12, class: "value", "text-anchor": "middle" }, bar)
        .textContent = fmt(s, 1);
      drag(bar, root, (p) => setScore(i, ((zeroY - p.y) / (scoreH / 2)) * maxAbs));
      bar.addEventListener("keydown", (e) => {
        const step = { ArrowUp: SCORE_STEP, ArrowRight: SCORE_STEP, ArrowDown: -SCORE_STEP, ArrowLeft: -SCORE_STEP }[e.key];
        if (step === undefined) return;
        e.preventDefault();
        setScore(i, scores[i] + step);
      });

      const w = weights[i];
      const top = weightTop + weightH * (1 - w);
      svg("rect", { x: cx - barW / 2, y: top, width: barW, height: Math.max(0.5, weightH * w), class: "prediction" }, root);
      svg("text", { x: cx, y: top - 4, class: "value", "text-anchor": "middle" }, root).textContent = fmt(w);
      svg("text", { x: cx, y: h - 10, class: "tick", "text-anchor": "middle" }, root).textContent = word;
    });
    const focused = [...plot.querySelectorAll(".score-bar")].indexOf(document.activeElement);
    plot.replaceChildren(root);
    if (focused >= 0) plot.querySelectorAll(".score-bar")[focused].focus();

    setNumbers(ctx.numbers, [
      "Scores: " + data.labels.map((l, i) => l + " " + fmt(scores[i], 1)).join(", "),
      "Temperature " + fmt(temperature()) + ": " + data.labels.map((l, i) => l + " " + fmt(weights[i])).join(", "),
    ]);
  }

  return {};
}

