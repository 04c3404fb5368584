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
 * backend: { start(name, job, params) -> handle, advance(handle, seconds) -> {ok, data | error},
 *            drop(handle) } (each may return a promise); post(message) sends to the page.
 * Messages out: job-progress {id, data: [slice, ...]} (the slices not yet posted), job-done {id,
 * data: the last slice}, job-cancelled {id}, job-error {id, message}.
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

  function cancel({ id }) {
    const entry = [...running.values()].find((e) => e.id === id);
    if (entry) entry.cancelled = true;
    else early.add(id);
  }

  return { start, cancel };
}
