// two-heads: both heads of the trained model side by side, one grid per head (rows: the word
// looking; columns: the words it reads), each word's targets outlined. The embedded run draws
// before Python loads; Retrain runs a new training job in the worker (engine/jobs.py) from the next
// seed, redrawing the heads from each progress snapshot, and draws the finished run as live data.
// Numbers shown are the model's text (data.text.states, indexed like data.sentences).
import { html, onResize, svg } from "../js/svg.js";
import { headTable } from "../js/weights.js";

export function mount(root, ctx) {
  let data = ctx.data;
  let shown = ctx.opening(data.start);
  let looks = data.sentences; // what the grids draw: the run's, or a snapshot while training
  let losses = data.losses;
  const id = ctx.figure.id;

  const controls = html("div", { class: "figure-controls" }, root);
  const label = html("label", { for: id + "-sentence" }, controls, "Sentence ");
  const select = html("select", { id: id + "-sentence" }, label);
  data.text.states.forEach((s, i) => html("option", { value: String(i) }, select, s.label));
  const retrain = html("button", { type: "button", "data-key-control": "Enter" }, controls, "Retrain");
  const cancel = html("button", { type: "button", hidden: "" }, controls, "Cancel");
  const progressLabel = html("label", { class: "th-progress", for: id + "-progress" }, controls, "Training ");
  const progress = html("progress", { id: id + "-progress", max: String(data.steps), value: String(data.steps) }, progressLabel);
  const status = html("output", { class: "th-status", "aria-live": "polite", "data-job-status": "" }, root);

  const heads = html("div", { class: "th-heads" }, root);
  const legend = html("p", { class: "figure-hint" }, root, data.text.legend);
  const lossTitle = html("p", { class: "th-loss-title" }, null, "Training loss, step by step");
  const loss = html("div", { class: "th-loss" }, root);
  legend.before(lossTitle, loss);

  select.addEventListener("change", () => { shown = Number(select.value); draw(); ctx.setText(data.text, shown); });
  retrain.addEventListener("click", run);
  cancel.addEventListener("click", () => ctx.cancelJob());

  let cells = []; // cells[h][i][j], built once per sentence and repainted in place as the model learns
  let built = null; // the words the grids were built for

  function draw() {
    select.value = String(shown);
    const sentence = looks[shown];
    const key = sentence.words.join(" ");
    if (built !== key) {
      heads.replaceChildren();
      cells = sentence.heads.map((_, h) => headTable(heads, sentence.words, sentence.targets, h).cells);
      built = key;
    }
    sentence.heads.forEach((head, h) => head.weights.forEach((row, i) => row.forEach((w, j) => {
      cells[h][i][j].style.setProperty("--w", String(w));
    })));
    drawLoss();
  }

  let lossSvg = null;
  let lossLine = null;
  let lossWidth = 0;
  function drawLoss(width = lossWidth) {
    if (!width) return;
    const w = Math.min(width, 420), h = 64, pad = 4;
    if (w !== lossWidth || !lossSvg) {
      lossWidth = w;
      lossSvg = svg("svg", { width: w, height: h, viewBox: `0 0 ${w} ${h}`, role: "img",
        "aria-label": "Training loss, step by step" });
      svg("line", { x1: pad, x2: w - pad, y1: h - pad, y2: h - pad, class: "axis" }, lossSvg);
      lossLine = svg("polyline", { class: "th-loss-line" }, lossSvg);
      loss.replaceChildren(lossSvg);
    }
    const top = Math.max(...losses, 1e-9);
    const xs = (i) => pad + (i / Math.max(1, data.steps - 1)) * (w - 2 * pad);
    const ys = (v) => h - pad - (v / top) * (h - 2 * pad);
    lossLine.setAttribute("points", losses.map((v, i) => `${xs(i)},${ys(v)}`).join(" "));
  }

  const retrainParams = () => ({ ...data.params, seed: data.seed + 1, sentence: shown }); // the next seed's run

  async function run() {
    const before = { data, looks, losses };
    losses = [];
    const hadFocus = document.activeElement === retrain;
    cancel.hidden = false;
    retrain.disabled = true; // a disabled button loses focus: the keyboard moves to Cancel instead
    if (hadFocus) cancel.focus();
    progress.value = 0;
    status.textContent = data.text.training;
    const out = await ctx.job("retrain", retrainParams(), (slices) => {
      for (const s of slices) losses = losses.concat(s.losses);
      const p = slices[slices.length - 1];
      looks = p.snapshot.sentences;
      progress.value = p.step;
      status.textContent = p.snapshot.text.progress;
      draw();
    });
    retrain.disabled = false;
    // Back on Retrain when the run ends with the keyboard on Cancel (or nowhere, Cancel having gone).
    // (without scrolling: a run that ends out of sight leaves the reader where they are)
    if (document.activeElement === cancel || document.activeElement === document.body) retrain.focus({ preventScroll: true });
    cancel.hidden = true;
    if (out) {
      data = out.result;
      looks = data.sentences;
      losses = data.losses;
      progress.value = data.steps;
      status.textContent = data.text.status;
      draw();
      ctx.setText(data.text, shown);
      ctx.markLive();
    } else {
      ({ data, looks, losses } = before);
      progress.value = data.steps;
      status.textContent = data.text.stopped;
      draw();
    }
  }

  // The first Retrain is the worker's first training: let it warm that code while the reader reads.
  ctx.warm("retrain", retrainParams());
  onResize(loss, (w) => drawLoss(w));
  draw();
  ctx.setText(data.text, shown);
  return {};
}
