// Make a memory snapshot of Pyodide's core with Python started: the pages' worker restores it instead
// of starting Python itself, which is most of the CPU of a first boot once the wasm is compiled.
// usage: node builder/snapshot.mjs CORE_DIR OUT_FILE   (CORE_DIR: pyodide.mjs and the files it loads)
// The snapshot holds Python's memory only, no package: Pyodide cannot snapshot a loaded binary
// extension (numpy's), so the worker loads numpy and the engine after restoring, as it always did.
// Made the same way twice, it is the same bytes: the entropy and the clocks Python reads while it
// starts are fixed here (the worker reseeds `random` after a restore; str hashes keep one seed).
import { createRequire, syncBuiltinESMExports } from "node:module";
import { writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";

const [core, out] = process.argv.slice(2).map((p) => p && resolve(p));
if (!core || !out) {
  console.error("usage: node snapshot.mjs CORE_DIR OUT_FILE");
  process.exit(2);
}

// Pyodide under Node draws its entropy from node:crypto's randomFillSync and its clocks from Date.now
// and performance.now: each gives the same sequence on every run.
const crypto = createRequire(import.meta.url)("crypto");
let state = 0x9e3779b9;
crypto.randomFillSync = (view) => {
  const bytes = new Uint8Array(view.buffer, view.byteOffset, view.byteLength);
  for (let i = 0; i < bytes.length; i++) {
    state ^= state << 13; state ^= state >>> 17; state ^= state << 5; // xorshift32
    bytes[i] = state & 0xff;
  }
  return view;
};
syncBuiltinESMExports();
let ticks = 0;
const EPOCH_MS = Date.UTC(2025, 0, 1);
Date.now = () => EPOCH_MS + ticks++;
performance.now = () => ticks++;

const { loadPyodide } = await import(pathToFileURL(join(core, "pyodide.mjs")).href);
const pyodide = await loadPyodide({ indexURL: core + "/", _makeSnapshot: true, stdout: () => {}, stderr: () => {} });
const snapshot = pyodide.makeMemorySnapshot();
// The worker's restore copies it into the memory Pyodide starts with, which cannot grow first.
if (snapshot.length > pyodide._module.HEAP8.length + 65536) {
  console.error(`the snapshot (${snapshot.length} bytes) is larger than Pyodide's first memory`);
  process.exit(1);
}
writeFileSync(out, snapshot);
