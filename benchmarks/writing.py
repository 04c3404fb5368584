#!/usr/bin/env python3
"""Print chapter 14's training and generation times as JSON (a benchmark, not a test: nothing is asserted).

- numpy: all steps of the run a reader trains in the page (engine/figures/writing_training.py's
  recipe, engine/tasks/writing.py's fused step) on CPython, batches
  drawn up front, measuring the checkpoints (losses and samples) timed apart; numpy is held to one
  thread, as in Pyodide; and the same run with the readable step (gpt_forward, gpt_backward), whose
  losses the fused step's must match at every step and checkpoint;
- pyodide: the same run in Pyodide under node with real numpy, when ATTN_PYODIDE_DIST (or
  .cache/pyodide-kit) names a Pyodide distribution that includes numpy; wall and process CPU time;
- torch: the same model, starting weights, batches, Adam settings, schedule and precision in PyTorch
  on one thread, with autograd for the gradients: in this process when torch is
  importable, else in the interpreter ATTN_TORCH_PYTHON names (a virtual environment with torch and numpy);
- generation: milliseconds per character of a 200-character sample from the trained weights, with the
  key-value cache (gpt.generate) and without it (a full forward pass over the same window before every
  character), on CPython and in Pyodide;
- the train and held-out losses at every checkpoint on CPython and in Pyodide, and the largest difference;
- roofline: the fused step against its matrix products alone, on CPython and in Pyodide
  (benchmarks/writing_profile.py's profile_roofline; issue 47's goal: the step at most 1.25x its products in Pyodide).

The text is the series' prose as the builder extracts it (builder/corpus.py), or the file given.
usage: benchmarks/writing.py [--text FILE] [--seed N]
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # before numpy loads: one thread, like Pyodide and torch below
ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402

from engine.gpt import generate, gpt_forward  # noqa: E402
from engine.figures.writing_training import CONFIG  # noqa: E402  (the recipe a reader trains in the page)
from engine.tasks.writing import Corpus, baselines, starting_point, writing_training  # noqa: E402
from engine.train import WarmupCosine  # noqa: E402

SAMPLE = 200  # characters generated for the timing
PROMPT = "The "


def series_text() -> str:
    """The chapters' prose as the build extracts it."""
    try:
        from builder.corpus import read_corpus
    except ImportError:
        sys.exit("this checkout has no builder/corpus.py to extract the chapters' prose: give a text with --text FILE")
    from builder.site_config import load_site_config

    return read_corpus(load_site_config(ROOT / "content").chapters).text


def run_numpy(text: str, seed: int, cpu=time.process_time, fused=True, generation=True) -> dict:
    """The page's run, timed: its steps, then measuring its checkpoints; and generation from its weights.
    ``cpu`` is the process's CPU clock (Pyodide's is node's, passed in)."""
    t0, c0 = time.perf_counter(), cpu()
    training, run = writing_training(text, seed, CONFIG, fused=fused)
    training.run()
    t1, c1 = time.perf_counter(), cpu()
    result = run.finish()
    t2 = time.perf_counter()
    return {"steps_seconds": t1 - t0, "steps_cpu_seconds": c1 - c0, "measuring_seconds": t2 - t1,
            "losses": result["losses"],
            "checkpoints": [{k: c[k] for k in ("step", "train", "held_out")} for c in result["checkpoints"]],
            "samples": [c["sample"] for c in result["checkpoints"]],
            "final_held_out": result["final_held_out"], "baselines": baselines(run.corpus),
            "generation": time_generation(result["params"], run.corpus) if generation else None}


def time_generation(params: dict, corpus: Corpus) -> dict:
    """ms per character of a SAMPLE-character sample with the cache, and without it over the same windows."""
    prompt = corpus.vocab.encode(PROMPT)
    generate(params, prompt, 5)  # numpy's first calls out of the clock
    t0 = time.perf_counter()
    gen = generate(params, prompt, SAMPLE, seed=0)
    cached = time.perf_counter() - t0
    t0 = time.perf_counter()
    gap = 0.0
    for i, start in enumerate(gen.starts):
        logits, _ = gpt_forward(params, np.array([gen.tokens[start:len(prompt) + i]]))  # (N, t)
        gap = max(gap, float(np.abs(logits[:, -1] - gen.logits[i]).max()))
    recomputed = time.perf_counter() - t0
    return {"cached_ms_per_char": 1000 * cached / SAMPLE, "recomputed_ms_per_char": 1000 * recomputed / SAMPLE,
            "cached_scores": gen.cached_scores, "recomputed_scores": gen.recomputed_scores,
            "largest_logit_difference": gap, "sample": corpus.vocab.decode(gen.tokens)}


def run_torch(text: str, seed: int) -> dict | None:
    """The same steps in PyTorch on one thread: same weights, batches, Adam, step-size schedule and precision."""
    try:
        import torch
    except ImportError:
        return None
    torch.set_num_threads(1)
    config = CONFIG
    dtype = getattr(torch, config.dtype)
    corpus = Corpus.of(text, config.held_out_every)
    start, batches = starting_point(corpus, seed, config)
    batches = torch.from_numpy(batches)  # (S, B, T+1)
    T, K = config.context, config.d_model // config.heads
    causal = torch.ones(T, T, dtype=torch.bool).tril()
    F = torch.nn.functional

    def forward(p, x):
        s = p["w_e"][x] + p["w_p"][:x.shape[1]]  # (B, T, D)
        for layer in range(1, config.layers + 1):
            b = {n.split(".", 1)[1]: a for n, a in p.items() if n.startswith(f"b{layer}.")}
            n1 = F.layer_norm(s, s.shape[-1:], b["ln1_gain"], b["ln1_bias"], eps=1e-5)
            q = torch.einsum("btd,hdk->bhtk", n1, b["wq"]) * K ** -0.5
            k = torch.einsum("btd,hdk->bhtk", n1, b["wk"])
            v = torch.einsum("btd,hdk->bhtk", n1, b["wv"])
            w = (q @ k.transpose(-1, -2)).masked_fill(~causal, float("-inf")).softmax(-1)  # (B, H, T, T)
            s = s + (w @ v).transpose(1, 2).flatten(2) @ b["wo"]  # (B, T, D)
            n2 = F.layer_norm(s, s.shape[-1:], b["ln2_gain"], b["ln2_bias"], eps=1e-5)
            s = s + F.gelu(n2 @ b["w1"] + b["b1"], approximate="tanh") @ b["w2"] + b["b2"]
        s = F.layer_norm(s, s.shape[-1:], p["lnf_gain"], p["lnf_bias"], eps=1e-5)
        return s @ p["w_u"]  # (B, T, N)

    def run_once():
        p = {n: torch.tensor(a, dtype=dtype, requires_grad=True) for n, a in start.items()}
        opt = torch.optim.Adam(p.values(), lr=config.lr, betas=(0.9, 0.999), eps=1e-8)
        # LambdaLR's multiplier for its k-th step (from 0) is the engine's schedule at step k + 1 (from 1)
        schedule = WarmupCosine(config.warmup, config.steps, config.lr_final)
        lr = torch.optim.lr_scheduler.LambdaLR(opt, lambda k: schedule(k + 1))
        losses = []
        for step in range(config.steps):
            x = batches[step]
            logits = forward(p, x[:, :-1])
            loss = F.cross_entropy(logits.reshape(-1, logits.shape[-1]), x[:, 1:].reshape(-1))
            opt.zero_grad()
            loss.backward()
            opt.step()
            lr.step()
            losses.append(loss.item())
        return losses

    t0 = time.perf_counter()  # the first run in a process pays torch's own set-up: timed apart, not compared
    losses = run_once()
    first = time.perf_counter() - t0
    t0, c0 = time.perf_counter(), time.process_time()
    losses = run_once()
    return {"first_seconds": first, "seconds": time.perf_counter() - t0, "cpu_seconds": time.process_time() - c0,
            "torch_version": torch.__version__, "threads": torch.get_num_threads(), "losses": losses}


def torch_elsewhere(text_file: Path, seed: int) -> dict | str:
    """run_torch in the interpreter ATTN_TORCH_PYTHON names, when torch is not importable here."""
    python = os.environ.get("ATTN_TORCH_PYTHON")
    if not python:
        return "not importable here and ATTN_TORCH_PYTHON is not set; skipped"
    proc = subprocess.run([python, __file__, "--torch-only", "--text", str(text_file), "--seed", str(seed)],
                          capture_output=True, text=True, timeout=1800)
    if proc.returncode:
        return f"{python} exited with {proc.returncode}: {proc.stderr.strip()[-500:]}"
    return json.loads(proc.stdout)


PYODIDE_SCRIPT = """
import json, time, js
from benchmark_writing import run_numpy

def cpu():
    u = js.process.cpuUsage()
    return (u.user + u.system) / 1e6

out = run_numpy(open("/home/pyodide/text.txt").read(), SEED, cpu)
import numpy
out["numpy_version"] = numpy.__version__
print("RESULT " + json.dumps(out))
"""


def in_pyodide(module: Path, name: str, text: str, script: str) -> tuple[dict, str] | str:
    """Run ``script`` in a fresh Pyodide under node, with ``module`` importable as ``name`` beside engine/
    and ``text`` at /home/pyodide/text.txt: the JSON its "RESULT " line prints and node's stderr, or why not."""
    from benchmarks.induction import pyodide_or_reason  # here, not above: this module also runs inside Pyodide

    kit = pyodide_or_reason()
    if isinstance(kit, str):
        return kit
    # pyodide_run.mjs copies one folder's .py files in; the text and the module travel inside the script
    script = (f"open('/home/pyodide/text.txt', 'w').write({text!r})\n"
              f"open('/home/pyodide/{name}.py', 'w').write({module.read_text()!r})\n" + script)
    with tempfile.TemporaryDirectory() as tmp:  # a file, not stdin: node's read of a large piped stdin can fail with EAGAIN
        path = Path(tmp) / "run.py"
        path.write_text(script, encoding="utf-8")
        proc = subprocess.run(["node", str(ROOT / "benchmarks" / "pyodide_run.mjs"), str(kit), str(ROOT / "engine"),
                               str(path)], capture_output=True, text=True, timeout=1800)
    if proc.returncode != 0:
        return f"node exited with {proc.returncode}: {proc.stderr.strip()[-500:]}"
    line = next(ln for ln in proc.stdout.splitlines() if ln.startswith("RESULT "))
    return json.loads(line[len("RESULT "):]), proc.stderr


def run_pyodide(text: str, seed: int) -> dict | str:
    """The default run in a fresh Pyodide under node: this file's run_numpy, as a module beside engine/."""
    ran = in_pyodide(Path(__file__), "benchmark_writing", text, f"SEED = {seed}\n" + PYODIDE_SCRIPT)
    if isinstance(ran, str):
        return ran
    out, stderr = ran
    boot = next((json.loads(ln) for ln in stderr.splitlines() if ln.startswith("{")), {})
    out["boot_seconds"] = boot.get("boot_seconds")
    return out


def _rounded(d: dict) -> dict:
    """Times and ratios to 4 places; differences as they are (they are near 1e-13)."""
    return {k: round(v, 4) if isinstance(v, float) and "difference" not in k else v for k, v in d.items()}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--text", type=Path, help="train on this UTF-8 file instead of the chapters' prose")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--torch-only", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    text = args.text.read_text(encoding="utf-8") if args.text else series_text()
    if args.torch_only:
        print(json.dumps(run_torch(text, args.seed)))
        return 0

    config = CONFIG
    corpus = Corpus.of(text, config.held_out_every)
    report = {"task": "chapter 14's writing model, the run a reader trains in the page", "seed": args.seed,
              "text_characters": len(text), "vocabulary": len(corpus.vocab),
              "parameters": config.model(len(corpus.vocab)).parameters, "steps": config.steps,
              "batch": f"{config.batch_size} windows of {config.context} characters",
              "load_average_start": [round(v, 2) for v in os.getloadavg()]}
    cpython = run_numpy(text, args.seed)
    report["baselines"] = cpython.pop("baselines")
    report["final_held_out"] = cpython.pop("final_held_out")
    report["samples"] = cpython.pop("samples")
    cp_losses, cp_checks = cpython.pop("losses"), cpython.pop("checkpoints")
    report["cpython_numpy"] = _rounded(cpython | {"numpy_version": np.__version__})
    report["cpython_numpy"]["generation"] = _rounded(cpython["generation"])
    readable = run_numpy(text, args.seed, fused=False, generation=False)
    report["cpython_numpy_readable_step"] = _rounded({k: readable[k] for k in ("steps_seconds", "steps_cpu_seconds")})
    report["max_step_loss_difference_fused_readable"] = float(np.abs(np.array(readable["losses"]) - cp_losses).max())
    report["max_checkpoint_loss_difference_fused_readable"] = max(
        max(abs(c["train"] - r["train"]), abs(c["held_out"] - r["held_out"])) for c, r in zip(cp_checks, readable["checkpoints"]))

    torch = run_torch(text, args.seed)
    if torch is None:
        if args.text is None:
            args.text = Path(os.environ.get("TMPDIR", "/tmp")) / "attn-writing-text.txt"
            args.text.write_text(text, encoding="utf-8")
        torch = torch_elsewhere(args.text, args.seed)
    if isinstance(torch, dict):
        t_losses = torch.pop("losses")
        torch["max_step_loss_difference_cpython"] = float(np.abs(np.array(t_losses) - np.array(cp_losses)).max())
        torch["cpython_steps_over_torch"] = cpython["steps_seconds"] / torch["seconds"]
        torch["cpython_steps_cpu_over_torch_cpu"] = cpython["steps_cpu_seconds"] / torch["cpu_seconds"]
        torch = _rounded(torch)
    report["torch_one_thread"] = torch

    pyodide = run_pyodide(text, args.seed)
    if isinstance(pyodide, dict):
        py_losses, py_checks = pyodide.pop("losses"), pyodide.pop("checkpoints")
        for k in ("samples", "baselines", "final_held_out"):
            pyodide.pop(k)
        pyodide["generation"] = _rounded(pyodide["generation"])
        report["pyodide_numpy"] = _rounded(pyodide)
        if isinstance(torch, dict):
            report["pyodide_numpy"]["steps_over_torch"] = round(pyodide["steps_seconds"] / torch["seconds"], 3)
            report["pyodide_numpy"]["steps_cpu_over_torch_cpu"] = round(
                pyodide["steps_cpu_seconds"] / torch["cpu_seconds"], 3)
        report["checkpoint_losses"] = [
            {"step": c["step"], "cpython_train": c["train"], "pyodide_train": p["train"],
             "cpython_held_out": c["held_out"], "pyodide_held_out": p["held_out"]} for c, p in zip(cp_checks, py_checks)]
        report["max_checkpoint_loss_difference_cpython_pyodide"] = max(
            max(abs(c["train"] - p["train"]), abs(c["held_out"] - p["held_out"])) for c, p in zip(cp_checks, py_checks))
        report["max_step_loss_difference_cpython_pyodide"] = float(np.abs(np.array(py_losses) - np.array(cp_losses)).max())
    else:
        report["pyodide_numpy"] = pyodide
    from benchmarks.writing_profile import profile_roofline, run_pyodide_roofline

    report["roofline"] = {"cpython": profile_roofline(text, config, 20, time.thread_time),
                          "pyodide": run_pyodide_roofline(text, 20)}
    report["load_average_end"] = [round(v, 2) for v in os.getloadavg()]
    print(json.dumps(report, indent=2, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
