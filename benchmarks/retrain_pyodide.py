#!/usr/bin/env python3
"""Chapter 9's 400-step Retrain, timed in one run as the page runs it: in Pyodide cold, after the
page's warm-up, and warm; on CPython; and in PyTorch on one thread (same model, weights, batches and
Adam settings; engine/bench.py).

A benchmark, not a test: it prints figures and asserts nothing.

- Pyodide: real numpy inside Pyodide, run by Node (benchmarks/pyodide_run.mjs) from the kit that
  ../shared/pyodide-kit/make-kit.sh makes (or ATTN_PYODIDE_DIST). Each fresh Pyodide boots as the
  worker does (the engine's figures imported, then numpy.random, whose import is timed apart). Then
  - "cold": the first training, a reader's first Retrain clicked before any warm-up ran;
    "cold_with_numpy_random_import" adds that import (what "first" measured before the worker's boot
    imported it);
  - in another fresh Pyodide, "warmup": two-heads' warm-up for Retrain (its model's WARM, which the
    page runs when the figure nears the screen with Python ready), advanced one step per call as the
    worker does, with the CPU spent during the WARM_IDLE_S seconds after it (the reader reading, V8
    finishing its compiling) added to its CPU clocks; then "after_warmup": the first training after
    it, a reader's first Retrain on that page. The warm-up's set-up (mostly importing the figure's
    model, which a Retrain would do first anyway) and its longest step are printed too, unqueued (the
    load taken out): each is one task in the worker, so they bound how long a message reaching it
    meanwhile could wait;
  - "warm": the best of the two runs after the cold one (of seven on CPython, whose runs are short).
  Node's V8 runs the wasm as Chromium's does (same engine, same tiers), so its times approximate the
  reader's browser; the worker's messages and drawing are not included.
- Each training is timed from drawing the batches to the finished run, as the worker does it.
- Clocks: wall time (what the reader waits for); "unqueued", wall time less the time the thread
  running Python waited runnable for a core (Linux schedstat), i.e. with the machine's load taken out
  but any wait on other threads left in; CPU time of the whole process; CPU time of the thread running
  Python ("main") and of all the process's other threads ("other"). In Node the other threads are V8's:
  during a first run they compile the hot wasm functions with the optimising tier (with --liftoff-only
  they stay idle), which a reader's browser does on another core while the worker goes on. So process
  CPU is the pessimistic bound (as if that compiler shared the worker's core) and "unqueued" the time on
  a machine with a core to spare. On a loaded machine wall time also measures the load: the figures are
  medians over ``--repeats`` rounds, each round running PyTorch, then Pyodide (cold, then warmed) and
  CPython, then PyTorch again, each ratio taken within its round against the mean of its two PyTorch
  runs; the load average is printed beside them.
- PyTorch is timed warm (its first run in the process, which pays its own lazy set-up, is printed apart
  and not used): the strictest baseline. Its CPU clock covers the call, which also draws the batches and
  copies the weights (a few ms), so it slightly flatters numpy.
- ``--before REV`` also times the engine as it was at git revision REV (e.g. main), in the same rounds
  (cold and warm only). ``--warm-steps N`` times a warm-up of N steps instead of the page's.

Run: ``.venv/bin/python benchmarks/retrain_pyodide.py [--repeats 5] [--before main] [--warm-steps N]``.
Without Node or the kit it says what is missing and exits 0.
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
WARM_IDLE_S = 1.0  # the reader reading between the warm-up and the click; V8 finishes compiling meanwhile
# Runs in Pyodide and in a fresh CPython alike; ENGINE_PARENT holds the engine/ being timed. Boots as
# the worker does (theme/runtime/worker.js): the engine's figures imported, then numpy.random.
PRELUDE = """
import json, sys, time
sys.path.insert(0, ENGINE_PARENT)
import numpy as np
import engine.figures
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

random_import, _ = timed(lambda: np.random.default_rng(SEED))  # the worker's boot imports it: timed apart
"""
# The reader's first Retrain with no warm-up ("cold"), then warm runs.
COLD = PRELUDE + """
first, losses = timed(once)
warm = [timed(once)[0] for _ in range(WARM)]
print(json.dumps({
    "first": first, "random_import": random_import,
    "first_with_random_import": {k: random_import[k] + first[k] for k in first},
    "warm": {k: min(w[k] for w in warm) for k in first},
    "losses": losses, "numpy": np.__version__, "python": sys.version.split()[0]}))
"""
# What the page does when two-heads nears the screen with Python ready: the model's warm-up for
# "retrain", advanced as theme/runtime/server.js does (one step per call), then the reader reads for
# WARM_IDLE_S (an await: Node's compiler threads go on), then clicks Retrain. Pyodide only.
WARMED = PRELUDE + """
import asyncio
from engine.figures import FigureJob, module, parse
if WARM_STEPS:
    module("two-heads").WARM_STEPS = WARM_STEPS  # --warm-steps: another length than the page's

def unqueued(fn):  # wall seconds of fn() less those its thread waited for a core, and its result
    w, q = time.perf_counter(), sched()[1]
    result = fn()
    return time.perf_counter() - w - (sched()[1] - q), result

def warm_up():  # its set-up and its longest step, each a task in the worker: what a message could wait
    setup, job = unqueued(lambda: FigureJob(parse("two-heads", {"seed": SEED}), "retrain", warm=True))
    longest = 0.0
    while True:
        t, out = unqueued(lambda: job.advance(0.0))
        longest = max(longest, t)
        if out["done"]:
            return module("two-heads").WARM_STEPS, setup, longest

warmup, (steps, setup, longest) = timed(warm_up)
c, (m, _) = cpu(), sched()
await asyncio.sleep(IDLE)
idle = cpu() - c
warmup_total = dict(warmup, cpu=warmup["cpu"] + idle, other=warmup["other"] + idle - (sched()[0] - m))
first, losses = timed(once)
print(json.dumps({"warmup": warmup_total, "warmup_steps_only": warmup, "warmup_idle_cpu": idle,
                  "warmup_steps": steps, "warmup_setup": setup, "warmup_longest_step": longest, "first": first, "losses": losses}))
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


def timed_script(engine_parent: str, body: str, folder: Path, **values) -> Path:
    path = folder / f"timed_{abs(hash((engine_parent, body)))}.py"
    head = "".join(f"{k} = {v!r}\n" for k, v in dict(ENGINE_PARENT=engine_parent, SEED=SEED, **values).items())
    path.write_text(head + body)
    return path


def pyodide_run(kit: Path, engine_parent: Path, folder: Path, warm_steps: int | None = None) -> dict:
    """A fresh Pyodide: the cold script, or with warm_steps not None the warmed one (0: the page's length)."""
    script = (timed_script("/home/pyodide", COLD, folder, WARM=2) if warm_steps is None else
              timed_script("/home/pyodide", WARMED, folder, WARM_STEPS=warm_steps, IDLE=WARM_IDLE_S))
    out = subprocess.run(["node", str(ROOT / "benchmarks" / "pyodide_run.mjs"), str(kit),
                          str(engine_parent / "engine"), str(script)], capture_output=True, text=True, timeout=600)
    if out.returncode:
        raise RuntimeError(f"Pyodide run failed: {out.stderr.strip()[-1500:]}")
    return json.loads(out.stdout.strip().splitlines()[-1])


def cpython_run(engine_parent: Path, folder: Path) -> dict:
    script = timed_script(str(engine_parent), COLD, folder, WARM=7)  # 0.1 s a run: the best of more runs, less noise
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
    parser.add_argument("--warm-steps", type=int, default=0, metavar="N",
                        help="time a warm-up of N steps instead of the page's (two_heads.WARM_STEPS)")
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
    warm_tasks = []  # per round, the warm-up's set-up and longest step (seconds)
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
                this[name] = {"pyodide_cold": p["first"], "pyodide_cold_with_numpy_random_import":
                              p["first_with_random_import"], "pyodide_numpy_random_import": p["random_import"],
                              "pyodide_warm": p["warm"], "cpython": c["warm"]}
                losses[name] = {"pyodide": p["losses"], "cpython": c["losses"], "numpy_pyodide": p["numpy"],
                                "numpy_cpython": c["numpy"]}
                if name == "now":  # the page's warm-up, then its first Retrain, in a fresh Pyodide
                    w = pyodide_run(kit, parent, folder, warm_steps=args.warm_steps)
                    this[name].update(pyodide_warmup=w["warmup"], pyodide_after_warmup=w["first"])
                    warm_steps = w["warmup_steps"]
                    warm_tasks.append((w["warmup_setup"], w["warmup_longest_step"]))
                    losses[name]["pyodide_after_warmup"] = w["losses"]
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
                    for k in ("pyodide_cold", "pyodide_cold_with_numpy_random_import", "pyodide_after_warmup",
                              "pyodide_warmup", "pyodide_warm", "cpython"):
                        if k not in rounds[name][0]:
                            continue
                        row[clock][f"{k}_over_torch"] = round(statistics.median(
                            r[k][clock] / t[clock] for r, t in zip(rounds[name], torch_rounds)), 3)
        if torch_cold:
            for clock in ("wall", "cpu"):
                for k in ("pyodide_cold", "pyodide_after_warmup"):
                    if k in rounds[name][0]:
                        row[clock][f"{k}_over_torch_per_round"] = [
                            round(r[k][clock] / t[clock], 3) for r, t in zip(rounds[name], torch_rounds)]
        l = losses[name]
        if "pyodide_after_warmup" in l:
            row["warmup"] = {"steps": warm_steps, "reader_reading_seconds": WARM_IDLE_S,
                             "setup_ms_unqueued_per_round": [round(1000 * t[0], 1) for t in warm_tasks],
                             "longest_step_ms_unqueued_per_round": [round(1000 * t[1], 1) for t in warm_tasks],
                             "its_cpu_counts_the_compiling_while_the_reader_reads": True,
                             "max_loss_difference_after_warmup_cold": max(
                                 abs(a - c) for a, c in zip(l["pyodide_after_warmup"], l["pyodide"]))}
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
