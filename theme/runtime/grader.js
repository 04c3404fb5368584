// The exercises' grader: a Python worker of its own (the same worker.js as the figures', booted
// separately), so the reader's code can neither reach the page nor stall the figures, and a run
// that must be stopped takes only this worker with it. It boots on the reader's intent (warm(): the
// exercise in view, focus or a key in it), not at the first Run. A run that takes longer than
// TIME_LIMIT_MS after Python is ready (a runaway loop, a huge allocation) is stopped by terminating
// the worker, and its replacement starts booting at once, so the next Run does not wait again.
import { connect, unsupportedReason } from "./runtime.js";

export const TIME_LIMIT_MS = 5000;

let worker = null; // connect()'s answer while it runs or boots
const listeners = new Set(); // onStatus of the runs waiting for Python to start

function boot() {
  worker = connect((state, stage, text) => {
    if (state === "loading") for (const fn of listeners) fn(text);
  });
}

function stop() {
  worker?.stop();
  worker = null;
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
    await worker.ready;
  } catch (err) {
    stop(); // a later run tries again from scratch
    return { state: "unavailable", message: err.message };
  } finally {
    listeners.delete(onStatus);
  }
  let timer;
  const limit = new Promise((resolve) => { timer = setTimeout(() => resolve({ state: "timeout" }), TIME_LIMIT_MS); });
  try {
    const out = await Promise.race([worker.call({ type: "grade", exercise, code }).result, limit]);
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
