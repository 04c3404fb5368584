// The page's one Python runtime: a module Web Worker running Pyodide and the engine (worker.js,
// served by server.js, whose protocol connect() speaks for this page and for the grader's).
// States (mirrored on [data-runtime-status]): idle -> loading -> ready | unavailable. The worker
// outlives the page it started on when links are followed in place (nav.js): each page's status
// line shows the state as the page enters (page.js).
import { eachPage } from "../js/page.js";

const listeners = new Set(); // status listeners: figures waiting on Python show its progress
let worker = null; // connect()'s answer once started

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
    if (why) return setStatus("unavailable", why, "failed");
    setStatus("loading", "Live figures are starting…", "start");
    // The worker's words are about Python; the status line speaks of the live figures.
    worker = connect((state, stage, text) => {
      if (state === "ready") setStatus("ready", "Live figures are ready: they recompute as you change them.", stage);
      else if (state === "unavailable") setStatus("unavailable", text, stage);
      else setStatus(state, "Live figures are starting. " + text, stage);
    });
  },
  /**
   * Send `message` to the worker (server.js: a call such as {type: "compute", name, params}, or a
   * job {type: "job", name, job, params, warm}), starting it if need be. onProgress(slices) hears
   * a job's progress. Returns { result, cancel }: result resolves with the answer (a job's last
   * slice, or null if it was cancelled) and rejects on an error or when Python is unavailable.
   */
  ask(message, onProgress) {
    this.start();
    return worker ? worker.call(message, onProgress) : { result: Promise.reject(new Error(this.reason)), cancel() {} };
  },
};

/**
 * Boot a Python worker (worker.js) and speak server.js's protocol to it. onStatus(state, stage,
 * text) hears its boot, and "unavailable" once if it cannot start, crashes or is stopped.
 * Returns { ready: resolves once Python runs, rejects with why not; call(message, onProgress) ->
 * { result, cancel }: result resolves with the answer (null for a cancelled job) and rejects with
 * the worker's error; stop(): terminates the worker, rejecting whatever waits on it }.
 */
export function connect(onStatus) {
  const pending = new Map(); // id -> { resolve, reject, onProgress }
  let nextId = 1;
  let readyResolve;
  let readyReject;
  const ready = new Promise((resolve, reject) => { readyResolve = resolve; readyReject = reject; });
  ready.catch(() => {}); // a rejection is reported through onStatus, not as an unhandled error
  let worker = null;
  let stopped = null;

  function stop(text, stage = "failed") {
    if (stopped) return;
    stopped = new Error(text);
    readyReject(stopped);
    for (const p of pending.values()) p.reject(stopped);
    pending.clear();
    worker?.terminate();
    onStatus("unavailable", stage, text);
  }

  try {
    worker = new Worker(new URL("./worker.js", import.meta.url), { type: "module" });
  } catch (err) {
    stop("The Python worker could not start: " + err.message);
  }
  if (worker) {
    worker.onmessage = ({ data: msg }) => {
      if (msg.type === "status") {
        if (msg.state === "unavailable") return stop(msg.text, msg.stage);
        if (msg.state === "ready") readyResolve();
        return onStatus(msg.state, msg.stage, msg.text);
      }
      const p = pending.get(msg.id);
      if (!p) return;
      if (msg.type === "progress") return p.onProgress?.(msg.data);
      pending.delete(msg.id);
      if (msg.type === "error") p.reject(new Error(msg.message));
      else p.resolve(msg.type === "result" ? msg.data : null);
    };
    // An error event without a message is the worker script itself failing to load.
    worker.onerror = (e) => {
      e.preventDefault?.();
      stop(e.message ? "The Python worker crashed: " + e.message : "The Python worker could not be loaded.");
    };
    const config = keepConfig();
    if (config) worker.postMessage({ type: "boot", config });
    else stop("Live figures cannot start from this page.");
  }

  return {
    ready,
    call(message, onProgress) {
      const id = nextId++;
      if (stopped) return { result: Promise.reject(stopped), cancel() {} };
      const result = new Promise((resolve, reject) => pending.set(id, { resolve, reject, onProgress }));
      worker.postMessage({ ...message, id });
      return { result, cancel: () => pending.has(id) && worker.postMessage({ type: "cancel", id }) };
    },
    stop: (text = "stopped") => stop(text),
  };
}

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

let stage = ""; // the last stage the status line showed

function setStatus(state, text, at) {
  runtime.state = state;
  runtime.text = text;
  stage = at;
  if (state === "unavailable") runtime.reason = text;
  for (const fn of listeners) fn(state, text);
  showStatus();
}

function showStatus() {
  const el = document.querySelector("[data-runtime-status]");
  if (!el || runtime.state === "idle") return; // idle: the line keeps the page's own words (page-status.js)
  el.dataset.state = runtime.state;
  el.dataset.stage = stage;
  el.textContent = runtime.text;
}

eachPage(showStatus);

// The build's runtime config, which every page that uses Python embeds: the same on each of them,
// as nav.js shows pages in place only within one build. Kept from the first page that holds it, so
// a worker that starts after the reader has moved on in place to a page without one (a figure
// neared, then a link to the search page followed at once) boots all the same.
let config = null;

function keepConfig() {
  const el = document.getElementById("runtime-config");
  if (!config && el) config = resolveConfig(JSON.parse(el.textContent));
  return config;
}

eachPage(() => { keepConfig(); });
