// The page's one Python runtime: a module Web Worker running Pyodide and the engine.
// States (mirrored on [data-runtime-status]): idle -> loading -> ready | unavailable.

const statusEl = document.querySelector("[data-runtime-status]");
const configEl = document.getElementById("runtime-config");
const pending = new Map();
const listeners = new Set(); // status listeners: figures waiting on Python show its progress
let worker = null;
let nextId = 1;
let readyResolve;
let readyReject;
const ready = new Promise((resolve, reject) => { readyResolve = resolve; readyReject = reject; });
ready.catch(() => {}); // rejection is reported through the status line, not as an unhandled error

export const runtime = {
  state: "idle",
  reason: "",
  text: "",
  /** Call fn(state, text) on every status change until the returned function is called. */
  subscribe(fn) {
    listeners.add(fn);
    return () => listeners.delete(fn);
  },
  /** Start the worker once; safe to call often. */
  start() {
    if (this.state !== "idle") return;
    const why = unsupportedReason();
    if (why) return fail(why);
    const config = resolveConfig(JSON.parse(configEl.textContent));
    setStatus("loading", "Live figures are starting… 0%", "start");
    try {
      worker = new Worker(new URL("./worker.js", import.meta.url), { type: "module" });
    } catch (err) {
      return fail("The Python worker could not start: " + err.message);
    }
    worker.onmessage = (e) => onMessage(e.data);
    // An error event without a message is the worker script itself failing to load.
    worker.onerror = (e) => {
      e.preventDefault?.();
      fail(e.message ? "The Python worker crashed: " + e.message : "The Python worker could not be loaded.");
    };
    worker.postMessage({ type: "boot", config });
  },
  /**
   * Start a long job of figure `name` (its model's JOBS[job]) in the worker. `key` names the
   * figure: a newer start with the same key cancels the older job. onProgress(slices) receives the
   * job's slices (the model's own dicts, engine/jobs.py) since the last call, in order, at most
   * about ten times a second. Returns { result, cancel }: result resolves with the last slice,
   * or null if the job was cancelled; it rejects on an error or when Python is unavailable.
   */
  job(key, name, job, params, onProgress) {
    this.start();
    const id = nextId++;
    let cancelled = false;
    const result = ready.then(() => new Promise((resolve, reject) => {
      if (cancelled) return resolve(null);
      pending.set(id, { resolve, reject, onProgress });
      worker.postMessage({ type: "job", id, key, name, job, params });
    }));
    const cancel = () => {
      if (cancelled) return;
      cancelled = true;
      if (pending.has(id)) worker.postMessage({ type: "job-cancel", id });
    };
    return { result, cancel };
  },
  /**
   * Warm figure `name`'s job `job` in the worker (its model's WARM[job]: a few throwaway steps of
   * the same code, so the reader's first run does not pay the browser's first compiling). Never
   * starts Python: call it once the state is ready. Resolves with { done, step, error? }: done is
   * false when a real job came first (the warm-up gives way) or it failed.
   */
  warm(name, job, params) {
    const id = nextId++;
    return ready.then(() => new Promise((resolve, reject) => {
      pending.set(id, { resolve, reject });
      worker.postMessage({ type: "warm", id, name, job, params });
    }));
  },
  /** Run a figure model in the worker; resolves with its JSON output. */
  async compute(name, params) {
    this.start();
    await ready;
    return new Promise((resolve, reject) => {
      const id = nextId++;
      pending.set(id, { resolve, reject });
      worker.postMessage({ type: "compute", id, name, params });
    });
  },
};

export function unsupportedReason() {
  if (location.protocol === "file:") {
    return "Opened as a file, this page cannot start live figures (browsers only run them for pages from a web server); it works without them.";
  }
  if (typeof WebAssembly !== "object") return "This browser has no WebAssembly, so live figures cannot run here; every figure shows its precomputed result.";
  if (typeof Worker !== "function") return "This browser has no Web Workers, so live figures cannot run here; every figure shows its precomputed result.";
  return "";
}

export function resolveConfig(config) {
  const base = document.baseURI;
  return {
    ...config,
    indexURL: new URL(config.indexURL, base).href,
  };
}

function onMessage(msg) {
  if (msg.type === "status") {
    // The worker's words are about Python; the status line speaks of the live figures.
    if (msg.state === "ready") { setStatus("ready", "Live figures are ready: they recompute as you change them.", msg.stage); readyResolve(); }
    else if (msg.state === "unavailable") fail(msg.text, msg.stage);
    else setStatus(msg.state, "Live figures are starting. " + msg.text, msg.stage);
  } else if (msg.type === "job-progress") {
    pending.get(msg.id)?.onProgress?.(msg.data);
  } else if (["result", "error", "job-done", "job-cancelled", "job-error", "warm-done"].includes(msg.type)) {
    const p = pending.get(msg.id);
    if (!p) return;
    pending.delete(msg.id);
    if (msg.type === "result" || msg.type === "job-done") p.resolve(msg.data);
    else if (msg.type === "warm-done") p.resolve({ done: msg.done, step: msg.step, error: msg.error });
    else if (msg.type === "job-cancelled") p.resolve(null);
    else p.reject(new Error(msg.message));
  }
}

function fail(text, stage = "failed") {
  if (runtime.state === "unavailable") return;
  setStatus("unavailable", text, stage);
  readyReject(new Error(text));
  for (const p of pending.values()) p.reject(new Error(text));
  pending.clear();
  worker?.terminate();
}

function setStatus(state, text, stage) {
  runtime.state = state;
  runtime.text = text;
  if (state === "unavailable") runtime.reason = text;
  for (const fn of listeners) fn(state, text);
  if (statusEl) {
    statusEl.dataset.state = state;
    statusEl.dataset.stage = stage;
    statusEl.textContent = text;
  }
}
