// A figure's ctx: everything its view may use of the page (its data, its text, its note) and of
// Python (requests, jobs, the warm-up), so a view never touches the runtime itself.
import { changed } from "./links.js";
import { readerFiles } from "./reader-files.js";

const UNAVAILABLE = "Needs Python, which is unavailable here: showing the precomputed result.";

// A view that asks the worker must be marked live by its model (engine/figures: LIVE or JOBS),
// or its page would not load Python: say so loudly rather than start it anyway.
function notLive(name) {
  const err = new Error(`figure '${name}' asks the worker but is not data-live (set LIVE = True in its model)`);
  console.error(err);
  return err;
}

/** The files the figure's model reads beyond its options (its data-given: name -> address in the
 *  site), as the field every message of the figure carries; the worker fetches each once. */
function givenFiles(el) {
  if (!el.dataset.given) return {};
  const files = Object.entries(JSON.parse(el.dataset.given)).map(([file, address]) => [file, new URL(address, document.baseURI).href]);
  return { files: Object.fromEntries(files) };
}

/**
 * The ctx of figure element `el` (its note is added after `root`), with `runtime` the page's
 * (null on a page without live figures) and near() whether the figure is near the screen.
 * Returns { ctx, tryWarm }: the page calls tryWarm() when the figure nears or Python is ready.
 */
export function figureContext(el, root, runtime, near) {
  const name = el.dataset.figure;
  const live = el.hasAttribute("data-live");
  const files = givenFiles(el);
  // the files the reader made in this browser that the figure's model reads (its READER_GIVEN)
  const readerNames = el.dataset.readerGiven ? el.dataset.readerGiven.split(" ") : [];
  const note = document.createElement("p");
  note.className = "figure-note";
  note.setAttribute("role", "status");
  let busy = 0; // requests and jobs on their way: the figure is aria-busy while any is
  let current = null; // the figure's running job, { result, cancel }: a newer one cancels it
  const asked = { compute: 0, job: 0 }; // the newest ask of each kind: an older one's outcome leaves the note to it
  let warming = null; // the job ctx.warm asked to warm: { job, params, state: "" | "running" | "done" }
  const embedded = JSON.parse(el.querySelector(".figure-data").textContent); // the page's own data
  // What a link to the figure's state holds (links.js): the options of the data drawn, and the
  // index of the precomputed state shown, recorded as the view draws, so views need no code of
  // their own to be linked; `answered` is the worker's last answer, drawn once the view calls
  // markLive. A job's result (a model trained in the page) is no option's: its link cannot hold it.
  const shown = { params: embedded.params, index: null, job: false };
  let answered = null;
  let takes = false; // the view opens at the index ctx.opening gives it: a link may hold its index
  let wanted = null; // the index a link asks the view to open at, until the view takes it (ctx.opening)
  let outcome = null; // what became of it: "taken", or "refused" (not one of the view's states)

  /** Warm up once Python is ready while the figure is near and runs no job; data-warm says how it
   *  went (running, done, stopped: a real job came first, failed), for tests: readers see nothing. */
  function tryWarm() {
    if (!warming || warming.state || current || !near() || runtime.state !== "ready") return;
    const w = warming;
    w.state = el.dataset.warm = "running";
    runtime.ask({ type: "job", name, job: w.job, params: w.params, warm: true, ...files }).result.then(
      (out) => { w.state = out ? "done" : ""; el.dataset.warm = out ? "done" : "stopped"; },
      () => { w.state = ""; el.dataset.warm = "failed"; });
  }

  /** A job's news for the page (running.js, which shows a job running out of sight): "start",
   *  "progress" (after the view has drawn its slices) or "end"; on the document, since the figure
   *  may be out of it (carried while the reader reads another page: figures.js). */
  const tell = (phase) => document.dispatchEvent(new CustomEvent("figurejob", { detail: { phase, figure: el } }));

  /** While Python boots for this figure's request or job, its note shows the boot's progress, in
   *  the note's neutral colour (data-kind="progress"; failures keep the warning colour), until the
   *  worker is ready: from then on the figure waits for its answer, not for the boot. */
  function showBoot() {
    if (runtime.state === "ready" || runtime.state === "unavailable") return () => {};
    let shown = null; // the boot line on the note, cleared when done unless something replaced it
    const clear = () => {
      if (shown !== null && note.textContent === shown) ctx.note("");
      shown = null;
    };
    const show = (state, text) => {
      if (state === "loading" || state === "idle") {
        ctx.note(shown = text);
        note.dataset.kind = "progress";
      } else if (state === "ready") clear();
    };
    show(runtime.state, runtime.text || "Live figures are starting…");
    const stop = runtime.subscribe((state, text) => show(state, text));
    return () => {
      stop();
      clear();
    };
  }

  /** The one way a view asks the worker: `message` as runtime.ask takes it, onProgress for a
   *  job's slices. Resolves with the answer, or null if there is none (a cancelled job, or a
   *  failure: the note says why, "Could not <verb>: <why>", or verb(why) when it is a function). */
  async function ask(verb, message, onProgress) {
    if (!live) { ctx.note(`Could not ${verb}: ` + notLive(name).message); return null; }
    const booted = showBoot();
    busy++;
    el.setAttribute("aria-busy", "true");
    const job = message.type === "job";
    const kind = job ? "job" : "compute", turn = ++asked[kind];
    const newest = () => asked[kind] === turn; // an older ask answered late must not clear or replace a newer one's note
    if (job) current?.cancel(); // one job per figure
    if (job) answered = { job: true }; // a view drawing its slices as they come is showing the job's model
    let mine = null;
    try {
      // with the reader's files it reads, those it holds now (a file forgotten is not handed in)
      const all = { ...files.files, ...(readerNames.length ? await readerFiles(readerNames) : {}) };
      mine = runtime.ask({ ...message, name, ...(Object.keys(all).length ? { files: all } : {}) }, onProgress && ((slices) => {
        booted();
        onProgress(slices);
        if (job) tell("progress");
      }));
      if (job) {
        current = mine;
        tell("start");
      }
      const out = await mine.result;
      if (out && newest()) {
        ctx.note("");
        answered = job ? { job: true } : { params: out.params, job: false };
      }
      return out;
    } catch (err) {
      if (newest()) ctx.note(typeof verb === "function" ? verb(runtime.state === "unavailable" ? "Python is unavailable here" : err.message)
        : runtime.state === "unavailable" ? UNAVAILABLE : `Could not ${verb}: ` + err.message);
      return null;
    } finally {
      booted();
      if (current === mine) current = null;
      if (job && current === null) tell("end"); // not when a newer job of the figure took its place
      if (--busy === 0) el.removeAttribute("aria-busy");
    }
  }

  const ctx = {
    figure: el,
    data: embedded,
    numbers: el.querySelector(".figure-numbers"),
    /**
     * Show what the model wrote about the state on screen: `text` is data.text (or lines of the
     * same shape), `state` the index in text.states of the state shown, if the figure has states;
     * its lines come first, then text.fixed, the lines no state changes. Views never format key
     * numbers themselves (the model is their one source).
     */
    setText(text, state) {
      shown.index = Number.isInteger(state) ? state : null;
      const lines = state === undefined || !text.states ? text.numbers : [...text.states[state].numbers, ...(text.fixed ?? [])];
      ctx.numbers.replaceChildren(...lines.map((line) => {
        const li = document.createElement("li");
        li.textContent = line;
        return li;
      }));
    },
    note(text) { note.textContent = text || ""; note.hidden = !text; delete note.dataset.kind; },
    /** Recompute in the worker with new options; resolves with the new data, or null if Python is unavailable. */
    request(params) {
      return ask("recompute", { type: "compute", params });
    },
    /**
     * Run a long job of this figure's model in the worker (one per figure: a newer start cancels
     * the older one, and so does closing the tab; scrolling the figure away or following a link
     * in place does not, and the page then shows the text of the view's element marked
     * data-job-status, its progress line, in a bar with a way back: running.js, figures.js). onProgress(slices) gets the slices
     * made since its last call, in order, for the view to merge (runtime.js job). Resolves with
     * the last slice, or null if it was cancelled or Python is
     * unavailable (the figure then says why). aria-busy is set while a job runs.
     */
    job(job, params, onProgress) {
      warming = null; // a real run warms its own code
      return ask("run", { type: "job", job, params }, onProgress);
    },
    /**
     * Warm this figure's `job` for the reader's first run: once Python is ready while the figure
     * is near the screen, the worker runs a few throwaway steps of the same code (the model's
     * WARM[job]) at idle, giving way to any real job. It never starts Python, changes nothing on
     * the page, and stops being wanted once the figure runs a job of its own.
     */
    warm(job, params) {
      if (!live || !runtime) return;
      warming = { job, params, state: "" };
      tryWarm();
    },
    /** Cancel this figure's running job, if any (its job() promise resolves with null). */
    cancelJob() { current?.cancel(); },
    /** Whether a job of this figure is running. */
    get running() { return current !== null; },
    /** Views call this after drawing worker output. */
    markLive() {
      el.dataset.state = "live";
      if (answered) Object.assign(shown, answered);
      answered = null;
    },
    /**
     * The index of the precomputed state the view opens in: `fallback` (its own opening state,
     * data.start), unless the reader opened a link to another of its `count` states (by default
     * one per text.states). A view with states calls it once as it mounts, and shows the state
     * with setText(text, index) (a view whose lines are templates passes its own text and the
     * index); a view that does not call it is linked by its options alone.
     */
    opening(fallback, count = ctx.data.text.states?.length ?? 0) {
      takes = true;
      if (wanted === null) return fallback;
      const i = wanted;
      wanted = null;
      outcome = i < count ? "taken" : "refused";
      return outcome === "taken" ? i : fallback;
    },
    /** The page's Python: its state (idle, loading, ready, unavailable; always unavailable on a
     *  page with no live figure) and subscribe(fn(state, text)). */
    python: {
      get state() { return runtime?.state ?? "unavailable"; },
      subscribe: (fn) => runtime?.subscribe(fn) ?? (() => {}),
    },
  };
  /** figures.js's side of links: what the figure shows, as a link's state; the data and step the
   *  view is to open in next (then what became of the step); a recompute for a link's options. */
  const link = {
    embedded,
    state() {
      if (shown.job) return null;
      const state = {};
      const p = changed(shown.params, embedded.params);
      if (Object.keys(p).length) state.p = p;
      if (takes && shown.index !== null) state.i = shown.index;
      return state;
    },
    open(data, index) {
      ctx.data = data;
      Object.assign(shown, { params: data.params, index: null, job: false });
      answered = null;
      takes = false;
      wanted = index;
      outcome = null;
    },
    /** After the view mounted: "taken", "refused" (out of range), "unused" (a view that opens at
     *  no step was given one) or null (none was asked). */
    outcome() {
      if (wanted !== null) { wanted = null; return "unused"; }
      return outcome;
    },
    recompute(params, refuse) {
      return ask(refuse, { type: "compute", params });
    },
  };

  ctx.note("");
  root.after(note);
  return { ctx, tryWarm, link };
}
