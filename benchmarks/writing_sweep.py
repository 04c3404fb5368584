#!/usr/bin/env python3
"""Print the sweep that chose chapter 14's shipped recipe (engine/tasks/writing.py SHIPPED): for each
recipe (size, windows, steps, schedule, weight decay), its parameters, the held-out loss of its final
weights on the whole held-out text (nats per character) and the CPU seconds its training took on
CPython with numpy on one thread; beside them, the counting models' held-out losses on the same split.
A benchmark, not a test: nothing is asserted. Each recipe trains in its own process, --jobs at a time.

usage: benchmarks/writing_sweep.py [--jobs N] [--text FILE] [--only NAME ...]
"""
from __future__ import annotations

import argparse
import dataclasses
import json
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # before numpy loads: one core per recipe
ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine.figures import writing_training  # noqa: E402
from engine.tasks import writing  # noqa: E402

W = writing.WritingConfig
COSINE = dict(warmup=100, lr_final=0.1)
RECIPES = {  # name -> recipe; "page:" rows are candidates for the browser's (a minute of Pyodide), the rest for the site's
    "in the page": writing_training.CONFIG,
    "page: d48 x2, context 64, 8 windows, 600 steps, constant 3e-3 (the page's until 2026-12)": W(),
    "page: d48 x2, context 32, 16 windows, 600 steps, cosine from 1e-2, float32": W(
        context=32, batch_size=16, steps=600, lr=1e-2, warmup=30, lr_final=0.1, dtype="float32"),
    "page: d48 x2, context 64, 8 windows, 600 steps, cosine from 1e-2, float32": W(
        steps=600, lr=1e-2, warmup=30, lr_final=0.1, dtype="float32"),
    "page: d48 x2, context 32, 8 windows, 1,800 steps, cosine from 1e-2, float32": W(
        context=32, batch_size=8, steps=1800, lr=1e-2, warmup=90, lr_final=0.1, dtype="float32"),
    "page: d48 x2, context 32, 16 windows, 900 steps, cosine from 1e-2, float32": W(
        context=32, batch_size=16, steps=900, lr=1e-2, warmup=45, lr_final=0.1, dtype="float32"),
    "page: d64 x2, context 32, 16 windows, 600 steps, cosine from 1e-2, float32": W(
        context=32, d_model=64, d_ff=256, batch_size=16, steps=600, lr=1e-2, warmup=30, lr_final=0.1, dtype="float32"),
    "d48 x2, 16 windows, 1,500 steps, cosine": W(batch_size=16, steps=1500, lr=5e-3, **COSINE),
    "d64 x3, 32 windows, 3,000 steps, cosine": W(d_model=64, layers=3, d_ff=256, batch_size=32, steps=3000, lr=5e-3, **COSINE),
    "d96 x3, 16 windows, 3,000 steps, cosine": W(d_model=96, layers=3, d_ff=384, batch_size=16, steps=3000, lr=4e-3, **COSINE),
    "d96 x3, the same with weight decay 0.1": W(d_model=96, layers=3, d_ff=384, batch_size=16, steps=3000, lr=4e-3,
                                                 weight_decay=0.1, **COSINE),
    "d128 x3, 16 windows, 3,000 steps, cosine": W(d_model=128, layers=3, d_ff=512, batch_size=16, steps=3000, lr=3e-3, **COSINE),
    "d96 x3, 16 windows, 3,000 steps, cosine, dropout 0.1": W(d_model=96, layers=3, d_ff=384, batch_size=16, steps=3000,
                                                              lr=4e-3, dropout=0.1, **COSINE),
    "d128 x3, 16 windows, 3,000 steps, cosine, dropout 0.2": W(d_model=128, layers=3, d_ff=512, batch_size=16, steps=3000,
                                                               lr=3e-3, dropout=0.2, **COSINE),
    "d96 x3, 16 windows, 6,000 steps, cosine, dropout 0.1, float32": W(
        d_model=96, layers=3, d_ff=384, batch_size=16, steps=6000, lr=4e-3, dropout=0.1, dtype="float32", **COSINE),
    "d128 x3, 16 windows, 6,000 steps, cosine, dropout 0.2, float32": W(
        d_model=128, layers=3, d_ff=512, batch_size=16, steps=6000, lr=3e-3, dropout=0.2, dtype="float32", **COSINE),
    "shipped": writing.SHIPPED,
}


def series_text() -> str:
    from builder.corpus import read_corpus
    from builder.site_config import load_site_config

    return read_corpus(load_site_config(ROOT / "content").chapters).text


def train(job: tuple[str, str, dict]) -> dict:
    name, text, config = job
    config = writing.WritingConfig(**config)
    corpus = writing.Corpus.of(text, config.held_out_every)
    config = writing.fitted(config, len(corpus.train)) if name == "shipped" else config
    cpu, wall = time.process_time(), time.perf_counter()
    training, run = writing.writing_training(text, writing.MODEL_SEED, dataclasses.replace(config, checkpoint_every=0))
    training.run()
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    params = training.finish().params
    return {"recipe": name, "parameters": int(sum(a.size for a in params.values())),
            "characters_read": config.steps * config.batch_size * config.context,
            "held_out": round(writing.held_out_loss(params, corpus, config.context), 3),
            "last_batch": round(float(training.result.losses[-1]), 3),
            "cpu_s": round(cpu, 1), "wall_s": round(wall, 1)}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--text", type=Path)
    ap.add_argument("--only", nargs="*", help="the recipes to train, by name (default: all)")
    args = ap.parse_args(argv)
    text = args.text.read_text() if args.text else series_text()
    corpus = writing.Corpus.of(text, writing.SHIPPED.held_out_every)
    print(json.dumps({"counting": {k: round(v, 3) for k, v in writing.baselines(corpus).items()},
                      "train_characters": len(corpus.train), "held_out_characters": len(corpus.held_out)}), flush=True)
    jobs = [(n, text, dataclasses.asdict(c)) for n, c in RECIPES.items() if not args.only or n in args.only]
    with ProcessPoolExecutor(args.jobs) as pool:
        for row in pool.map(train, jobs):
            print(json.dumps(row), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
