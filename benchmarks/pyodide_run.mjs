// Run Python in Pyodide under node, with real numpy and this checkout's engine/ (a benchmark helper).
// usage: node benchmarks/pyodide_run.mjs KIT_DIR ENGINE_DIR < script.py
// KIT_DIR is a Pyodide distribution with a numpy wheel (../shared/pyodide-kit/make-kit.sh makes one);
// the script's stdout is passed through, and the boot time is printed to stderr as JSON.
import { readFileSync, readdirSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";

const [kit, engine] = process.argv.slice(2).map((p) => resolve(p));
if (!kit || !engine) {
  console.error("usage: node pyodide_run.mjs KIT_DIR ENGINE_DIR < script.py");
  process.exit(2);
}
const t0 = performance.now();
const { loadPyodide } = await import(pathToFileURL(join(kit, "pyodide.mjs")).href);
const pyodide = await loadPyodide({ indexURL: kit + "/", stdout: (s) => console.log(s), stderr: (s) => console.error(s) });
const wheel = readdirSync(kit).find((f) => /^numpy-.*\.whl$/.test(f));
if (!wheel) {
  console.error(`${kit}: no numpy wheel`);
  process.exit(2);
}
await pyodide.loadPackage(pathToFileURL(join(kit, wheel)).href);

function copyTree(src, dst) {
  pyodide.FS.mkdirTree(dst);
  for (const name of readdirSync(src)) {
    const from = join(src, name);
    if (statSync(from).isDirectory()) {
      if (name !== "__pycache__") copyTree(from, `${dst}/${name}`);
    } else if (name.endsWith(".py")) {
      pyodide.FS.writeFile(`${dst}/${name}`, readFileSync(from));
    }
  }
}
copyTree(engine, "/home/pyodide/engine");
console.error(JSON.stringify({ boot_seconds: (performance.now() - t0) / 1000 }));
await pyodide.runPythonAsync(readFileSync(0, "utf8"));
