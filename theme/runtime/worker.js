// Module Web Worker: Pyodide with numpy and the engine wheel, as the backend server.js serves: the
// figures' computes and long jobs, and the exercises' grading (grader.js boots a second one, so a
// reader's code never shares a worker with the figures).
import { serve } from "./server.js";

let engine = null;
let exercises = null;
let pyodide = null;
// What the figures' models read beyond their options (engine/given.py), as the page's files were
// fetched: a Python Given held here, by the worker; each compute and job is handed the part of it
// its message names (a file the page no longer hands in, such as a model the reader forgot, is not
// read from an earlier message's).
let given = null;

/** fn(the files of `files` the worker holds, as a Given), the Given's proxy released after. */
function withGiven(files, fn) {
  const part = given ? given.only(Object.keys(files ?? {})) : null;
  try {
    return fn(part);
  } finally {
    part?.destroy();
  }
}

serve({
  boot,
  calls: {
    compute: ({ name, params, files }) => withGiven(files, (g) => JSON.parse(engine.compute_json(name, JSON.stringify(params ?? {}), g))),
    // A figure's model imported before its first compute, and with the model's PREPARE its page's
    // options computed once (figures.js asks once Python is ready, as the figure nears or the
    // reader shows the intent to open its page): the reader's first change waits on neither. It
    // names no files, and reads what the worker holds: a model not given yet cannot be prepared.
    prepare: ({ name, params }) => {
      engine.prepare_json(name, JSON.stringify(params ?? {}), given);
      return { ok: true, data: null };
    },
    grade: ({ exercise, code }) => {
      exercises ??= pyodide.pyimport("engine.exercises");
      return JSON.parse(exercises.grade_json(exercise, code));
    },
  },
  jobs: {
    start: (name, job, params, warm, files) => withGiven(files, (g) => engine.FigureJob.from_json(name, job, JSON.stringify(params), warm, g)),
    advance: (handle, seconds) => JSON.parse(handle.advance_json(seconds)),
    drop: (handle) => handle.destroy(),
  },
  give,
});

// Through Pyodide's file system: the engine reads plain bytes, and no buffer proxy crosses into Python.
const GIVEN_PATH = "/tmp/given";

async function give(name, url) {
  let response;
  try {
    response = await fetch(url);
  } catch (err) {
    throw new Error("The figure's model could not be downloaded: " + (err.message || err));
  }
  if (!response.ok) throw new Error("The figure's model could not be downloaded: HTTP " + response.status);
  pyodide.FS.writeFile(GIVEN_PATH, new Uint8Array(await response.arrayBuffer()));
  withFile ??= pyodide.runPython(WITH_FILE);
  const before = given;
  given = withFile(before, name, GIVEN_PATH);
  before?.destroy();
}

// given, with the file at path under name (a new Given: hashed once, as it arrives).
const WITH_FILE = `
from engine.given import NOTHING
def with_file(given, name, path):
    with open(path, "rb") as f:
        return (given or NOTHING).with_file(name, f.read())
with_file`;
let withFile = null;

function unavailable(stage, reason) {
  return Object.assign(new Error(reason), { stage, reason });
}

// Pyodide's loadPyodide never settles when its wasm fails to load (it only logs), so check the
// file is there first, and give up if start-up stalls far longer than a slow download needs.
const CORE_STALL_MS = 180_000;

async function checkCore(indexURL) {
  let response;
  try {
    response = await fetch(indexURL + "pyodide.asm.wasm", { method: "HEAD" });
  } catch (err) {
    throw unavailable("core", "Python (Pyodide) could not be downloaded: " + (err.message || err));
  }
  if (!response.ok) {
    throw unavailable("core", "Python (Pyodide) could not be downloaded: HTTP " + response.status + " for pyodide.asm.wasm");
  }
}

function stalled(ms, stage, reason) {
  return new Promise((_, reject) => setTimeout(() => reject(unavailable(stage, reason)), ms));
}

// The site's pyodide-lock.json (the engine registered in it at build time). Packages the site
// serves itself are made absolute here, so that with numpy from the CDN (packageBaseUrl) the
// engine still comes from the site; the others stay relative to packageBaseUrl.
async function siteLock(config) {
  const url = config.indexURL + config.lock; // named by its content, unlike the files Pyodide asks for
  const response = await fetch(url);
  if (!response.ok) throw unavailable("core", "Python (Pyodide) could not be downloaded: HTTP " + response.status + " for its package list");
  const lock = await response.json();
  for (const name of config.shipped) {
    const entry = lock.packages[name];
    if (entry) entry.file_name = new URL(entry.file_name, config.indexURL).href;
  }
  return lock;
}

// Marks on the worker's performance timeline (benchmarks/navigation.py reads them with the
// resource timings of the files the boot fetched): nothing a reader sees.
const mark = (name) => performance.mark("boot:" + name);

// Python's start-up as the build made it (builder/snapshot.py): Python's memory once started, which
// Pyodide restores instead of starting Python again. Gzipped; DecompressionStream unpacks it as it
// downloads.
async function snapshotBytes(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error("HTTP " + response.status + " for the snapshot");
  const bytes = new Uint8Array(await new Response(response.body.pipeThrough(new DecompressionStream("gzip"))).arrayBuffer());
  mark("snapshot");
  return bytes;
}

async function startPython(loadPyodide, options) {
  try {
    return await Promise.race([
      loadPyodide(options),
      stalled(CORE_STALL_MS, "core", "Python (Pyodide) did not start within " + CORE_STALL_MS / 1000 + " s"),
    ]);
  } catch (err) {
    throw err.reason ? err : unavailable("core", "Python (Pyodide) could not start: " + (err.message || err));
  }
}

// --- Bytes downloaded while Python starts ------------------------------------------------------
// The boot's progress is the share of its files' bytes that has arrived: the build lists each file
// Pyodide's folder serves the boot, with its size (config.downloads). Pyodide fetches them itself
// (its wasm, standard library and wheels), so the worker's fetch is wrapped while it boots, and the
// body of each listed file is counted as it streams in (decoded: what the file holds, however it
// was compressed on the way). Files from elsewhere (numpy from a CDN) are not counted: the stages
// after the download say what they are doing instead.
const PROGRESS_STEP = 5; // percent: the status line is a live region, so a change is news, not noise

function countDownloads(config, files, report) {
  const sizes = new Map(Object.entries(files).map(([name, size]) => [new URL(name, config.indexURL).href, size]));
  const total = [...sizes.values()].reduce((a, b) => a + b, 0);
  const plain = globalThis.fetch;
  let done = 0;
  const counted = (body) => body.pipeThrough(new TransformStream({
    transform(chunk, controller) {
      done = Math.min(total, done + chunk.byteLength);
      report(done, total);
      controller.enqueue(chunk);
    },
  }));
  globalThis.fetch = async function (resource, options) {
    const response = await plain.call(this, resource, options);
    const href = new URL(resource instanceof Request ? resource.url : String(resource), self.location.href).href;
    const method = (options?.method ?? (resource instanceof Request ? resource.method : "GET")).toUpperCase();
    if (!sizes.has(href) || method !== "GET" || !response.ok || !response.body) return response; // a HEAD has a body too, empty
    sizes.delete(href); // counted once, however often it is asked for
    return new Response(counted(response.body), { status: response.status, statusText: response.statusText, headers: response.headers });
  };
  return { total, stop: () => { globalThis.fetch = plain; } };
}

const megabytes = (bytes) => (bytes / 1e6).toFixed(1);
const share = (done, total) => (total ? Math.floor((100 * done) / total / PROGRESS_STEP) * PROGRESS_STEP : 0);

/** The download's words: its share, the megabytes that came and the total; once all came, what follows. */
function downloadText(done, total) {
  if (!total) return "Starting Python: downloading it…";
  if (done >= total) return `Starting Python: downloaded ${megabytes(total)} MB, starting it…`;
  return `Starting Python: downloading it… ${share(done, total)}% (${megabytes(done)} of ${megabytes(total)} MB)`;
}

async function boot(config, status) {
  const restores = Boolean(config.snapshot) && typeof DecompressionStream === "function";
  const files = { ...config.downloads };
  if (!restores) delete files[config.snapshot]; // not fetched: Python starts itself
  let shown = 0;
  const downloads = countDownloads(config, files, (done, total) => {
    if (share(done, total) === shown) return;
    shown = share(done, total);
    status("loading", "core", downloadText(done, total));
  });
  status("loading", "core", downloadText(0, downloads.total));
  try {
    await startEngine(config, status, restores);
  } finally {
    downloads.stop();
  }
}

async function startEngine(config, status, restores) {
  mark("start");
  // The snapshot, the core's check, the lock and Pyodide's script are fetched side by side.
  const snapshot = restores ? snapshotBytes(config.indexURL + config.snapshot) : null;
  const core = import(config.indexURL + "pyodide.mjs");
  const lock = siteLock(config);
  for (const p of [snapshot, core, lock]) p?.catch(() => {});
  await checkCore(config.indexURL);
  // By name, and what its lock entry depends on: numpy. Built without pyodide-build, the lock has no
  // entry for the engine: its wheel comes by URL after the boot, and its needs by name (builder/lockfile.py).
  // Named to loadPyodide, the packages download while Pyodide starts, not after it.
  const early = config.engineWheel ? config.engineNeeds : [config.engine];
  let loadPyodide;
  let lockFileContents;
  try {
    ({ loadPyodide } = await core);
    lockFileContents = await lock;
  } catch (err) {
    throw err.reason ? err : unavailable("core", "Python (Pyodide) could not start: " + (err.message || err));
  }
  // fsInit runs once the core's wasm is compiled and instantiated, before Python starts (or is restored).
  const options = { indexURL: config.indexURL, stdout: () => {}, stderr: () => {}, packages: early, lockFileContents,
                    fsInit: () => mark("wasm"), packageBaseUrl: config.packageBaseUrl || config.indexURL };
  if (snapshot) {
    try {
      pyodide = await startPython(loadPyodide, { ...options, _loadSnapshot: snapshot });
      // Pyodide keeps its options for the worker's life: not the snapshot's 20 MB, once restored.
      if (pyodide._api?.config) delete pyodide._api.config._loadSnapshot;
      // Every restore would otherwise draw the same random numbers: the snapshot's seed.
      pyodide.runPython("import random; random.seed()");
      mark("restored");
    } catch (err) {
      // A snapshot that does not fit this core, or did not arrive: Python starts as without one.
      const why = String(err.reason || err.message || err).split("\n")[0];
      console.warn("Python's start-up snapshot was not used, so Python starts itself: " + why);
      mark("snapshot-failed");
      pyodide = null;
    }
  }
  pyodide ??= await startPython(loadPyodide, options);
  mark("core");
  status("loading", "python", "Starting Python: loading numpy…");
  // Pyodide's own load errors go to the console for developers; the reader gets one line below.
  const quiet = { messageCallback: () => {}, errorCallback: (m) => console.warn(m) };
  try {
    if (config.engineWheel) await pyodide.loadPackage(new URL(config.engineWheel, config.indexURL).href, quiet);
  } catch (err) {
    console.warn(err);
  }
  mark("packages");
  // A package can fail to load without an error here, so the import is the real check.
  try {
    pyodide.runPython("import numpy");
    mark("numpy");
  } catch (err) {
    // Reader words: what works and what to do, never how the site was built.
    throw unavailable("numpy", config.vendored.length
      ? "Live figures could not start: part of Python failed to load. Reload to try again; every figure still shows its precomputed result."
      : "Live figures need a connection the first time (to fetch numpy); this page works without them, with every figure's precomputed result.");
  }
  status("loading", "engine", "Starting Python: loading the attention engine…");
  try {
    engine = pyodide.pyimport("engine.figures");
  } catch (err) {
    throw unavailable("engine", "The attention engine failed to load: " + (err.message || err));
  }
  mark("engine");
  try {
    // Training draws its batches with numpy.random: imported now, it is not paid on a Retrain click.
    pyodide.runPython("import numpy.random");
  } catch {
    // Only a warm-up: whatever needs it imports it, and says so if it cannot.
  }
}
