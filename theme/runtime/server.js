// The one message protocol between a page and a Python worker: a worker serves a backend (Pyodide
// in worker.js, the engine on CPython behind the tests' stand-in), and the page's side is
// runtime.js connect(). Written here rather than with Comlink: Comlink would have to be bundled
// into the site, has no stream of progress or cancel of a running job, and stopping runaway code
// still means terminating the worker; the whole protocol is this file.
//
// In:  boot {config}; a call {type: a name in backend.calls, id, ...fields}; job {id, name, job,
//      params, warm}; cancel {id}. Every message waits for the boot, so a cancel never overtakes
//      the job it cancels. A call or job may carry files {name: url}: what its figure's model reads
//      beyond its options (engine/given.py), each fetched and given to the engine once per url
//      before the message is served.
// Out: status {state: loading | ready | unavailable, stage, text}; progress {id, data: [slice,
//      ...]}; result {id, data}; error {id, message}; cancelled {id}. A job's last message also
//      carries step (the last step it made), slices (how many it advanced), setup and longest (ms
//      its start and its longest slice took: how long a message could wait behind it).
//
// Long jobs (engine/jobs.py) run in slices of about SLICE_S seconds, and between slices the
// worker reads its messages, so a cancel stops a job within one slice. A slice is the figure's
// own: this file reads only its `done` and `step`. Progress is throttled to one message per
// PROGRESS_MS carrying every slice since the last, in order, so the page draws at most ~10
// frames a second and no slice is lost. A warm-up (warm: the model's WARM[job], a few throwaway
// steps so the reader's first run finds numpy's hot code compiled) steps once per task, sends no
// progress and gives way to any real job: its messages wait one step at most.

export const SLICE_S = 0.05;
export const PROGRESS_MS = 100;

const nextTask = () => new Promise((resolve) => setTimeout(resolve, 0));

// A Python error's message is its whole traceback: the page gets the last line.
function lastLine(err) {
  const lines = String(err.message || err).trim().split("\n");
  return lines[lines.length - 1];
}

/**
 * backend: { boot(config, status(state, stage, text)) -> promise, rejecting with {stage, reason}
 *            when Python cannot start;
 *            calls: { name(message) -> {ok, data | error} };
 *            jobs: { start(name, job, params, warm) -> handle, advance(handle, seconds) ->
 *                    {ok, data | error}, drop(handle) };
 *            give(name, url): fetch url and give its bytes to the engine as `name`, rejecting with
 *                    an Error whose message a reader can read } (each may return a promise).
 */
export function serve(backend) {
  const post = (msg) => self.postMessage(msg);
  const status = (state, stage, text) => post({ type: "status", state, stage, text });
  const running = new Map(); // job id -> { warm, cancelled }
  let booting = null; // resolves true once Python runs, false if it cannot
  const given = new Map(); // file name -> { url, done: promise }, the latest given under that name

  /** Give every file of `files` the engine does not hold from the same url; concurrent messages
   *  share one fetch, and a failed one is tried again by the next message. */
  function giveFiles(files = {}) {
    return Promise.all(Object.entries(files).map(([name, url]) => {
      const held = given.get(name);
      if (held?.url === url) return held.done;
      const entry = { url, done: Promise.resolve(backend.give(name, url)) };
      entry.done.catch(() => given.get(name) === entry && given.delete(name));
      given.set(name, entry);
      return entry.done;
    }));
  }

  self.onmessage = async ({ data: msg }) => {
    if (msg.type === "boot") {
      booting ??= Promise.resolve(backend.boot(msg.config, status)).then(
        () => { status("ready", "ready", "Python is ready."); return true; },
        (err) => { status("unavailable", err.stage || "failed", err.reason || "Python could not start: " + err.message); return false; });
      return;
    }
    const up = await booting;
    if (msg.type === "cancel") {
      const job = running.get(msg.id);
      if (job) job.cancelled = true;
    } else if (!up) {
      post({ type: "error", id: msg.id, message: "Python is not running" });
    } else if (msg.type === "job") {
      run(msg);
    } else {
      try {
        await giveFiles(msg.files);
        const out = await backend.calls[msg.type](msg);
        post(out.ok ? { type: "result", id: msg.id, data: out.data } : { type: "error", id: msg.id, message: out.error });
      } catch (err) {
        console.error(err);
        post({ type: "error", id: msg.id, message: lastLine(err) });
      }
    }
  };

  async function run({ id, name, job, params, warm = false, files }) {
    const entry = { warm, cancelled: false };
    for (const other of running.values()) {
      if (other.warm && !warm) other.cancelled = true; // a warm-up gives way to any real job
      if (warm && !other.warm) entry.cancelled = true;
    }
    running.set(id, entry);
    const times = { step: 0, setup: 0, longest: 0, slices: 0 };
    const end = (msg) => post({ ...msg, id, ...times });
    let handle = null;
    let slices = []; // made since the last progress message
    let last = -Infinity;
    try {
      for (;;) {
        await nextTask(); // whatever arrived meanwhile (a cancel, a compute, a real job) goes first
        if (entry.cancelled) return end({ type: "cancelled" });
        const t0 = performance.now();
        if (handle === null) {
          await giveFiles(files);
          if (entry.cancelled) return end({ type: "cancelled" });
          handle = await backend.jobs.start(name, job, params ?? {}, warm, files); // a task of its own
          times.setup = performance.now() - t0;
          continue;
        }
        const out = await backend.jobs.advance(handle, warm ? 0 : SLICE_S); // a zero budget: one step
        times.longest = Math.max(times.longest, performance.now() - t0);
        times.slices += 1;
        if (!out.ok) return end({ type: "error", message: out.error });
        times.step = out.data.step;
        if (out.data.done) {
          if (slices.length) post({ type: "progress", id, data: slices });
          return end({ type: "result", data: out.data });
        }
        if (warm) continue;
        slices.push(out.data);
        if (performance.now() - last >= PROGRESS_MS) {
          post({ type: "progress", id, data: slices });
          slices = [];
          last = performance.now();
        }
      }
    } catch (err) {
      console.error(err);
      end({ type: "error", message: lastLine(err) });
    } finally {
      if (handle !== null) await backend.jobs.drop(handle);
      running.delete(id);
    }
  }
}
