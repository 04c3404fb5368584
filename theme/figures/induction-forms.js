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
  let k = ctx.opening(data.start); // the checkpoint shown
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
  const status = html("output", { class: "th-status", "aria-live": "polite", "data-job-status": "" }, root);

  const charts = html("div", { class: "if-charts" }, root);
  const lossChart = chart(charts, "Training loss, step by step");
  const iclChart = chart(charts, "In-context score: loss on the repeat minus loss on the first half");
  html("p", { class: "figure-hint" }, root,
    "Shaded: where the in-context score fell fastest. Dashed: the step a layer-2 head first put half its weight on the letters after earlier copies.");
  const legend = html("p", { class: "figure-hint" }, root); // the one-layer run's line, where the data has one
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

  // Scales and tick labels come from the model (data.axis); a chart is rebuilt when its width or axis changes.
  function drawChart(c, points, axis, width, beside = null) {
    if (!width) return;
    const w = Math.min(width, 420), h = CHART_H, left = 34, bottom = 14;
    const xs = (s) => left + (s / data.steps) * (w - left - PAD);
    const hi = Math.max(axis.hi, ...points.map(([, v]) => v), ...(beside || []).map(([, v]) => v));
    const ys = (v) => h - bottom - ((v - axis.lo) / (hi - axis.lo || 1)) * (h - bottom - PAD);
    if (w !== c.width || axis !== c.axis || !c.svg) {
      c.width = w;
      c.axis = axis;
      c.svg = svg("svg", { width: w, height: h, viewBox: `0 0 ${w} ${h}`, "aria-hidden": "true" });
      c.band = svg("rect", { class: "if-band", y: PAD, height: h - bottom - PAD }, c.svg);
      for (const [v, label] of axis.ticks) {
        svg("line", { x1: left, x2: w - PAD, y1: ys(v), y2: ys(v), class: "if-guide" }, c.svg);
        svg("text", { x: left - 4, y: ys(v) + 3, class: "tick", "text-anchor": "end" }, c.svg).textContent = label;
      }
      for (const [s, label] of data.axis.x) {
        const anchor = s === 0 ? "start" : s === data.steps ? "end" : "middle"; // the end labels stay inside
        svg("text", { x: xs(s), y: h - 2, class: "tick", "text-anchor": anchor }, c.svg).textContent = label;
      }
      svg("line", { x1: left, x2: w - PAD, y1: h - bottom, y2: h - bottom, class: "axis" }, c.svg);
      c.phase = svg("line", { y1: PAD, y2: h - bottom, class: "if-phase" }, c.svg);
      c.beside = svg("polyline", { class: "if-beside" }, c.svg);
      c.line = svg("polyline", { class: "th-loss-line" }, c.svg);
      c.now = svg("line", { y1: PAD, y2: h - bottom, class: "if-now" }, c.svg);
      c.box.querySelector("svg")?.remove();
      c.box.style.width = `${w}px`; // the title wraps to the chart's width, so two charts fit side by side
      c.box.append(c.svg);
    }
    c.line.setAttribute("points", points.map(([s, v]) => `${xs(s)},${ys(v)}`).join(" "));
    c.beside.setAttribute("points", training || !beside ? "" : beside.map(([s, v]) => `${xs(s)},${ys(v)}`).join(" "));
    const f = data.sharpest_fall;
    c.band.setAttribute("x", xs(f.start));
    c.band.setAttribute("width", training ? 0 : xs(f.end) - xs(f.start)); // a run in progress has no phase change yet
    const p = data.phase_change;
    for (const a of ["x1", "x2"]) c.phase.setAttribute(a, !training && p !== null ? xs(p) : -10);
    const at = training ? (points.length ? points[points.length - 1][0] : 0) : data.checkpoints[k];
    for (const a of ["x1", "x2"]) c.now.setAttribute(a, xs(at));
  }

  let chartWidth = 0;
  function drawCharts(width = chartWidth) {
    chartWidth = width;
    drawChart(lossChart, losses.map((v, s) => [s, v]), data.axis.loss, width);
    drawChart(iclChart, icl, data.axis.in_context, width,
      data.one_layer && data.one_layer.map((v, i) => [data.checkpoints[i], v]));
  }

  function draw() {
    slider.input.value = String(k);
    slider.output.textContent = training ? "" : data.text.states[k].label;
    legend.textContent = training ? "" : data.text.legend;
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
    const hadFocus = document.activeElement === train;
    cancel.hidden = false;
    train.disabled = slider.input.disabled = true; // a disabled button loses focus: the keyboard moves to Cancel
    if (hadFocus) cancel.focus();
    progress.value = 0;
    status.textContent = data.text.training;
    const out = await ctx.job("train", { ...data.params, seed: data.seed + 1, step: data.steps }, (slices) => {
      for (const s of slices) losses = losses.concat(s.losses);
      const p = slices[slices.length - 1];
      state = p.snapshot.state;
      icl.push([p.step, state.in_context]);
      progress.value = p.step;
      status.textContent = p.snapshot.progress;
      draw();
    });
    training = false;
    train.disabled = slider.input.disabled = false;
    // Back on Train when the run ends with the keyboard on Cancel (or nowhere, Cancel having gone).
    // (without scrolling: a run that ends out of sight leaves the reader where they are)
    if (document.activeElement === cancel || document.activeElement === document.body) train.focus({ preventScroll: true });
    cancel.hidden = true;
    if (out) {
      data = out.result;
      losses = data.losses;
      icl = data.checkpoints.map((s, i) => [s, data.states[i].in_context]);
      k = data.start;
      slider.input.max = String(data.checkpoints.length - 1);
      progress.value = data.steps;
      status.textContent = data.text.status;
      show(k);
      ctx.markLive();
    } else {
      ({ data, losses, icl, k } = before);
      progress.value = data.steps;
      status.textContent = data.text.stopped;
      show(k);
    }
  }

  buildHeads();
  onResize(charts, (w) => drawCharts(w >= 600 ? Math.floor((w - 17) / 2) : w)); // side by side where both fit
  draw();
  ctx.setText(data.text, k);
  return {};
}
