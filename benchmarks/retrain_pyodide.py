#!/usr/bin/env python3
"""Chapter 9's 400-step Retrain, timed in one run four ways: Pyodide first, Pyodide warm, CPython and
PyTorch on one thread (same model, weights, batches and Adam settings; engine/bench.py).

A benchmark, not a test: it prints figures and asserts nothing.

- Pyodide: real numpy inside Pyodide, run by Node (benchmarks/pyodide_run.mjs) from the kit that
  ../shared/pyodide-kit/make-kit.sh makes (or ATTN_PYODIDE_DIST). "first" is the first training after
  the engine is imported in a fresh Pyodide, which is what a reader's first Retrain computes; "warm" is
  the best of the runs after it. Node's V8 runs the wasm as Chromium's does (same engine, same tiers),
  so its times approximate the reader's browser; the worker's messages and drawing are not included.
- Each training is timed from drawing the batches to the finished run, as the worker does it.
- Three clocks: wall time; CPU time of the process; CPU time of the thread running Python. On a shared
  machine wall time mostly measures the load, and a process's CPU time in Node includes V8 compiling hot
  wasm functions on background threads, which a reader's multi-core machine runs beside the worker; the
  thread's CPU time is the compute the reader waits for on an idle machine. PyTorch runs on one thread.
- Every figure is the best of ``--repeats`` runs (a fresh Node process per Pyodide repeat), and each
  repeat times all of them back to back so that load hits them alike.
- "first" includes importing numpy.random, which nothing imports before the first training and which a
  reader's first Retrain pays too unless a live figure used it already; it is also shown on its own.
- ``--before REV`` also times the engine as it was at git revision REV (e.g. main), in the same run.

Run: ``.venv/bin/python benchmarks/retrain_pyodide.py [--repeats 3] [--before main]``. Without Node or
the kit it says what is missing and exits 0.
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
from io import BytesIO
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

SEED = 0
CLOCKS = ("wall", "cpu", "thread_cpu")
# Runs in Pyodide and in a fresh CPython alike; ENGINE_PARENT holds the engine/ being timed.
TIMED = """
import json, sys, time
sys.path.insert(0, ENGINE_PARENT)
import numpy as np
from engine.tasks.grammar import grammar_training

if sys.platform == "emscripten":
    import js
    def cpu():  # Node's whole process, V8's background compiler threads included
        u = js.process.cpuUsage()
        return (u.user + u.system) / 1e6
    thread_cpu = js.mainThreadCpuSeconds  # the thread Python runs on (10 ms ticks)
else:
    cpu, thread_cpu = time.process_time, time.thread_time

def timed(fn):
    w, c, t = time.perf_counter(), cpu(), thread_cpu()
    result = fn()
    return {"wall": time.perf_counter() - w, "cpu": cpu() - c, "thread_cpu": thread_cpu() - t}, result

def once():
    training, finish = grammar_training(SEED)
    training.run()
    return finish().losses

random_import, _ = timed(lambda: np.random.default_rng(SEED))  # the first training would import it: timed apart
first, losses = timed(once)
warm = [timed(once)[0] for _ in range(WARM)]
print(json.dumps({
    "first": {k: random_import[k] + first[k] for k in first}, "random_import": random_import,
    "warm": {k: min(w[k] for w in warm) for k in first},
    "losses": losses, "numpy": np.__version__, "python": sys.version.split()[0]}))
"""


def kit_dir() -> Path | None:
    """The Pyodide distribution with numpy: ATTN_PYODIDE_DIST, else the kit dev setups make in .cache."""
    for d in (os.environ.get("ATTN_PYODIDE_DIST"), ROOT / ".cache" / "pyodide-kit"):
        if d and (Path(d) / "pyodide.mjs").is_file() and any(Path(d).glob("numpy-*.whl")):
            return Path(d)
    return None


def engine_at(rev: str, into: Path) -> Path:
    """engine/ as it was at git revision rev, unpacked under into; returns the folder holding engine/."""
    tar = subprocess.run(["git", "archive", rev, "engine"], cwd=ROOT, capture_output=True, check=True).stdout
    with tarfile.open(fileobj=BytesIO(tar)) as t:
        t.extractall(into, filter="data")
    return into


def timed_script(engine_parent: str, warm: int, folder: Path) -> Path:
    path = folder / f"timed_{abs(hash(engine_parent))}.py"
    path.write_text(f"ENGINE_PARENT = {engine_parent!r}\nSEED = {SEED}\nWARM = {warm}\n" + TIMED)
    return path


def pyodide_run(kit: Path, engine_parent: Path, folder: Path) -> dict:
    script = timed_script("/home/pyodide", 2, folder)
    out = subprocess.run(["node", str(ROOT / "benchmarks" / "pyodide_run.mjs"), str(kit),
                          str(engine_parent / "engine"), str(script)], capture_output=True, text=True, timeout=600)
    if out.returncode:
        raise RuntimeError(f"Pyodide run failed: {out.stderr.strip()[-1500:]}")
    return json.loads(out.stdout.strip().splitlines()[-1])


def cpython_run(engine_parent: Path, folder: Path) -> dict:
    script = timed_script(str(engine_parent), 2, folder)
    out = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, cwd=folder, timeout=600)
    if out.returncode:
        raise RuntimeError(f"CPython run failed: {out.stderr.strip()[-1500:]}")
    return json.loads(out.stdout.strip().splitlines()[-1])


def torch_run() -> tuple[dict, list, str, int] | None:
    """One PyTorch run on one thread: wall seconds of its training loop, and the CPU time of the call
    (which also draws the batches and copies the weights, so it slightly flatters numpy)."""
    import time

    from engine import bench
    from engine.tasks.grammar import GrammarConfig
    try:
        import torch  # noqa: F401  imported before the clock starts
    except ImportError:
        return None
    c, t = time.process_time(), time.thread_time()
    result = bench.time_torch(SEED, GrammarConfig(), 1)
    if result is None:
        return None
    wall, losses, version, threads = result
    return {"wall": wall, "cpu": time.process_time() - c, "thread_cpu": time.thread_time() - t}, losses, version, threads


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3, help="best of this many runs of each (default 3)")
    parser.add_argument("--before", metavar="REV", help="also time engine/ as at this git revision")
    args = parser.parse_args(argv)

    kit = kit_dir()
    if shutil.which("node") is None:
        print("skipped: Node is not on PATH, and it runs Pyodide here (install nodejs)")
        return 0
    if kit is None:
        print("skipped: no Pyodide kit with numpy: run ../shared/pyodide-kit/make-kit.sh .cache/pyodide-kit "
              "or set ATTN_PYODIDE_DIST to one")
        return 0

    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        engines = {"now": ROOT}
        if args.before:
            engines["before"] = engine_at(args.before, folder / "before")
        best: dict[str, dict] = {name: {} for name in engines}
        losses: dict[str, dict] = {name: {} for name in engines}
        torch_best, torch_info = {}, None
        for _ in range(args.repeats):
            for name, parent in engines.items():
                p = pyodide_run(kit, parent, folder)
                c = cpython_run(parent, folder)
                for key, value in (("pyodide_first", p["first"]), ("pyodide_numpy_random_import", p["random_import"]),
                                   ("pyodide_warm", p["warm"]), ("cpython", c["warm"])):
                    for clock in CLOCKS:
                        best[name].setdefault(clock, {})
                        best[name][clock][key] = min(best[name][clock].get(key, float("inf")), value[clock])
                losses[name] = {"pyodide": p["losses"], "cpython": c["losses"], "numpy_pyodide": p["numpy"],
                                "numpy_cpython": c["numpy"]}
            t = torch_run()
            if t is not None:
                torch_best = {k: min(torch_best.get(k, float("inf")), t[0][k]) for k in CLOCKS}
                torch_info = t

    report = {"task": "chapter 9 grammar model, 400 Adam steps of 32 sentences, float32", "seed": SEED,
              "repeats": args.repeats, "kit": str(kit),
              "clocks": {"wall": "seconds elapsed", "cpu": "CPU seconds of the whole process",
                         "thread_cpu": "CPU seconds of the thread running Python (Linux; 10 ms ticks in Pyodide)",
                         "each": "the best of the repeats"}}
    for name in engines:
        row = {}
        for clock, b in best[name].items():
            row[clock] = {k: round(v, 4) for k, v in b.items()}
            if torch_info is not None:
                row[clock]["torch_1_thread"] = round(torch_best[clock], 4)
                row[clock]["pyodide_first_over_torch"] = round(b["pyodide_first"] / torch_best[clock], 3)
                row[clock]["pyodide_warm_over_torch"] = round(b["pyodide_warm"] / torch_best[clock], 3)
                row[clock]["cpython_over_torch"] = round(b["cpython"] / torch_best[clock], 3)
        l = losses[name]
        row["numpy"] = {"pyodide": l["numpy_pyodide"], "cpython": l["numpy_cpython"]}
        row["max_loss_difference_pyodide_cpython"] = max(abs(a - c) for a, c in zip(l["pyodide"], l["cpython"]))
        if torch_info is not None:
            row["max_loss_difference_cpython_torch"] = max(abs(a - c) for a, c in zip(l["cpython"], torch_info[1]))
        report[f"engine_{name}" if len(engines) > 1 else "engine"] = row
    if torch_info is None:
        report["torch"] = "not importable; skipped (.venv/bin/pip install torch==2.13.0, the CPU build)"
    else:
        report["torch"] = {"version": torch_info[2], "threads": torch_info[3]}
    if "before" in losses:
        report["max_loss_difference_now_before"] = {
            k: max(abs(a - c) for a, c in zip(losses["now"][k], losses["before"][k])) for k in ("pyodide", "cpython")}
    print(json.dumps(report, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
