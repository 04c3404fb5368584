// Figure lifecycle: hydrate a [data-figure] from its embedded data (state "prerendered") when it
// nears the viewport or focus moves into it, so a page fetches only the views of the figures on
// its first screen (and those just below it); start Python when a live figure
// ([data-live]: its view can ask the worker) nears the viewport or on the first interaction with
// one, and mark a figure "live" once it has drawn a result computed in the worker. A page without
// a live figure never starts Python. Views live in ../figures/<name>.js; until a figure's view has
// drawn, nothing shows where its drawing will be (site.css: the static fallback is for readers
// without scripts, for print, and for a view that could not start).
// Only a page with a live figure loads the runtime's module: the others never use Python.
import { whenNear } from "./near.js";

const { runtime } = document.querySelector("[data-figure][data-live]")
  ? await import("../runtime/runtime.js")
  : { runtime: null };

const figures = [...document.querySelectorAll("[data-figure]")];
// figure element -> what the page keeps of it once it hydrates: { ctx, view (once mounted),
// tryWarm() (called when it nears or Python is ready) }
const hydrated = new Map();
const nearby = new Set(); // figures within the margin that starts Python (the observer's below)
runtime?.subscribe((state) => { if (state === "ready") for (const { tryWarm } of hydrated.values()) tryWarm(); });

function startSoon() {
  // Never before first paint: wait for a frame, then for the main thread to be free.
  requestAnimationFrame(() => setTimeout(() => runtime.start(), 0));
}

// A view that asks the worker must be marked live by its model (engine/figures: LIVE or JOBS),
// or its page would not load Python: say so loudly rather than start it anyway.
function notLive(name) {
  const err = new Error(`figure '${name}' asks the worker but is not data-live (set LIVE = True in its model)`);
  console.error(err);
  return err;
}

async function hydrate(el) {
  const name = el.dataset.figure;
  const live = el.hasAttribute("data-live");
  const data = JSON.parse(el.querySelector(".figure-data").textContent);
  const root = el.querySelector(".figure-view");
  const note = document.createElement("p");
  note.className = "figure-note";
  note.setAttribute("role", "status");
  let current = null; // the figure's running job: { result, cancel }
  let warming = null; // the job ctx.warm asked to warm: { job, params, state: "" | "running" | "done" }
  /** Warm up once Python is ready while the figure is near and runs no job; data-warm says how it
   *  went (running, done, stopped: a real job came first, failed), for tests: readers see nothing. */
  function tryWarm() {
    if (!warming || warming.state || current || !nearby.has(el) || runtime.state !== "ready") return;
    const w = warming;
    w.state = el.dataset.warm = "running";
    runtime.warm(name, w.job, w.params).then(
      (out) => { w.state = out.done ? "done" : ""; el.dataset.warm = out.done ? "done" : out.error ? "failed" : "stopped"; },
      () => { w.state = ""; el.dataset.warm = "failed"; });
  }
  /** While Python boots for this figure's request or job, its note shows the boot's progress. */
  function showBoot() {
    if (runtime.state === "ready" || runtime.state === "unavailable") return () => {};
    let shown = null; // the boot line on the note, cleared when done unless something replaced it
    const show = (state, text) => { if (state === "loading" || state === "idle") ctx.note(shown = text); };
    show(runtime.state, runtime.text || "Live figures are starting…");
    const stop = runtime.subscribe((state, text) => show(state, text));
    return () => {
      stop();
      if (shown !== null && note.textContent === shown) ctx.note("");
      shown = null;
    };
  }
  const ctx = {
    figure: el,
    data,
    numbers: el.querySelector(".figure-numbers"),
    /**
     * Show what the model wrote about the state on screen: `text` is data.text (or lines of the
     * same shape), `state` the index in text.states of the state shown, if the figure has states;
     * its lines come first, then text.fixed, the lines no state changes. Views never format key
     * numbers themselves (the model is their one source).
     */
    setText(text, state) {
      const lines = state === undefined ? text.numbers : [...text.states[state].numbers, ...(text.fixed ?? [])];
      ctx.numbers.replaceChildren(...lines.map((line) => {
        const li = document.createElement("li");
        li.textContent = line;
        return li;
      }));
    },
    note(text) { note.textContent = text || ""; note.hidden = !text; },
    /** Recompute in the worker with new options; resolves with the new data, or null if Python is unavailable. */
    async request(params) {
      if (!live) { ctx.note("Could not recompute: " + notLive(name).message); return null; }
      el.setAttribute("aria-busy", "true");
      const booted = showBoot();
      try {
        const out = await runtime.compute(name, params);
        ctx.note("");
        return out;
      } catch (err) {
        ctx.note(runtime.state === "unavailable"
          ? "Needs Python, which is unavailable here: showing the precomputed result."
          : "Could not recompute: " + err.message);
        return null;
      } finally {
        booted();
        el.removeAttribute("aria-busy");
      }
    },
    /**
     * Run a long job of this figure's model in the worker (one per figure: a newer start cancels
     * the older one, and so does scrolling the figure away). onProgress(slices) gets the slices
     * made since its last call, in order, for the view to merge (runtime.js job). Resolves with
     * the last slice, or null if it was cancelled or Python is
     * unavailable (the figure then says why). aria-busy is set while a job runs.
     */
    async job(job, params, onProgress) {
      if (!live) { ctx.note("Could not run: " + notLive(name).message); return null; }
      warming = null; // a real run warms its own code
      current?.cancel();
      const booted = showBoot();
      const mine = runtime.job(el.id, name, job, params, (p) => { booted(); onProgress(p); });
      current = mine;
      el.setAttribute("aria-busy", "true");
      try {
        const out = await mine.result;
        if (out) ctx.note("");
        return out;
      } catch (err) {
        ctx.note(runtime.state === "unavailable"
          ? "Needs Python, which is unavailable here: showing the precomputed result."
          : "Could not run: " + err.message);
        return null;
      } finally {
        booted();
        if (current === mine) { current = null; el.removeAttribute("aria-busy"); }
      }
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
    /** Views call this after drawing worker output. */
    markLive() { el.dataset.state = "live"; },
    /** The page's Python: its state (idle, loading, ready, unavailable; always unavailable on a
     *  page with no live figure) and subscribe(fn(state, text)). */
    python: {
      get state() { return runtime?.state ?? "unavailable"; },
      subscribe: (fn) => runtime?.subscribe(fn) ?? (() => {}),
    },
  };
  const figure = { ctx, view: null, tryWarm };
  hydrated.set(el, figure);
  ctx.note("");
  root.after(note);
  try {
    const mod = await import(`../figures/${name}.js`);
    figure.view = mod.mount(root, ctx);
    el.dataset.state = "prerendered";
  } catch (err) {
    // Show the static fallback again (site.css hides it while a view can load) and say why the
    // interactive view is missing.
    el.dataset.state = "static";
    el.dataset.viewFailed = "";
    ctx.note("This figure could not start its interactive view: " + err.message);
    console.error(err);
  }
}

// The page going away (closed, or into the back-forward cache) stops every job.
addEventListener("pagehide", () => { for (const { ctx } of hydrated.values()) ctx.cancelJob(); });
// Observes a figure once it has hydrated, so each entry's figure is in `hydrated`.
const observer = new IntersectionObserver((entries) => {
  for (const entry of entries) {
    const { ctx, view, tryWarm } = hydrated.get(entry.target);
    if (entry.isIntersecting) {
      if (entry.target.hasAttribute("data-live")) startSoon();
      nearby.add(entry.target);
      tryWarm();
      view?.onscreen?.();
    } else {
      nearby.delete(entry.target);
      ctx.cancelJob(); // a figure scrolled away stops its job
      view?.offscreen?.();
    }
  }
}, { rootMargin: "200px 0px" });

// A view's module loads when its figure nears the screen (near.js): early enough that a reader
// scrolling meets it drawn, and no page fetches the views of figures further down before the
// reader scrolls.
for (const el of figures) {
  whenNear(el, () => hydrate(el).then(() => observer.observe(el)));
  if (!el.hasAttribute("data-live")) continue;
  for (const type of ["pointerdown", "keydown", "focusin"]) {
    el.addEventListener(type, () => runtime.start(), { once: true, passive: true });
  }
}
