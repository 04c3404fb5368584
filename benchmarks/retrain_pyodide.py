#!/usr/bin/env python3
"""Chapter 9's 400-step Retrain, timed in one run four ways: Pyodide first, Pyodide warm, CPython and
PyTorch on one thread (same model, weights, batches and Adam settings; engine/bench.py).

A benchmark, not a test: it prints figures and asserts nothing.

- Pyodide: real numpy inside Pyodide, run by Node (benchmarks/pyodide_run.mjs) from the kit that
  ../shared/pyodide-kit/make-kit.sh makes (or ATTN_PYODIDE_DIST). "first" is the first training after
  the engine is imported in a fresh Pyodide, which is what a reader's first Retrain computes; "warm" is
  the best of the two runs after it (of seven on CPython, whose runs are short). Node's V8 runs the wasm as Chromium's does (same engine, same
  tiers), so its times approximate the reader's browser; the worker's messages and drawing are not
  included. "first" includes importing numpy.random, which nothing imports before the first training
  and which a reader's first Retrain pays too unless a live figure used it already; it is also shown
  on its own.
- Each training is timed from drawing the batches to the finished run, as the worker does it.
- Clocks: wall time (what the reader waits for); "unqueued", wall time less the time the thread
  running Python waited runnable for a core (Linux schedstat), i.e. with the machine's load taken out
  but any wait on other threads left in; CPU time of the whole process; CPU time of the thread running
  Python ("main") and of all the process's other threads ("other"). In Node the other threads are V8's:
  during a first run they compile the hot wasm functions with the optimising tier (with --liftoff-only
  they stay idle), which a reader's browser does on another core while the worker goes on. So process
  CPU is the pessimistic bound (as if that compiler shared the worker's core) and "unqueued" the time on
  a machine with a core to spare. On a loaded machine wall time also measures the load: the figures are
  medians over ``--repeats`` rounds, each round running PyTorch, then Pyodide and CPython, then
  PyTorch again, each ratio taken within its round against the mean of its two PyTorch runs; the load
  average is printed beside them.
- PyTorch is timed warm (its first run in the process, which pays its own lazy set-up, is printed apart
  and not used): the strictest baseline. Its CPU clock covers the call, which also draws the batches and
  copies the weights (a few ms), so it slightly flatters numpy.
- ``--before REV`` also times the engine as it was at git revision REV (e.g. main), in the same rounds.

Run: ``.venv/bin/python benchmarks/retrain_pyodide.py [--repeats 5] [--before main]``. Without Node or
the kit it says what is missing and exits 0.
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from io import BytesIO
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

SEED = 0
CLOCKS = ("wall", "unqueued", "cpu", "main", "other")
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
    def sched():  # this thread's seconds on a core and waiting for one
        return tuple(js.mainThreadSchedSeconds().to_py())
else:
    cpu = time.process_time
    def sched():
        with open("/proc/thread-self/schedstat") as f:
            run, queued = f.read().split()[:2]
        return int(run) / 1e9, int(queued) / 1e9

def timed(fn):
    w, c, (m, q) = time.perf_counter(), cpu(), sched()
    result = fn()
    wall, c, (m2, q2) = time.perf_counter() - w, cpu() - c, sched()
    return {"wall": wall, "unqueued": wall - (q2 - q), "cpu": c, "main": m2 - m, "other": c - (m2 - m)}, result

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
    script = timed_script(str(engine_parent), 7, folder)  # 0.1 s a run: the best of more runs, less noise
    out = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, cwd=folder, timeout=600)
    if out.returncode:
        raise RuntimeError(f"CPython run failed: {out.stderr.strip()[-1500:]}")
    return json.loads(out.stdout.strip().splitlines()[-1])


def torch_run() -> tuple[dict, list, str, int] | None:
    """One PyTorch run on one thread: wall seconds of its training loop, and the CPU times of the call."""
    from engine import bench
    from engine.tasks.grammar import GrammarConfig
    try:
        import torch  # noqa: F401  imported before the clock starts
    except ImportError:
        return None
    c, t, q = time.process_time(), time.thread_time(), _queued()
    result = bench.time_torch(SEED, GrammarConfig(), 1)
    if result is None:
        return None
    wall, losses, version, threads = result
    cpu, main, queued = time.process_time() - c, time.thread_time() - t, _queued() - q
    return ({"wall": wall, "unqueued": wall - queued, "cpu": cpu, "main": main, "other": cpu - main},
            losses, version, threads)


def _queued() -> float:
    """Seconds this thread has waited runnable for a core (Linux schedstat)."""
    with open("/proc/thread-self/schedstat") as f:
        return int(f.read().split()[1]) / 1e9


def _round(d: dict) -> dict:
    return {k: round(v, 4) for k, v in d.items()}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5, help="rounds; figures are their medians (default 5)")
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

    load_start = os.getloadavg()
    torch_cold = torch_run()
    rounds: dict[str, list] = {}  # engine -> per round {measure: {clock: seconds}}
    losses: dict[str, dict] = {}
    torch_rounds = []
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        engines = {"now": ROOT}
        if args.before:
            engines["before"] = engine_at(args.before, folder / "before")
        for _ in range(args.repeats):
            before_torch = torch_run() if torch_cold else None
            this = {}
            for name, parent in engines.items():
                p, c = pyodide_run(kit, parent, folder), cpython_run(parent, folder)
                this[name] = {"pyodide_first": p["first"], "pyodide_numpy_random_import": p["random_import"],
                              "pyodide_warm": p["warm"], "cpython": c["warm"]}
                losses[name] = {"pyodide": p["losses"], "cpython": c["losses"], "numpy_pyodide": p["numpy"],
                                "numpy_cpython": c["numpy"]}
            if torch_cold:
                after_torch = torch_run()
                torch_rounds.append({k: (before_torch[0][k] + after_torch[0][k]) / 2 for k in CLOCKS})
            for name in engines:
                rounds.setdefault(name, []).append(this[name])
    load_end = os.getloadavg()

    report = {"task": "chapter 9 grammar model, 400 Adam steps of 32 sentences, float32", "seed": SEED,
              "rounds": args.repeats, "kit": str(kit),
              "load_average_1_5_15_min": {"start": [round(x, 2) for x in load_start],
                                          "end": [round(x, 2) for x in load_end]},
              "clocks": {"wall": "seconds elapsed: the goal's measure",
                         "unqueued": "wall less the time the thread running Python (PyTorch's: the thread "
                                     "training) waited runnable for a core: the load's share taken out",
                         "cpu": "CPU seconds of the whole process",
                         "main": "CPU seconds of the thread running Python (Linux schedstat)",
                         "other": "CPU seconds of the process's other threads (Node: V8 compiling wasm)",
                         "each": "median over the rounds; ratios are medians of each round's own ratio"}}
    if torch_cold:
        report["torch"] = {"version": torch_cold[2], "threads": torch_cold[3], "first_run_in_process_not_used":
                           _round(torch_cold[0]), "per_round_wall": [round(r["wall"], 4) for r in torch_rounds]}
    else:
        report["torch"] = "not importable; skipped (.venv/bin/pip install torch==2.13.0, the CPU build)"
    for name in rounds:
        row = {}
        for clock in CLOCKS:
            row[clock] = {k: round(statistics.median(r[k][clock] for r in rounds[name]), 4) for k in rounds[name][0]}
            if torch_cold:
                row[clock]["torch_1_thread"] = round(statistics.median(t[clock] for t in torch_rounds), 4)
                if clock != "other":
                    for k in ("pyodide_first", "pyodide_warm", "cpython"):
                        row[clock][f"{k}_over_torch"] = round(statistics.median(
                            r[k][clock] / t[clock] for r, t in zip(rounds[name], torch_rounds)), 3)
        if torch_cold:
            row["wall"]["pyodide_first_over_torch_per_round"] = [
                round(r["pyodide_first"]["wall"] / t["wall"], 3) for r, t in zip(rounds[name], torch_rounds)]
        l = losses[name]
        row["numpy"] = {"pyodide": l["numpy_pyodide"], "cpython": l["numpy_cpython"]}
        row["max_loss_difference_pyodide_cpython"] = max(abs(a - c) for a, c in zip(l["pyodide"], l["cpython"]))
        if torch_cold:
            row["max_loss_difference_cpython_torch"] = max(abs(a - c) for a, c in zip(l["cpython"], torch_cold[1]))
        report[f"engine_{name}" if len(rounds) > 1 else "engine"] = row
    if "before" in losses:
        report["max_loss_difference_now_before"] = {
            k: max(abs(a - c) for a, c in zip(losses["now"][k], losses["before"][k])) for k in ("pyodide", "cpython")}
    print(json.dumps(report, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
