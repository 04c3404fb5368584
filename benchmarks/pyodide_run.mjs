// Run a Python script in Pyodide under Node, with real numpy and a checkout's engine/ copied in to
// /home/pyodide/engine (on sys.path): the benchmarks' and the engine tests' way to run the engine as
// the browser's worker does, without a browser. Node's V8 runs wasm as Chromium's does.
// usage: node benchmarks/pyodide_run.mjs KIT_DIR ENGINE_DIR [SCRIPT.py]   (the script on stdin without one)
// KIT_DIR is a Pyodide distribution with a numpy wheel (../shared/pyodide-kit/make-kit.sh makes one).
// The script's stdout is passed through; the boot time goes to stderr as JSON; a Python error exits 1.
import { readFileSync, readdirSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";

const [kit, engine, script] = process.argv.slice(2).map((p) => p && resolve(p));
if (!kit || !engine) {
  console.error("usage: node pyodide_run.mjs KIT_DIR ENGINE_DIR [SCRIPT.py]");
  process.exit(2);
}
const t0 = performance.now();
const { loadPyodide } = await import(pathToFileURL(join(kit, "pyodide.mjs")).href);
const pyodide = await loadPyodide({ indexURL: kit + "/" });
pyodide.setStdout({ batched: (line) => process.stdout.write(line + "\n") });
const wheel = readdirSync(kit).find((f) => /^numpy-.*\.whl$/.test(f));
if (!wheel) {
  console.error(`${kit}: no numpy wheel`);
  process.exit(2);
}
await pyodide.loadPackage(pathToFileURL(join(kit, wheel)).href, { messageCallback: () => {} });

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

// CPU seconds of this (the main) thread and of all the process's other threads, from Linux's /proc
// (10 ms ticks); NaN elsewhere. V8 compiles hot wasm functions with its optimising tier on background
// threads, which a reader's browser runs on other cores beside the worker.
function taskCpuSeconds(tid) {
  const stat = readFileSync(`/proc/${process.pid}/task/${tid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");  // from field 3, state
  return (Number(fields[11]) + Number(fields[12])) / 100;  // utime + stime, in USER_HZ (100 on Linux)
}
globalThis.mainThreadCpuSeconds = () => {
  try {
    return taskCpuSeconds(process.pid);
  } catch {
    return NaN;
  }
};
// [seconds this thread ran, seconds it waited runnable for a core] from Linux's schedstat (ns precision):
// the second is what the machine's load, not the work, added to the wall time.
globalThis.mainThreadSchedSeconds = () => {
  try {
    const [run, queued] = readFileSync(`/proc/${process.pid}/task/${process.pid}/schedstat`, "utf8").split(" ");
    return [Number(run) / 1e9, Number(queued) / 1e9];
  } catch {
    return [NaN, NaN];
  }
};
globalThis.otherThreadsCpuSeconds = () => {
  try {
    let sum = 0;
    for (const tid of readdirSync(`/proc/${process.pid}/task`)) {
      if (tid !== String(process.pid)) {
        try { sum += taskCpuSeconds(tid); } catch { /* the thread ended */ }
      }
    }
    return sum;
  } catch {
    return NaN;
  }
};

try {
  await pyodide.runPythonAsync(`import sys\nsys.path.insert(0, "/home/pyodide")\n` + readFileSync(script ?? 0, "utf8"));
} catch (err) {
  process.stderr.write(String(err.message ?? err).slice(-2000) + "\n");
  process.exit(1);
}
