// lookup-training: one head learning the key-value lookup, played step by step. The loss streams
// into a plot and the query-key grid (question letter against key letter) is redrawn as it forms.
// Play replays the run embedded at build time for the chosen step size, or, once Python is ready,
// runs the same training live in the worker (the model's job "train", from the step on screen)
// and plays its snapshots back at the same readable pace. Pause cancels the job and keeps what is
// on screen; Reset goes back to the same start. Playing goes on while the figure is out of sight
// (the page's bar says so, running.js). Key numbers are the model's templates filled from
// the run on screen (its text.scope, given the worker's run in place of the embedded one).
import { linear } from "../js/scale.js";
import { html, onResize, rangeControl, set, svg } from "../js/svg.js";
import { fill, fillAll, scopeAt } from "../js/text.js";

const STATE_MS = 110; // one state (data.every steps) per this long while playing: a readable pace

export function mount(root, ctx) {
  const data = ctx.data;
  const id = ctx.figure.id;
  const perRun = data.runs[0].grids.length; // states per run
  const opened = ctx.opening(data.start.run * perRun + data.start.state, data.runs.length * perRun); // state r * perRun + k
  let r = Math.floor(opened / perRun); // which step size
  let k = opened % perRun; // which state of its run
  let live = null; // the worker's run being played: { r, run (a snapshot, or null until the first), over }
  let playing = false;
  let frame = 0;
  let lastTick = 0;

  const controls = html("div", { class: "figure-controls" }, root);
  const play = html("button", { type: "button", class: "lt-play", "data-key-control": "Enter" }, controls, "Play");
  const rateLabel = html("label", { for: id + "-rate" }, controls, "Step size ");
  const rate = html("select", { id: id + "-rate" }, rateLabel);
  data.rates.forEach((v, i) => html("option", { value: String(i) }, rate, fill(data.text.parts.rate, { v })));
  const reset = html("button", { type: "button" }, controls, "Reset");
  const scrub = html("div", { class: "figure-controls lt-scrub" }, root);
  const { input: slider } = rangeControl(scrub, id + "-step", "Step ", { max: String(perRun - 1) });
  const status = html("output", { class: "lt-status", "aria-live": "polite", "data-job-status": "" }, root);

  const panels = html("div", { class: "lt-panels" }, root);
  const plotBox = html("div", { class: "lt-loss" }, panels);
  html("p", { class: "lt-title" }, plotBox, "Loss, step by step");
  const plot = html("div", { class: "figure-plot" }, plotBox);
  const gridBox = html("div", { class: "lt-grid-box" }, panels);
  const cells = grid(gridBox);
  html("p", { class: "figure-hint" }, root, data.text.legend);

  play.addEventListener("click", () => (playing ? pause() : start()));
  reset.addEventListener("click", () => { pause(); live = null; k = 0; draw(); });
  rate.addEventListener("change", () => { pause(); live = null; r = Number(rate.value); draw(); });
  slider.addEventListener("input", () => { pause(); k = Number(slider.value); draw(); });

  let chart = null;

  /** The 8 x 8 table of cells, built once; draw() colours it. */
  function grid(parent) {
    const table = html("table", { class: "lt-grid" }, parent);
    html("caption", {}, table, "Query–key scores");
    const hr = html("tr", {}, html("thead", {}, table));
    html("td", {}, hr);
    for (const c of data.letters) html("th", { scope: "col" }, hr, c);
    const body = html("tbody", {}, table);
    return [...data.letters].map((c, i) => {
      const tr = html("tr", {}, body);
      html("th", { scope: "row" }, tr, c);
      return [...data.letters].map((_, j) => html("td", { class: i === j ? "lt-cell lt-diagonal" : "lt-cell" }, tr));
    });
  }

  /** The plot's frame for this width, and the line draw() updates. */
  function buildChart(width) {
    const w = Math.min(width, 460), h = 170, pad = { l: 76, r: 10, t: 8, b: 22 };
    const sx = linear([0, data.steps], [pad.l, w - pad.r]);
    const guess = data.axis.y[1][0]; // the even guess, ln 4
    const sy = linear([0, data.axis.top], [h - pad.b, pad.t]);
    const s = svg("svg", { width: w, height: h, viewBox: `0 0 ${w} ${h}`, role: "img",
      "aria-label": "Training loss against step, with the even guess marked" });
    svg("line", { x1: pad.l, x2: w - pad.r, y1: sy(0), y2: sy(0), class: "axis" }, s);
    svg("line", { x1: pad.l, x2: w - pad.r, y1: sy(guess), y2: sy(guess), class: "lt-guess" }, s);
    for (const [v, label] of data.axis.y) {
      svg("text", { x: pad.l - 5, y: sy(v) + 4, class: "tick", "text-anchor": "end" }, s).textContent = label;
    }
    for (const [v, label] of data.axis.x) {
      svg("text", { x: sx(v), y: h - 6, class: "tick", "text-anchor": "middle" }, s).textContent = label;
    }
    const line = svg("polyline", { class: "lt-line" }, s);
    const dot = svg("circle", { r: 3, class: "lt-dot" }, s);
    plot.replaceChildren(s);
    return { sx, sy, line, dot };
  }

  /** The run state k is drawn from: the worker's, where it has reached k, else the embedded one. */
  function source() {
    const run = live?.run;
    if (live?.r === r && run && k >= run.from && k - run.from < run.grids.length) return run;
    return data.runs[r];
  }

  function draw() {
    const run = source();
    const at = k - run.from;
    const step = k * data.every;
    rate.value = String(r);
    slider.value = String(k);
    const lines = fillAll(data.text.templates, scopeAt(data.text.scope, data, r * perRun + k, { run }));
    set(slider, { "aria-valuetext": lines[0] });
    run.grids[at].forEach((row, i) => row.forEach((v, j) => {
      const td = cells[i][j];
      td.style.setProperty("--w", String(Math.sqrt(Math.min(1, Math.abs(v) / data.scale)))); // sqrt: small scores show
      td.classList.toggle("lt-negative", v < 0);
      td.classList.toggle("lt-top", run.top[at][i] === j);
    }));
    if (chart) {
      const points = [];
      for (let s = 0; s <= step; s++) points.push(`${chart.sx(s)},${chart.sy(run.losses[s])}`);
      set(chart.line, { points: points.join(" ") });
      set(chart.dot, { cx: chart.sx(step), cy: chart.sy(run.losses[step]) });
    }
    ctx.setText({ numbers: [...lines, ...data.text.fixed] }, r * perRun + k);
    if (run !== data.runs[r]) ctx.markLive();
  }

  /** The status line, changed only when its text does (it is announced). */
  function say(text) {
    if (status.textContent !== text) status.textContent = text;
  }

  function setPlaying(on) {
    playing = on;
    play.textContent = on ? "Pause" : "Play";
    play.setAttribute("aria-pressed", String(on));
    if (!on) cancelAnimationFrame(frame);
  }

  function start() {
    if (k >= perRun - 1) { k = 0; live = null; draw(); } // at the end: from the start again
    setPlaying(true);
    live = null;
    if (ctx.python.state === "ready") train();
    else say("Replaying the run computed when the page was built.");
    lastTick = performance.now();
    frame = requestAnimationFrame(tick);
  }

  function pause() {
    if (!playing) return;
    setPlaying(false);
    ctx.cancelJob();
    if (live) live.over = true;
    say("");
  }

  /** The real training in the worker, from the step on screen; its snapshots are played back by tick(). */
  async function train() {
    const mine = { r, run: null, over: false };
    live = mine;
    say("Training in the worker…");
    const out = await ctx.job("train", { ...data.params, rate: data.rates[r], start: k * data.every }, (slices) => {
      if (live === mine) mine.run = slices[slices.length - 1].snapshot; // the run so far
    });
    if (live !== mine) return;
    mine.over = true;
    if (out) {
      mine.run = out.snapshot;
    } else if (playing && ctx.python.state === "unavailable") {
      live = null; // no Python after all: go on with the embedded run (the figure's note says why)
      say("Replaying the run computed when the page was built.");
    } else if (playing) {
      pause(); // cancelled from outside: the page was left or hidden
    }
  }

  /** One state forward per STATE_MS; a live run waits for the worker to reach the next state. */
  function tick(now) {
    if (!playing) return;
    if (now - lastTick >= STATE_MS) {
      const next = k + 1;
      const run = live?.run;
      const ready = !live || (run && next - run.from < run.grids.length);
      if (ready) {
        lastTick = now;
        k = next;
        draw();
        if (live) say("Training in the worker: drawing what it computed.");
        if (k >= perRun - 1) {
          setPlaying(false);
          say(live ? "Trained live in the worker." : "");
          return;
        }
      } else if (live?.over) {
        setPlaying(false); // the job ended before this state
        return;
      }
    }
    frame = requestAnimationFrame(tick);
  }

  onResize(plot, (w) => { chart = buildChart(w); draw(); });
  return {};
}
