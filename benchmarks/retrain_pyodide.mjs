// Runs a Python timing script inside Pyodide under Node, with numpy loaded and the engine's
// Python files copied in; prints what the script prints. Driven by retrain_pyodide.py.
// usage: node retrain_pyodide.mjs KIT_DIR ENGINE_DIR SCRIPT.py
// The engine lands in /home/pyodide/engine; the script finds it on sys.path.
import { readFileSync, readdirSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";

const [kit, engine, script] = process.argv.slice(2);
const kitDir = resolve(kit);
const { loadPyodide } = await import(pathToFileURL(join(kitDir, "pyodide.mjs")).href);
const pyodide = await loadPyodide({ indexURL: kitDir + "/" });
const wheel = readdirSync(kitDir).find((f) => /^numpy-.*\.whl$/.test(f));
await pyodide.loadPackage(join(kitDir, wheel), { messageCallback: () => {} });

function copyTree(src, dst) {
  pyodide.FS.mkdirTree(dst);
  for (const name of readdirSync(src)) {
    const path = join(src, name);
    if (statSync(path).isDirectory()) {
      if (name !== "__pycache__") copyTree(path, `${dst}/${name}`);
    } else if (name.endsWith(".py")) {
      pyodide.FS.writeFile(`${dst}/${name}`, readFileSync(path));
    }
  }
}
copyTree(resolve(engine), "/home/pyodide/engine");

// CPU seconds of this (the main) thread alone, from Linux's /proc; NaN elsewhere. V8 compiles hot wasm
// functions on background threads, which a reader's browser runs on other cores.
globalThis.mainThreadCpuSeconds = () => {
  try {
    const stat = readFileSync(`/proc/${process.pid}/task/${process.pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");  // from field 3, state
    return (Number(fields[11]) + Number(fields[12])) / 100;  // utime + stime, in USER_HZ (100 on Linux)
  } catch {
    return NaN;
  }
};

pyodide.setStdout({ batched: (line) => process.stdout.write(line + "\n") });
try {
  await pyodide.runPythonAsync(`import sys\nsys.path.insert(0, "/home/pyodide")\n` + readFileSync(script, "utf8"));
} catch (err) {
  process.stderr.write(String(err.message ?? err).slice(-2000) + "\n");
  process.exit(1);
}
