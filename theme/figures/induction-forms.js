// induction-forms: a two-layer attention-only model learning to continue a repeated sequence.
// Two charts share one step axis: the training loss, and the in-context score at each checkpoint,
// with the phase change marked (shaded: where the score fell fastest; dashed: the step a layer-2
// head's prefix-matching score reached 0.5). Below, all four heads on one repeated sequence at the
// step the slider picks. The embedded run draws before Python loads (data.states, one per
// checkpoint; text.states indexed the same way); Train runs a new seed as a worker job, streaming
// the loss and the heads, and draws the finished run as live data.
import { html, onResize, rangeControl, svg } from "../js/svg.js";
import { headTable } from "../js/weights.js";

const CHART_H = 90, PAD = 6;

export function mount(root, ctx) {
  let data = ctx.data;
  let k = data.start; // the checkpoint shown
  let losses = data.losses; // what the loss chart draws: the run's, or the steps so far while training
  let icl = data.checkpoints.map((s, i) => [s, data.states[i].in_context]);
  let state = data.states[k]; // what the grids draw
  const id = ctx.figure.id;

  const controls = html("div", { class: "figure-controls" }, root);
  // It opens on the trained model, the last checkpoint: the left arrow steps back through training.
  const slider = rangeControl(controls, id + "-step", "Step ",
    { max: String(data.checkpoints.length - 1), value: String(k), "data-key-control": "ArrowLeft" });
  const train = html("button", { type: "button" }, controls, "Train");
  const cancel = html("button", { type: "button", hidden: "" }, controls, "Cancel");
  const progressLabel = html("label", { class: "th-progress", for: id + "-progress" }, controls, "Training ");
  const progress = html("progress", { id: id + "-progress", max: String(data.steps), value: String(data.steps) }, progressLabel);
  const status = html("output", { class: "th-status", "aria-live": "polite" }, root);

  const charts = html("div", { class: "if-charts" }, root);
  const lossChart = chart(charts, "Training loss, step by step");
  const iclChart = chart(charts, "In-context score: loss on the repeat minus loss on the first half");
  html("p", { class: "figure-hint" }, root,
    "Shaded: where the in-context score fell fastest. Dashed: the step a layer-2 head first put half its weight on the token after the earlier copy.");
  const heads = html("div", { class: "th-heads if-heads" }, root);
  html("p", { class: "figure-hint" }, root,
    "Rows: the position looking; columns: the positions it reads (▸ is the start). Outlined: the previous token in layer 1, the token after the earlier copy in layer 2.");

  let cells = null; // cells[layer][h][i][j], built once per sequence and repainted in place
  function buildHeads() {
    heads.replaceChildren();
    const words = data.tokens;
    const none = words.map(() => null);
    cells = state.heads.map((layer, l) => layer.map((_, h) => {
      const targets = l === 0 ? { previous: data.targets.previous, attached: none } : { previous: none, attached: data.targets.induction };
      const t = headTable(heads, words, targets, h);
      t.caption.textContent = `Layer ${l + 1}, head ${h + 1}`;
      return t.cells;
    }));
  }

  function drawHeads() {
    state.heads.forEach((layer, l) => layer.forEach((rows, h) => rows.forEach((row, i) => {
      cells[l][h][i].forEach((cell, j) => cell.style.setProperty("--w", String(j < row.length ? row[j] : 0)));
    })));
  }

  function chart(parent, title) {
    const box = html("div", { class: "if-chart" }, parent);
    html("p", { class: "th-loss-title" }, box, title);
    return { box, svg: null, width: 0 };
  }

  function drawChart(c, points, yLo, yHi, width) {
    if (!width) return;
    const w = Math.min(width, 420), h = CHART_H;
    if (w !== c.width || !c.svg) {
      c.width = w;
      c.svg = svg("svg", { width: w, height: h, viewBox: `0 0 ${w} ${h}`, "aria-hidden": "true" });
      c.band = svg("rect", { class: "if-band", y: PAD, height: h - 2 * PAD }, c.svg);
      svg("line", { x1: PAD, x2: w - PAD, y1: h - PAD, y2: h - PAD, class: "axis" }, c.svg);
      c.zero = svg("line", { x1: PAD, x2: w - PAD, class: "if-zero" }, c.svg);
      c.phase = svg("line", { y1: PAD, y2: h - PAD, class: "if-phase" }, c.svg);
      c.line = svg("polyline", { class: "th-loss-line" }, c.svg);
      c.now = svg("line", { y1: PAD, y2: h - PAD, class: "if-now" }, c.svg);
      c.box.append(c.svg);
    }
    const xs = (s) => PAD + (s / data.steps) * (w - 2 * PAD);
    const ys = (v) => h - PAD - ((v - yLo) / (yHi - yLo || 1)) * (h - 2 * PAD);
    c.line.setAttribute("points", points.map(([s, v]) => `${xs(s)},${ys(v)}`).join(" "));
    const f = data.sharpest_fall;
    const showPhase = !training;
    c.band.setAttribute("x", xs(f.start));
    c.band.setAttribute("width", showPhase ? xs(f.end) - xs(f.start) : 0);
    const p = data.phase_change;
    for (const a of ["x1", "x2"]) c.phase.setAttribute(a, showPhase && p !== null ? xs(p) : -10);
    for (const a of ["y1", "y2"]) c.zero.setAttribute(a, yLo < 0 && yHi > 0 ? ys(0) : -10);
    const at = training ? (points.length ? points[points.length - 1][0] : 0) : data.checkpoints[k];
    for (const a of ["x1", "x2"]) c.now.setAttribute(a, xs(at));
  }

  let chartWidth = 0;
  function drawCharts(width = chartWidth) {
    chartWidth = width;
    drawChart(lossChart, losses.map((v, s) => [s, v]), 0, Math.max(...losses, data.chance), width);
    const values = icl.map(([, v]) => v);
    drawChart(iclChart, icl, Math.min(...values, -0.5), Math.max(...values, 0), width);
  }

  function draw() {
    slider.input.value = String(k);
    slider.output.textContent = training ? "" : data.text.states[k].label;
    if (!training) state = data.states[k];
    drawHeads();
    drawCharts();
  }

  function show(i) {
    k = Math.max(0, Math.min(data.checkpoints.length - 1, i));
    draw();
    ctx.setText(data.text, k);
  }

  slider.input.addEventListener("input", () => show(Number(slider.input.value)));
  train.addEventListener("click", run);
  cancel.addEventListener("click", () => ctx.cancelJob());

  let training = false;
  async function run() {
    const before = { data, losses, icl, k };
    training = true;
    losses = [];
    icl = [];
    train.disabled = slider.input.disabled = true;
    cancel.hidden = false;
    progress.value = 0;
    status.textContent = "Training a new model in the worker…";
    const out = await ctx.job("train", { ...data.params, seed: data.seed + 1, step: data.steps }, (p) => {
      losses = losses.concat(p.losses);
      state = p.snapshot.state;
      icl.push([p.step, state.in_context]);
      progress.value = p.step;
      status.textContent = p.snapshot.progress;
      draw();
    });
    training = false;
    train.disabled = slider.input.disabled = false;
    if (document.activeElement === cancel) train.focus(); // keep the keyboard's place
    cancel.hidden = true;
    if (out) {
      data = out.result;
      losses = data.losses;
      icl = data.checkpoints.map((s, i) => [s, data.states[i].in_context]);
      k = data.start;
      slider.input.max = String(data.checkpoints.length - 1);
      progress.value = data.steps;
      status.textContent = data.text.fixed[0];
      show(k);
      ctx.markLive();
    } else {
      ({ data, losses, icl, k } = before);
      progress.value = data.steps;
      status.textContent = "Training stopped: the figure shows the previous model again.";
      show(k);
    }
  }

  buildHeads();
  onResize(charts, (w) => drawCharts(w >= 600 ? Math.floor((w - 17) / 2) : w)); // side by side where both fit
  draw();
  ctx.setText(data.text, k);
  return {};
}
