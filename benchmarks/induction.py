#!/usr/bin/env python3
"""Print chapter 13's induction-head training time as JSON (a benchmark, not a test: nothing is asserted).

- numpy: all steps of the default two-layer run (engine/tasks/induction.py) on CPython, batches
  drawn up front, scoring the checkpoints timed apart; numpy is held to one thread, as in Pyodide;
  and the induction-forms figure's Train job as the worker slices it (snapshots and scoring included);
- torch: the same model, starting weights, batches and Adam settings in PyTorch on one thread,
  with autograd for the gradients, when torch is importable;
- pyodide: the same run in Pyodide under node with real numpy, first and warm, when
  ATTN_PYODIDE_DIST (or .cache/pyodide-kit) names a Pyodide distribution that includes numpy
  (`../shared/pyodide-kit/make-kit.sh .cache/pyodide-kit` makes one), then the figure's Train job there. Wall time and the process's
  CPU time are both printed: on a shared machine the CPU time says more;
- your-sequence: one reader's request on CPython and in Pyodide, the first (which trains the model the
  figure reads) and warm ones (a forward pass on the reader's letters, and the figure's text).

usage: benchmarks/induction.py [SEED] [REPEATS]
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # before numpy loads: one thread, like Pyodide and torch below
ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402

from engine.tasks.induction import InductionConfig, induction_training, starting_point  # noqa: E402


def time_numpy(seed: int, config: InductionConfig, repeats: int) -> dict:
    """First and best wall time of all steps, and of scoring the checkpoints afterwards."""
    times, run = [], None
    for _ in range(repeats):
        t0 = time.perf_counter()
        training, finish = induction_training(seed, config=config)
        training.run()
        t1 = time.perf_counter()
        run = finish()
        times.append((t1 - t0, time.perf_counter() - t1))
    return {"first_seconds": round(times[0][0], 3), "best_seconds": round(min(t for t, _ in times), 3),
            "scoring_seconds": round(min(s for _, s in times), 3), "numpy_version": np.__version__,
            "phase_change_step": run.phase_change_step(), "losses": run.losses}


def time_job(seed: int) -> dict:
    """The figure's Train job as the worker runs it: 50 ms slices, a snapshot of the heads and scores after
    each, and the whole figure (every checkpoint scored) at the end."""
    from engine.figures import FigureJob, parse

    t0 = time.perf_counter()
    job, slices = FigureJob(parse("induction-forms", {"seed": seed}), "train"), 1
    while not job.advance(0.05)["done"]:
        slices += 1
    return {"seconds": round(time.perf_counter() - t0, 3), "slices": slices}


READER_SEQUENCES = ("KCFNAHKCF", "PANCAKEPANCAKE", "ABACADABAC")  # what a reader might type


def time_requests(repeats: int = 20) -> dict:
    """your-sequence's requests as the worker answers them: the first trains seed 0's model (cached after)."""
    from engine.figures import compute, parse

    t0 = time.perf_counter()
    compute(parse("your-sequence", {"sequence": READER_SEQUENCES[0]}))
    first = time.perf_counter() - t0
    t0 = time.perf_counter()
    for i in range(repeats):
        compute(parse("your-sequence", {"sequence": READER_SEQUENCES[i % len(READER_SEQUENCES)]}))
    return {"first_seconds": round(first, 3), "warm_ms": round(1000 * (time.perf_counter() - t0) / repeats, 2)}


def time_torch(seed: int, config: InductionConfig, repeats: int) -> dict | None:
    """The same run in PyTorch on one thread: same weights, batches, Adam and precision."""
    try:
        import torch
    except ImportError:
        return None
    torch.set_num_threads(1)
    start, data = starting_point(seed, config.steps, config)
    inputs = torch.from_numpy(data.inputs.reshape(config.steps, config.batch_size, -1))  # (S, B, T)
    targets = torch.from_numpy(data.targets.reshape(config.steps, config.batch_size, -1))  # (S, B, T)
    valid = torch.from_numpy((data.part("first") | data.part("repeat")).reshape(config.steps, config.batch_size, -1))
    T = inputs.shape[-1]
    causal = torch.ones(T, T, dtype=torch.bool).tril()
    scale = config.d_head ** -0.5

    def forward(p, x):
        s = p["w_e"][x] + (p["w_p"][:T] if "w_p" in p else 0.0)  # (B, T, D)
        for layer in range(1, config.n_layers + 1):
            q = torch.einsum("btd,hdk->bhtk", s, p[f"wq{layer}"]) * scale
            k = torch.einsum("btd,hdk->bhtk", s, p[f"wk{layer}"])
            v = torch.einsum("btd,hdk->bhtk", s, p[f"wv{layer}"])
            w = (q @ k.transpose(-1, -2)).masked_fill(~causal, float("-inf")).softmax(-1)  # (B, H, T, T)
            s = s + (w @ v).transpose(1, 2).flatten(2) @ p[f"wo{layer}"]  # (B, T, D)
        return s @ p["w_u"]  # (B, T, N)

    def run_once():
        p = {n: torch.tensor(a.astype(config.dtype), requires_grad=True) for n, a in start.items()}
        opt = torch.optim.Adam(p.values(), lr=config.lr, betas=(0.9, 0.999), eps=1e-8)
        losses = []
        for step in range(config.steps):
            logits = forward(p, inputs[step])
            m = valid[step]
            loss = torch.nn.functional.cross_entropy(logits[m], targets[step][m])
            opt.zero_grad()
            loss.backward()
            opt.step()
            losses.append(loss.item())
        return losses

    times, losses = [], None
    for _ in range(repeats):
        t0 = time.perf_counter()
        losses = run_once()
        times.append(time.perf_counter() - t0)
    return {"first_seconds": round(times[0], 3), "best_seconds": round(min(times), 3),
            "torch_version": torch.__version__, "threads": torch.get_num_threads(), "losses": losses}


PYODIDE_SCRIPT = """
import json, sys, time, js
sys.path.insert(0, "/home/pyodide")
from engine.tasks.induction import induction_training

def cpu():
    u = js.process.cpuUsage()
    return (u.user + u.system) / 1e6

out = []
for _ in range({repeats}):
    t0, c0 = time.perf_counter(), cpu()
    training, finish = induction_training({seed})
    training.run()
    t1, c1 = time.perf_counter(), cpu()
    run = finish()
    out.append(dict(seconds=t1 - t0, cpu_seconds=c1 - c0, scoring_seconds=time.perf_counter() - t1,
                    phase_change_step=run.phase_change_step(), final_loss=run.losses[-1]))
from engine.figures import FigureJob, parse
t0, c0 = time.perf_counter(), cpu()
job, slices = FigureJob(parse("induction-forms", {{"seed": {seed}}}), "train"), 1
while not job.advance(0.05)["done"]:
    slices += 1
out.append(dict(job_seconds=time.perf_counter() - t0, job_cpu_seconds=cpu() - c0, job_slices=slices))
from engine.figures import compute, parse
t0 = time.perf_counter()
compute(parse("your-sequence", {{"sequence": "{reader[0]}"}}))
first = time.perf_counter() - t0
t0 = time.perf_counter()
for i in range(20):
    compute(parse("your-sequence", {{"sequence": {reader}[i % {n_reader}]}}))
out.append(dict(request_first_seconds=first, request_warm_ms=1000 * (time.perf_counter() - t0) / 20))
print("RESULT " + json.dumps(out))
"""


def pyodide_kit() -> Path | None:
    given = os.environ.get("ATTN_PYODIDE_DIST")
    kit = Path(given) if given else ROOT / ".cache" / "pyodide-kit"
    return kit if (kit / "pyodide.mjs").exists() and any(kit.glob("numpy-*.whl")) else None


def pyodide_or_reason() -> Path | str:
    """The Pyodide kit to run under node, or why there is none here."""
    kit = pyodide_kit()
    if kit is None:
        return "no Pyodide distribution with numpy (set ATTN_PYODIDE_DIST or run ../shared/pyodide-kit/make-kit.sh .cache/pyodide-kit); skipped"
    if shutil.which("node") is None:
        return "node not found; skipped"
    return kit


def time_pyodide(seed: int, repeats: int) -> dict | str:
    """First and warm runs in one fresh Pyodide under node; the first includes numpy's first-call costs."""
    kit = pyodide_or_reason()
    if isinstance(kit, str):
        return kit
    t0 = time.perf_counter()
    proc = subprocess.run(["node", str(ROOT / "benchmarks" / "pyodide_run.mjs"), str(kit), str(ROOT / "engine")],
                          input=PYODIDE_SCRIPT.format(seed=seed, repeats=max(repeats, 2), reader=READER_SEQUENCES,
                                                      n_reader=len(READER_SEQUENCES)),
                          capture_output=True, text=True, timeout=600)
    if proc.returncode != 0:
        return f"node exited with {proc.returncode}: {proc.stderr.strip()[-500:]}"
    line = next(ln for ln in proc.stdout.splitlines() if ln.startswith("RESULT "))
    *runs, job, request = json.loads(line[len("RESULT "):])
    boot = next((json.loads(ln) for ln in proc.stderr.splitlines() if ln.startswith("{")), {})
    return {
        "boot_seconds": round(boot.get("boot_seconds", float("nan")), 3),
        "first_seconds": round(runs[0]["seconds"], 3), "first_cpu_seconds": round(runs[0]["cpu_seconds"], 3),
        "warm_seconds": round(min(r["seconds"] for r in runs[1:]), 3),
        "warm_cpu_seconds": round(min(r["cpu_seconds"] for r in runs[1:]), 3),
        "scoring_seconds": round(runs[0]["scoring_seconds"], 3),
        "phase_change_step": runs[0]["phase_change_step"], "final_loss": runs[0]["final_loss"],
        "figure_job_seconds": round(job["job_seconds"], 3), "figure_job_cpu_seconds": round(job["job_cpu_seconds"], 3),
        "figure_job_slices": job["job_slices"],
        "your_sequence_first_request_seconds": round(request["request_first_seconds"], 3),
        "your_sequence_warm_request_ms": round(request["request_warm_ms"], 2),
        "total_process_seconds": round(time.perf_counter() - t0, 3),
    }


def main(argv=None):
    args = sys.argv[1:] if argv is None else argv
    seed = int(args[0]) if args else 0
    repeats = int(args[1]) if len(args) > 1 else 3
    config = InductionConfig()
    report = {"task": "induction head, two attention-only layers", "seed": seed, "steps": config.steps,
              "batch_size": config.batch_size, "dtype": config.dtype, "repeats": repeats,
              "load_average": [round(v, 2) for v in os.getloadavg()]}
    cpython = time_numpy(seed, config, repeats)
    losses = cpython.pop("losses")
    report["cpython_numpy"] = cpython
    report["cpython_figure_job"] = time_job(seed)
    report["cpython_your_sequence_request"] = time_requests()
    torch_result = time_torch(seed, config, repeats)
    if torch_result is None:
        report["torch"] = "not importable; skipped"
    else:
        t_losses = torch_result.pop("losses")
        diff = np.abs(np.array(losses) - np.array(t_losses))  # float32 rounding drifts apart; float64 agrees to 1e-15
        torch_result["first_loss_difference"] = float(diff[0])
        torch_result["max_loss_difference"] = float(diff.max())
        torch_result["numpy_over_torch"] = round(cpython["best_seconds"] / torch_result["best_seconds"], 3)
        report["torch_one_thread"] = torch_result
    report["pyodide_numpy"] = time_pyodide(seed, repeats)
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
