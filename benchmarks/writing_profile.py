#!/usr/bin/env python3
"""Print where a training step of chapter 14's model spends its time, as JSON (a benchmark: nothing is asserted).

- calls: the readable step (writing.loss_and_grads, then Adam), before any fusing, with every engine function wrapped in a
  timer: calls per step, and milliseconds per step inclusive and exclusive of the wrapped functions it calls;
- fixed_cost: the same step at the smallest sizes, where the time is the cost of each Python line and
  numpy call rather than of the arithmetic;
- fused: the fused step (engine/tasks/writing_step.py) with Adam, milliseconds per step;
- products: one dense product of the default sizes as numpy computes it without BLAS, by matmul on
  rows (positions first) and by einsum on columns (features first), milliseconds each;
- roofline: the fused step with Adam against its matrix products alone (every product one step
  makes, replayed on the step's own operands, so they cost what they cost in the step): the rest of
  the step is everything else (softmax, layer norm, GELU, Adam, slicing, copies). Issue 47's goal:
  step_over_products at most 1.25.
On CPython (numpy held to one thread) and in Pyodide under node with real numpy (benchmarks/writing.py's way).
usage: benchmarks/writing_profile.py [--text FILE] [--steps N]
"""
from __future__ import annotations

import argparse
import dataclasses
import json
import os
import sys
import time
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402

WRAPPED = ("embed_forward", "embed_backward", "layernorm_forward", "layernorm_backward", "gelu_forward",
           "gelu_backward", "ffn_forward", "ffn_backward", "softmax_forward", "softmax_backward",
           "attention_forward", "attention_backward", "self_attention_forward", "self_attention_backward",
           "block_forward", "block_backward", "gpt_forward", "gpt_backward", "cross_entropy_forward",
           "cross_entropy_backward", "flatten", "loss_and_grads")


class Timers:
    """Wraps functions; each call's time goes to its own inclusive total and out of its caller's exclusive one."""

    def __init__(self, clock=time.perf_counter):
        self.clock, self.stack = clock, []
        self.inclusive, self.exclusive, self.calls = {}, {}, {}

    def wrap(self, name, fn):
        def timed(*args, **kwargs):
            self.stack.append(0.0)
            t0 = self.clock()
            try:
                return fn(*args, **kwargs)
            finally:
                spent = self.clock() - t0
                children = self.stack.pop()
                if self.stack:
                    self.stack[-1] += spent
                self.inclusive[name] = self.inclusive.get(name, 0.0) + spent
                self.exclusive[name] = self.exclusive.get(name, 0.0) + spent - children
                self.calls[name] = self.calls.get(name, 0) + 1
        timed.original = fn
        return timed


def instrument(timers):
    """Wrap every WRAPPED function where engine modules look it up, and Adam.step; return an undo."""
    import engine.attention, engine.block, engine.decoder, engine.gpt, engine.tasks.writing, engine.train  # noqa: E401
    modules = (engine.attention, engine.block, engine.decoder, engine.gpt, engine.train, engine.tasks.writing)
    wrappers, undo = {}, []
    for module in modules:
        for name in WRAPPED:
            fn = getattr(module, name, None)
            if fn is None:
                continue
            if fn not in wrappers:
                wrappers[fn] = timers.wrap(name, fn)
            setattr(module, name, wrappers[fn])
            undo.append((module, name, fn))
    step = engine.train.Adam.step
    engine.train.Adam.step = timers.wrap("Adam.step", step)
    undo.append((engine.train.Adam, "step", step))
    return lambda: [setattr(m, n, f) for m, n, f in undo]


def profile_calls(text, config, steps, clock):
    """Per engine function: calls and ms per step over ``steps`` steps after one warm-up step."""
    from engine.tasks.writing import writing_training

    training, _ = writing_training(text, 0, dataclasses.replace(config, steps=steps + 1, checkpoint_every=0), fused=False)
    training.step()
    timers = Timers(clock)
    undo = instrument(timers)
    try:
        t0 = clock()
        for _ in range(steps):
            training.step()
        total = clock() - t0
    finally:
        undo()
    rows = sorted(timers.exclusive, key=timers.exclusive.get, reverse=True)
    return {"ms_per_step": round(1000 * total / steps, 2),
            "calls": {n: {"calls_per_step": timers.calls[n] // steps,
                          "ms_inclusive": round(1000 * timers.inclusive[n] / steps, 3),
                          "ms_exclusive": round(1000 * timers.exclusive[n] / steps, 3)} for n in rows}}


def time_steps(training, steps, clock):
    training.step()
    t0 = clock()
    for _ in range(steps):
        training.step()
    return round(1000 * (clock() - t0) / steps, 2)


def profile_fused(text, config, steps, clock):
    """ms per step of the fused step with Adam, beside the readable one, both unwrapped."""
    from engine.tasks.writing import writing_training

    short = dataclasses.replace(config, steps=steps + 1, checkpoint_every=0)
    return {"readable_ms_per_step": time_steps(writing_training(text, 0, short, fused=False)[0], steps, clock),
            "fused_ms_per_step": time_steps(writing_training(text, 0, short, fused=True)[0], steps, clock)}


def profile_products(config, clock, n_positions, repeats=20):
    """ms of each dense product of one block at the default sizes: (rows, inner, columns)."""
    rng = np.random.default_rng(0)
    D, F, N = config.d_model, config.d_ff, n_positions
    out = {}
    for inner, cols in ((D, 3 * D), (D, D), (D, F), (F, D)):
        w = rng.normal(size=(inner, cols))
        x = rng.normal(size=(N, inner))
        xt = np.ascontiguousarray(x.T)
        y, yt = np.empty((N, cols)), np.empty((cols, N))
        timings = {}
        for label, fn in (("matmul_rows", lambda: np.matmul(x, w, out=y)),
                          ("einsum_columns", lambda: np.einsum("df,dn->fn", w, xt, out=yt))):
            fn()
            t0 = clock()
            for _ in range(repeats):
                fn()
            timings[label] = round(1000 * (clock() - t0) / repeats, 3)
        out[f"({N}, {inner}) x ({inner}, {cols})"] = timings
    return out


def _inner(spec, a):
    """The length of the axis an einsum ``spec`` of two matrices sums over, read from ``a``."""
    first, result = spec.split(",")[0], spec.split("->")[1]
    return a.shape[first.index(next(c for c in first if c not in result))]


def profile_roofline(text, config, steps, clock):
    """ms per step of the fused step with Adam, and of its matrix products alone, recorded during one
    step (writing_step.product and np.matmul, with their operands) and replayed ``steps`` times."""
    import engine.tasks.writing_step as ws
    from engine.tasks.writing import writing_training

    training, _ = writing_training(text, 0, dataclasses.replace(config, steps=2 * steps + 2, checkpoint_every=0))
    training.step()
    calls, product, matmul, inside = [], ws.product, np.matmul, []

    def recorded_product(spec, a, b, out):
        calls.append((product, (spec, a, b), out, 2 * out.size * _inner(spec, a)))
        inside.append(1)
        try:
            return product(spec, a, b, out=out)
        finally:
            inside.pop()

    def recorded_matmul(a, b, out=None):
        if not inside:  # a product's own matmul (with BLAS) is the product's
            calls.append((matmul, (a, b), out, 2 * out.size * a.shape[-1]))
        return matmul(a, b, out=out)

    ws.product, np.matmul = recorded_product, recorded_matmul
    try:
        training.step()
    finally:
        ws.product, np.matmul = product, matmul
    step_ms = time_steps(training, steps, clock)
    t0 = clock()
    for _ in range(steps):
        for fn, args, out, _ in calls:
            fn(*args, out=out)
    products_ms = 1000 * (clock() - t0) / steps
    flops = sum(f for *_, f in calls)
    return {"step_ms": step_ms, "products_ms": round(products_ms, 2), "products_per_step": len(calls),
            "products_gflop_per_step": round(flops / 1e9, 4),
            "products_gflops": round(flops / (products_ms / 1000) / 1e9, 2),
            "rest_ms": round(step_ms - products_ms, 2), "rest_share": round(1 - products_ms / step_ms, 3),
            "step_over_products": round(step_ms / products_ms, 3)}


def profile(text, steps, clock=time.perf_counter):
    from engine.figures.writing_training import CONFIG as config  # the recipe a reader trains in the page
    tiny = dataclasses.replace(config, context=4, d_model=4, heads=1, d_ff=4, batch_size=1)
    out = {"calls": profile_calls(text, config, steps, clock),
           "fixed_cost": {"sizes": "1 window of 4 characters, width 4, one head",
                          "ms_per_step": profile_calls(text, tiny, steps, clock)["ms_per_step"]},
           "products": profile_products(config, clock, config.batch_size * config.context),
           "fused": profile_fused(text, config, steps, clock),
           "roofline": profile_roofline(text, config, steps, clock)}
    return out


PYODIDE_SCRIPT = """
import json, js
from writing_profile import profile
out = profile(open("/home/pyodide/text.txt").read(), STEPS, lambda: js.mainThreadSchedSeconds()[0])
print("RESULT " + json.dumps(out))
"""


ROOFLINE_SCRIPT = """
import json, js
from writing_profile import profile_roofline
from engine.figures.writing_training import CONFIG
out = profile_roofline(open("/home/pyodide/text.txt").read(), CONFIG, STEPS, lambda: js.mainThreadSchedSeconds()[0])
print("RESULT " + json.dumps(out))
"""


def run_pyodide_roofline(text, steps):
    """profile_roofline in a fresh Pyodide under node (the page recipe's step), or why not."""
    from benchmarks.writing import in_pyodide

    ran = in_pyodide(Path(__file__), "writing_profile", text, f"STEPS = {steps}\n" + ROOFLINE_SCRIPT)
    return ran if isinstance(ran, str) else ran[0]


def run_pyodide(text, steps):
    from benchmarks.writing import in_pyodide

    ran = in_pyodide(Path(__file__), "writing_profile", text, f"STEPS = {steps}\n" + PYODIDE_SCRIPT)
    return ran if isinstance(ran, str) else ran[0]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--text", type=Path, help="train on this UTF-8 file instead of the chapters' prose")
    parser.add_argument("--steps", type=int, default=20)
    args = parser.parse_args(argv)
    from benchmarks.writing import series_text

    text = args.text.read_text(encoding="utf-8") if args.text else series_text()
    report = {"clock": "CPU seconds of the Python thread (Pyodide: node's main thread, from /proc)",
              "steps": args.steps, "load_average_start": [round(v, 2) for v in os.getloadavg()],
              "cpython": profile(text, args.steps, time.thread_time),
              "pyodide": run_pyodide(text, args.steps),
              "load_average_end": [round(v, 2) for v in os.getloadavg()]}
    print(json.dumps(report, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
