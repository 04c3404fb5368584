// writing-training: chapter 14's model learning to write. The chart draws each training step's loss
// and the held-out loss at each checkpoint over the counting models' yardsticks (dashed, labelled by
// the model's text.parts at the places axis.y.labels gives); below it, what the model wrote at the checkpoint shown. The slider (or a tap on the
// chart) steps through the checkpoints of the embedded run, and Replay steps through them all, so
// the replay works before Python loads (data.checkpoints; text.states indexed the same way).
// Train from scratch runs a new seed as a worker job: the curve and the samples stream in as
// checkpoints arrive, and the finished run is drawn as live data; Cancel restores what was shown.
// The finished run's model (data.model_file) is kept in the browser (reader-files.js), where the
// next figure can write with it; a line says so, with the run it came from; Keep training takes it
// on for data.params.more steps (the job "keep": the curve goes on from the kept run's), and
// Forget my model deletes it (and the text it was fine-tuned on). With no model of their own, Keep
// training takes the page's model on (the job "tune" on the series' prose). "Fine-tune on a text of
// your own" keeps the reader's text in the browser (reader-files.js, as "reader-text") and fine-tunes
// the page's model or theirs on it (the job "tune"): the run is drawn and kept as a run from scratch is.
import { forget, keep, kept } from "../js/reader-files.js";
import { drag, html, onResize, rangeControl, svg } from "../js/svg.js";
import { fill } from "../js/text.js";
import { linear } from "../js/scale.js";

const H = 240, LEFT = 26, RIGHT = 6, TOP = 6, BOTTOM = 18;
const READER = "reader-model"; // the name the reader's model is kept under (the engine's READER_GIVEN)
const READER_TEXT = "reader-text"; // and the text they fine-tune on
const STATUS_MAX = 300; // characters of a kept model's line shown (the store is the browser's, not ours)
const REPLAY_MS = 450; // per checkpoint: a whole run in about five seconds

export function mount(root, ctx) {
  let data = ctx.data;
  let k = ctx.opening(data.start); // the checkpoint shown
  let training = null; // while a run trains: { losses, checkpoints, states } so far
  const id = ctx.figure.id;
  const schema = data.schema.seed;

  const stepper = html("div", { class: "figure-controls" }, root);
  // It opens on the trained model, the last checkpoint: the left arrow steps back through training.
  const slider = rangeControl(stepper, id + "-step", "Checkpoint ",
    { max: String(data.checkpoints.length - 1), value: String(k), "data-key-control": "ArrowLeft" });
  const replay = html("button", { type: "button", "aria-pressed": "false" }, stepper, "Replay");

  const trainer = html("div", { class: "figure-controls" }, root);
  const seedLabel = html("label", { for: id + "-seed" }, trainer, "Seed ");
  const seed = html("input", { id: id + "-seed", type: "number", inputmode: "numeric", class: "wt-seed", required: "",
    min: String(data.first_trained_seed), max: String(schema.hi), step: "1", value: String(data.seed + 1) }, seedLabel);
  const train = html("button", { type: "button" }, trainer, "Train from scratch");
  const keepButton = html("button", { type: "button" }, trainer, data.text.keep);
  const cancel = html("button", { type: "button", hidden: "" }, trainer, "Cancel");
  const progressLabel = html("label", { class: "th-progress", for: id + "-progress" }, trainer, "Training ");
  const progress = html("progress", { id: id + "-progress", max: String(data.steps), value: String(data.steps) }, progressLabel);
  const status = html("output", { class: "th-status", "aria-live": "polite", "data-job-status": "" }, root);
  const keptBox = html("p", { class: "wt-kept", hidden: "" }, root);
  const keptLine = html("span", { "aria-live": "polite" }, keptBox);
  const forgetButton = html("button", { type: "button" }, keptBox, data.text.forget);

  // a text of the reader's own to fine-tune on: closed until asked for, the chart being the figure
  const own = data.text.own;
  const ownBox = html("details", { class: "wt-own" }, root);
  html("summary", {}, ownBox, own.summary);
  html("label", { for: id + "-own" }, ownBox, own.label);
  const ownText = html("textarea", { id: id + "-own", rows: "6", maxlength: String(data.own.max), spellcheck: "false",
    "aria-describedby": id + "-own-hint " + id + "-own-count" }, ownBox);
  const ownHint = html("p", { id: id + "-own-hint", class: "figure-hint" }, ownBox, own.hint);
  const ownCount = html("output", { id: id + "-own-count", class: "wt-own-count" }, ownHint);
  const ownRow = html("div", { class: "figure-controls" }, ownBox);
  const baseLabel = html("label", { for: id + "-base" }, ownRow, own.base + " ");
  const base = html("select", { id: id + "-base" }, baseLabel);
  for (const [value, label] of Object.entries(own.bases)) html("option", { value }, base, label);
  const stepsLabel = html("label", { for: id + "-tune" }, ownRow, own.steps + " ");
  const tuneSteps = html("input", { id: id + "-tune", type: "number", inputmode: "numeric", class: "wt-seed", required: "",
    min: String(data.schema.tune.lo), max: String(data.schema.tune.hi), step: String(data.schema.tune.step),
    value: String(data.params.tune) }, stepsLabel);
  const tuneButton = html("button", { type: "button" }, ownRow, own.tune);

  html("p", { class: "th-loss-title" }, root, "Loss, nats per character");
  const chart = html("div", { class: "wt-chart" }, root);
  const sampleBox = html("div", { class: "wt-sample" }, root);
  const sampleHead = html("p", { class: "wt-sample-head" }, sampleBox);
  const sampleText = html("p", { class: "wt-sample-text" }, sampleBox);
  const samplePrompt = html("span", { class: "wt-prompt" }, sampleText);
  const sampleRest = html("span", {}, sampleText);
  const legend = html("p", { class: "figure-hint" }, root, data.text.legend);

  // ---- the chart: built once per width and axis, then updated in place ----
  let plot = null;
  let width = 0;
  // the x axis: the run shown, or while the reader's run trains, that run's steps
  const xAxis = () => (training ? training.axis ?? { steps: data.train_steps, ticks: data.train_x }
    : { steps: data.steps, ticks: data.axis.x });

  function build(w) {
    width = w;
    const axis = data.axis;
    const x = xAxis();
    const sx = linear([0, x.steps], [LEFT, w - RIGHT]);
    // nats on a log scale when the axis says so: the band near 1 nat gets room beside the fall from 4.5
    const ly = axis.y.log ? linear([Math.log(axis.y.lo), Math.log(axis.y.hi)], [H - BOTTOM, TOP])
      : linear([axis.y.lo, axis.y.hi], [H - BOTTOM, TOP]);
    const sy = axis.y.log ? (v) => ly(Math.log(v)) : ly;
    const el = svg("svg", { width: w, height: H, viewBox: `0 0 ${w} ${H}`, "aria-hidden": "true" });
    for (const [v, label] of axis.y.ticks) {
      svg("line", { x1: LEFT, x2: w - RIGHT, y1: sy(v), y2: sy(v), class: "grid" }, el);
      svg("text", { x: LEFT - 5, y: sy(v) + 4, class: "tick", "text-anchor": "end" }, el).textContent = label;
    }
    for (const [s, label] of x.ticks) {
      const anchor = s === 0 ? "start" : s === x.steps ? "end" : "middle"; // the end labels stay inside
      svg("text", { x: sx(s), y: H - 4, class: "tick", "text-anchor": anchor }, el).textContent = label;
    }
    svg("line", { x1: LEFT, x2: w - RIGHT, y1: sy(axis.y.lo), y2: sy(axis.y.lo), class: "axis" }, el);
    const baselines = Object.entries(data.baselines).map(([key, v]) => {
      svg("line", { x1: LEFT, x2: w - RIGHT, y1: sy(v), y2: sy(v), class: "wt-baseline" }, el);
      const t = svg("text", { x: w - RIGHT - 2, y: sy(axis.y.labels[key]) - 3, class: "wt-baseline-label",
        "text-anchor": "end" }, el);
      t.textContent = fill(data.text.parts[key], { v });
      return t;
    });
    const later = svg("polyline", { class: "wt-train wt-later" }, el);
    const past = svg("polyline", { class: "wt-train" }, el);
    const held = svg("polyline", { class: "wt-held" }, el);
    const dots = svg("g", { class: "wt-dots" }, el);
    const now = svg("line", { y1: TOP, y2: H - BOTTOM, class: "wt-now" }, el);
    const ring = svg("circle", { r: 5, class: "wt-ring" }, el);
    const hit = svg("rect", { x: LEFT, y: 0, width: w - LEFT - RIGHT, height: H, class: "hit wt-hit" }, el);
    drag(hit, el, ({ x }) => pick(sx.invert(x)), () => {}, { hold: false });
    chart.replaceChildren(el);
    plot = { sx, sy, later, past, held, dots, now, ring, baselines, axis, steps: x.steps };
  }

  // losses[i] is one step's, or the mean of `every` steps' (i * every to (i + 1) * every - 1), drawn at its last
  const points = (losses, from, to, every) => {
    const out = [];
    for (let i = from; i < to; i++) {
      const v = Math.min(Math.max(losses[i], plot.axis.y.lo), plot.axis.y.hi);
      out.push(`${plot.sx((i + 1) * every - 1)},${plot.sy(v)}`);
    }
    return out.join(" ");
  };

  function drawChart() {
    if (!width) return;
    if (!plot || plot.axis !== data.axis || plot.steps !== xAxis().steps) build(width);
    const losses = training ? training.losses : data.losses;
    const checkpoints = training ? training.checkpoints : data.checkpoints;
    // Steps up to the checkpoint shown are drawn in full, the rest faint: stepping replays the curve too.
    // While a run trains, every step it has made is drawn in full.
    const every = training ? 1 : data.loss_every;
    const step = training ? losses.length : checkpoints[k].step;
    const shown = Math.floor(step / every); // the points up to the checkpoint shown
    plot.past.setAttribute("points", points(losses, 0, Math.min(losses.length, shown + 1), every));
    plot.later.setAttribute("points", points(losses, Math.max(0, shown), losses.length, every));
    const xy = (c) => [plot.sx(c.step), plot.sy(Math.min(Math.max(c.held_out, plot.axis.y.lo), plot.axis.y.hi))];
    plot.held.setAttribute("points", checkpoints.map((c) => xy(c).join(",")).join(" "));
    while (plot.dots.children.length > checkpoints.length) plot.dots.lastChild.remove();
    checkpoints.forEach((c, i) => {
      const dot = plot.dots.children[i] ?? svg("circle", { r: 3, class: "wt-dot" }, plot.dots);
      const [x, y] = xy(c);
      dot.setAttribute("cx", x);
      dot.setAttribute("cy", y);
    });
    const [x, y] = checkpoints.length ? xy(checkpoints[k]) : [plot.sx(0), -10];
    for (const a of ["x1", "x2"]) plot.now.setAttribute(a, x);
    plot.ring.setAttribute("cx", x);
    plot.ring.setAttribute("cy", y);
  }

  function drawSample() {
    const checkpoints = training ? training.checkpoints : data.checkpoints;
    const c = checkpoints[k];
    sampleBox.hidden = !c;
    if (!c) return;
    sampleHead.textContent = fill(data.text.parts.sample, { v: c.step });
    const prompt = c.sample.startsWith(data.prompt) ? data.prompt : "";
    samplePrompt.textContent = prompt; // what it was given, then what it wrote: text, never markup
    sampleRest.textContent = c.sample.slice(prompt.length);
  }

  function draw() {
    const count = (training ? training.checkpoints : data.checkpoints).length;
    slider.input.max = String(Math.max(0, count - 1));
    slider.input.value = String(k);
    const states = training ? training.states : data.text.states;
    slider.output.textContent = states[k]?.label ?? "";
    drawChart();
    drawSample();
  }

  function show(i) {
    k = Math.max(0, Math.min(data.checkpoints.length - 1, i));
    draw();
    ctx.setText(data.text, k);
  }

  /** The checkpoint nearest a step the reader pointed at. */
  function pick(step) {
    if (training) return;
    stopReplay();
    let best = 0;
    data.checkpoints.forEach((c, i) => { if (Math.abs(c.step - step) < Math.abs(data.checkpoints[best].step - step)) best = i; });
    if (best !== k) show(best);
  }

  // ---- replay: every checkpoint in turn, from the start ----
  let timer = null;
  function stopReplay() {
    if (timer === null) return;
    clearInterval(timer);
    timer = null;
    replay.textContent = "Replay";
    replay.setAttribute("aria-pressed", "false");
  }
  function startReplay() {
    stopReplay();
    show(0);
    replay.textContent = "Stop";
    replay.setAttribute("aria-pressed", "true");
    timer = setInterval(() => {
      if (k >= data.checkpoints.length - 1) return stopReplay();
      show(k + 1);
    }, REPLAY_MS);
  }
  replay.addEventListener("click", () => (timer === null ? startReplay() : stopReplay()));
  slider.input.addEventListener("input", () => { stopReplay(); show(Number(slider.input.value)); });

  // ---- Train from scratch, and Keep training the reader's own model ----
  const runParams = (s) => ({ ...data.params, seed: s, steps: data.train_steps });

  /** A run in the worker: its job ("train" or "keep") and options, the line shown as it starts, and
   *  the button that started it (the keyboard goes back there when the run ends). */
  let cancelled = false; // the reader pressed Cancel on the run
  async function run(job, params, starting, button) {
    stopReplay();
    cancelled = false;
    const before = { data, k };
    // the run so far; while it trains, its x axis (a run taken on spans its kept steps too: the slices say)
    training = { losses: [], checkpoints: [], states: [], axis: null };
    k = 0;
    const hadFocus = document.activeElement === button;
    cancel.hidden = false;
    const controls = [train, slider.input, replay, seed, keepButton, forgetButton, base, tuneSteps, tuneButton];
    for (const c of controls) c.disabled = true; // the keyboard moves to Cancel instead
    if (hadFocus) cancel.focus();
    progress.max = data.train_steps;
    progress.value = 0;
    status.textContent = starting;
    draw();
    const out = await ctx.job(job, params, (slices) => {
      for (const s of slices) {
        const was = s.snapshot.before; // a run taken on: what it was kept with, in its first slice
        if (was) Object.assign(training, { losses: [...was.losses], checkpoints: [...was.checkpoints], states: [...was.states] });
        training.losses.push(...s.losses);
        training.checkpoints.push(...s.snapshot.checkpoints);
        training.states.push(...s.snapshot.states);
        training.axis = { steps: s.snapshot.axis.steps, ticks: s.snapshot.axis.x };
      }
      const last = slices[slices.length - 1];
      k = Math.max(0, training.checkpoints.length - 1); // the newest checkpoint: its sample, as it learns
      progress.max = training.axis.steps;
      progress.value = last.step;
      status.textContent = last.snapshot.progress;
      draw();
      if (training.states.length) ctx.setText({ states: training.states, fixed: [] }, k);
    });
    training = null;
    for (const c of controls) c.disabled = false;
    // Back on its button when the run ends with the keyboard on Cancel (or nowhere, Cancel having gone)
    // (without scrolling: a run that ends out of sight leaves the reader where they are)
    if (document.activeElement === cancel || document.activeElement === document.body) button.focus({ preventScroll: true });
    cancel.hidden = true;
    if (out) {
      if (typeof out.result.model_file === "string") keepModel(out.result);
      data = out.result;
      seed.value = String(data.seed + 1);
      progress.max = data.steps;
      progress.value = data.steps;
      status.textContent = data.text.status;
      legend.textContent = data.text.legend;
      show(data.start);
      ctx.markLive();
    } else {
      ({ data, k } = before);
      progress.max = data.steps;
      progress.value = data.steps;
      // Cancelled, or refused (the figure's note says why: a text the model cannot read, say)
      status.textContent = cancelled ? data.text.stopped : data.text.status;
      show(k);
    }
  }
  // ---- the reader's model, kept in the browser ----
  let mine = false; // whether the reader has a model of their own: what Keep training and Start from take
  function showKept(file, why = "") {
    mine = Boolean(file);
    base.options[1].disabled = !mine; // "your model": only when there is one
    base.value = mine ? "yours" : "page";
    keptBox.hidden = !file;
    const said = typeof file?.info?.status === "string" ? file.info.status.slice(0, STATUS_MAX) : "";
    keptLine.textContent = file ? data.text.kept + said + (why ? " " + why : "") : "";
  }
  async function keepModel(result) {
    const bytes = Uint8Array.from(atob(result.model_file), (c) => c.charCodeAt(0));
    const info = { status: result.text.status };
    const why = await keep(READER, bytes, info);
    showKept({ info }, why);
  }
  forgetButton.addEventListener("click", async () => {
    await Promise.all([forget(READER), forget(READER_TEXT)]); // the text stays in the box until the page is left
    showKept(null);
    train.focus(); // the button went with the line: the keyboard stays in the figure
    status.textContent = data.text.forgotten;
  });
  kept(READER).then((file) => showKept(file));

  const trainFromScratch = () => {
    if (!seed.reportValidity() || seed.value === "") return;
    run("train", runParams(Number(seed.value)), data.text.training, train);
  };
  train.addEventListener("click", trainFromScratch);
  // Keep training: the reader's model, exactly as it would have gone on; or the page's model, taken on afresh
  keepButton.addEventListener("click", () => (mine ? run("keep", { ...data.params }, data.text.keeping, keepButton)
    : run("tune", { ...data.params, base: "page", tune_text: "series", tune: data.params.more }, data.text.keeping_page, keepButton)));
  cancel.addEventListener("click", () => { cancelled = true; ctx.cancelJob(); });

  // ---- fine-tuning on the reader's own text ----
  const countText = () => { ownCount.textContent = " " + fill(own.count, { v: ownText.value.length.toLocaleString("en") }); };
  ownText.addEventListener("input", countText);
  kept(READER_TEXT).then((file) => {
    if (!file || ownText.value) return; // the reader's typing comes first
    ownText.value = new TextDecoder().decode(file.bytes).slice(0, data.own.max);
    countText();
  });
  tuneButton.addEventListener("click", async () => {
    if (!tuneSteps.reportValidity() || tuneSteps.value === "" || !seed.reportValidity() || seed.value === "") return;
    // kept before the run, so that the worker is handed it (and a reload finds it in the box again)
    await keep(READER_TEXT, new TextEncoder().encode(ownText.value), {});
    run("tune", { ...data.params, seed: Number(seed.value), base: base.value, tune_text: "yours", tune: Number(tuneSteps.value) },
      data.text.tuning, tuneButton);
  });
  countText();
  seed.addEventListener("keydown", (e) => { if (e.key === "Enter") { e.preventDefault(); trainFromScratch(); } });

  // The first run is the worker's first training: let it warm that code while the reader reads.
  ctx.warm("train", runParams(data.seed + 1));
  onResize(chart, (w) => { plot = null; width = w; drawChart(); });
  draw();
  ctx.setText(data.text, k);
  return { offscreen: stopReplay };
}
