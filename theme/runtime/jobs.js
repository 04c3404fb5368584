// Long jobs in the worker (engine/jobs.py): a job runs in slices of about SLICE_S seconds, and
// between slices the worker reads its messages, so a cancel, or a newer start for the same
// figure, stops a job within one slice. A slice's output is the figure's own (engine/jobs.py):
// this file reads only its `done`. Progress is throttled to one message per PROGRESS_MS, which
// carries every slice since the last one, in order, for the figure to merge; so the page draws at
// most ~10 frames a second however fast the engine steps, and no slice is lost. `backend` starts
// and advances jobs: Pyodide in worker.js, the engine on CPython behind the tests' stand-in worker.

export const SLICE_S = 0.05;
export const PROGRESS_MS = 100;

const nextTask = () => new Promise((resolve) => setTimeout(resolve, 0));

/**
 * backend: { start(name, job, params, warm) -> handle (warm: the model's warm-up for the job),
 *            advance(handle, seconds) -> {ok, data | error}, drop(handle) } (each may return a
 *            promise); post(message) sends to the page.
 * Messages out: job-progress {id, data: [slice, ...]} (the slices not yet posted), job-done {id,
 * data: the last slice}, job-cancelled {id}, job-error {id, message}; warm-done (see warm).
 */
export function jobRunner(backend, post) {
  const running = new Map(); // figure key -> { id, cancelled }
  const early = new Set(); // ids cancelled before their start arrived (it waits for Python)

  async function start({ id, key, name, job, params }) {
    if (early.delete(id)) return post({ type: "job-cancelled", id });
    const old = running.get(key);
    if (old) old.cancelled = true;
    const entry = { id, cancelled: false };
    running.set(key, entry);
    let handle = null;
    try {
      handle = await backend.start(name, job, params);
      let slices = []; // made since the last progress message
      let last = -Infinity;
      for (;;) {
        if (entry.cancelled) return post({ type: "job-cancelled", id });
        const out = await backend.advance(handle, SLICE_S);
        if (!out.ok) return post({ type: "job-error", id, message: out.error });
        if (out.data.done) {
          if (slices.length) post({ type: "job-progress", id, data: slices });
          return post({ type: "job-done", id, data: out.data });
        }
        slices.push(out.data);
        if (performance.now() - last >= PROGRESS_MS) {
          post({ type: "job-progress", id, data: slices });
          slices = [];
          last = performance.now();
        }
        await nextTask();
      }
    } catch (err) {
      // A Python error's message is its whole traceback: the page gets the last line.
      const lines = String(err.message || err).trim().split("\n");
      console.error(err);
      post({ type: "job-error", id, message: lines[lines.length - 1] });
    } finally {
      if (handle !== null) await backend.drop(handle);
      if (running.get(key) === entry) running.delete(key);
    }
  }

  /**
   * A figure model's warm-up for `job` (its WARM[job], engine/figures): a few throwaway steps of
   * the job's code, so that the reader's first run finds numpy's hot code compiled. One step per
   * task, so a message arriving meanwhile waits one step at most; it gives way to any real job
   * (stops at once). Posts warm-done {id, done: ran to its end, step, setup and longest: the ms its
   * set-up took (mostly importing the model, which a real job would do first anyway) and its
   * longest step, the waits it could have caused, error?}; nothing else.
   */
  async function warm({ id, name, job, params }) {
    let handle = null;
    let step = 0;
    let setup = 0;
    let longest = 0;
    const report = (fields) => post({ type: "warm-done", id, done: false, step, setup, longest, ...fields });
    try {
      for (;;) {
        await nextTask(); // whatever arrived meanwhile (a job, a compute) goes first
        if (running.size) return report({});
        const t0 = performance.now();
        if (handle === null) {
          handle = await backend.start(name, job, params, true); // its set-up is a task of its own
          setup = performance.now() - t0;
          continue;
        }
        const out = await backend.advance(handle, 0); // a zero budget: one step
        longest = Math.max(longest, performance.now() - t0);
        if (!out.ok) return report({ error: out.error });
        step = out.data.step;
        if (out.data.done) return report({ done: true });
      }
    } catch (err) {
      const lines = String(err.message || err).trim().split("\n");
      report({ error: lines[lines.length - 1] });
    } finally {
      if (handle !== null) await backend.drop(handle);
    }
  }

  function cancel({ id }) {
    const entry = [...running.values()].find((e) => e.id === id);
    if (entry) entry.cancelled = true;
    else early.add(id);
  }

  return { start, warm, cancel };
}
