// The exercises' grader: a Python worker of its own (the same worker.js as the figures', booted
// separately), so the reader's code can neither reach the page nor stall the figures, and a run
// that must be stopped takes only this worker with it. It boots on the reader's intent (warm(): the
// exercise in view, focus or a key in it), not at the first Run. A run that takes longer than
// TIME_LIMIT_MS after Python is ready (a runaway loop, a huge allocation) is stopped by terminating
// the worker, and its replacement starts booting at once, so the next Run does not wait again.
import { resolveConfig, unsupportedReason } from "./runtime.js";

export const TIME_LIMIT_MS = 5000;

let worker = null;
let ready = null; // resolves when the worker's Python is ready, rejects with why it is not
let nextId = 1;
const pending = new Map();
const listeners = new Set(); // onStatus of the runs waiting for Python to start

function boot() {
  const configEl = document.getElementById("runtime-config");
  const config = resolveConfig(JSON.parse(configEl.textContent));
  try {
    worker = new Worker(new URL("./worker.js", import.meta.url), { type: "module" });
  } catch (err) { // the Run says why; a later one tries again
    ready = Promise.reject(new Error("The Python worker could not start: " + err.message));
    ready.catch(() => {});
    return;
  }
  ready = new Promise((resolve, reject) => {
    worker.onmessage = (e) => {
      const msg = e.data;
      if (msg.type === "status") {
        if (msg.state === "ready") resolve();
        else if (msg.state === "unavailable") reject(new Error(msg.text));
        else for (const fn of listeners) fn(msg.text);
      } else if (msg.type === "result" || msg.type === "error") {
        const p = pending.get(msg.id);
        pending.delete(msg.id);
        if (msg.type === "result") p?.resolve(msg.data);
        else p?.reject(new Error(msg.message));
      }
    };
    worker.onerror = (e) => {
      e.preventDefault?.();
      reject(new Error(e.message ? "The Python worker crashed: " + e.message : "The Python worker could not be loaded."));
    };
  });
  ready.catch(() => {});
  worker.postMessage({ type: "boot", config });
}

function stop() {
  worker?.terminate();
  worker = null;
  ready = null;
  for (const p of pending.values()) p.reject(new Error("stopped"));
  pending.clear();
}

/** Start the grader's Python now, if it is not running or starting: the reader means to run code. */
export function warm() {
  if (!worker && !unsupportedReason()) boot();
}

/**
 * Grade `code` for `exercise`. onStatus(text) reports Python starting. Resolves with the grader's
 * verdict {state: passed | failed | error, message, line, case}, or {state: "timeout"} after the
 * time limit, or {state: "unavailable", message} when Python cannot run here.
 */
export async function grade(exercise, code, onStatus = () => {}) {
  const why = unsupportedReason();
  if (why) return { state: "unavailable", message: why };
  warm();
  listeners.add(onStatus);
  try {
    await ready;
  } catch (err) {
    stop(); // a later run tries again from scratch
    return { state: "unavailable", message: err.message };
  } finally {
    listeners.delete(onStatus);
  }
  const id = nextId++;
  const answer = new Promise((resolve, reject) => pending.set(id, { resolve, reject }));
  let timer;
  const limit = new Promise((resolve) => { timer = setTimeout(() => resolve({ state: "timeout" }), TIME_LIMIT_MS); });
  worker.postMessage({ type: "grade", id, exercise, code });
  try {
    const out = await Promise.race([answer, limit]);
    if (out.state === "timeout") {
      stop();
      boot(); // the replacement boots in the background while the reader reads the verdict
    }
    return out;
  } catch (err) {
    return { state: "error", message: err.message, line: null, case: null };
  } finally {
    clearTimeout(timer);
  }
}
