"""A run of chapter 14's model trained in the page, as the reader keeps it, and kept training.

The kept file is the model in the shipped model's format (writing.pack: the text, the recipe, the
weights as float32, the run's record) followed by the optimiser's state, so that Keep training goes
on exactly as the run would have gone on uninterrupted: Adam's two moments and its step count, and
the schedule the run was started with (a warm-up and a cosine over its first `schedule_steps`; the
step size stays at the cosine's end after them). A run continued to `steps` draws its batches as a
run of `steps` drawn from the same seed would (the first ones are the same batches), so training N
steps, keeping, and training M more gives bit for bit what training N + M steps at once gives.
Shapes: P weights in all, in the order of the run's weights.
"""
from __future__ import annotations

import dataclasses
import json
import math
from dataclasses import dataclass

import numpy as np

from engine.tasks import writing
from engine.tasks.writing_step import WritingStep
from engine.train import WarmupCosine, adam_training

MARK = b"\nwriting-optimiser\n"  # between the model's bytes and the optimiser's header

# The recipe a reader trains in the page (Train from scratch), and the only one a kept file may hold.
# Chosen by the sweep benchmarks/writing_sweep.py prints (its "page:" rows) for the lowest held-out
# loss in under a minute of the browser's numpy: short windows, many small steps, a warm-up and a
# cosine decay. Kept here, not in engine/tasks/writing.py, so tuning it does not retrain the shipped model.
IN_THE_PAGE = writing.WritingConfig(context=32, batch_size=8, steps=1200, lr=1e-2, warmup=60, lr_final=0.1,
                                    dtype="float32", checkpoint_every=100)


@dataclass(frozen=True)
class Kept:
    """A kept run: its model (writing.unpack's), Adam's moments (2, P) float32 and step count, and
    the number of steps its schedule spans."""
    model: writing.Shipped
    moments: np.ndarray
    t: int
    schedule_steps: int


def pack_kept(model_file: bytes, moments: np.ndarray, t: int, schedule_steps: int) -> bytes:
    """A model file (writing.pack's) and its run's optimiser state, in one file."""
    header = {"t": int(t), "schedule_steps": int(schedule_steps), "size": int(moments.shape[1])}
    return (model_file + MARK + json.dumps(header, sort_keys=True).encode() + b"\n"
            + np.ascontiguousarray(moments, dtype="<f4").tobytes())


def unpack_kept(data: bytes, recipe: writing.WritingConfig = IN_THE_PAGE) -> Kept:
    """pack_kept's file of a run of `recipe` (whatever its steps) read back; anything else is a
    ValueError (it comes from the browser's store, which another site on the same origin could have
    written)."""
    model_file, mark, rest = data.rpartition(MARK)
    if not mark:
        raise ValueError("not a kept run")
    model = writing.unpack(model_file)
    line, _, arrays = rest.partition(b"\n")
    header = json.loads(line)
    size = sum(math.prod(a.shape) for a in model.params.values())
    if not isinstance(header, dict) or header.get("size") != size or len(arrays) != 2 * 4 * size:
        raise ValueError("the kept run's optimiser does not fit its model")
    t, schedule_steps = header.get("t"), header.get("schedule_steps")
    if not (isinstance(t, int) and isinstance(schedule_steps, int) and 0 <= t and 0 < schedule_steps):
        raise ValueError("the kept run's optimiser state is not one this site writes")
    # the page's recipe but for its length (a kept run is one the page trained, whatever its size)
    if dataclasses.replace(model.config, steps=recipe.steps) != recipe:
        raise ValueError("the kept run is not of the recipe this page trains")
    moments = np.frombuffer(arrays, dtype="<f4").reshape(2, size).astype(np.float32)
    return Kept(model, moments, t, schedule_steps)


def model_of(data: bytes, recipe: writing.WritingConfig = IN_THE_PAGE) -> writing.Shipped:
    """The model of a kept file (what figure 14.2 writes with)."""
    return unpack_kept(data, recipe).model


def training(text: str, seed: int, config: writing.WritingConfig, steps: int, params=None):
    """A run of `config` (its schedule over config.steps) taken on to `steps` steps, ready to step:
    its batches drawn as a run of `steps` from `seed` draws them, its weights `params` or drawn
    from `seed`. Returns (training, run) as writing.writing_training does."""
    corpus = writing.Corpus.of(text, config.held_out_every)
    longer = dataclasses.replace(config, steps=steps)
    start, batches = writing.starting_point(corpus, seed, longer)  # (steps, B, T+1)
    step = WritingStep(batches, dropout=config.dropout, seed=seed)
    schedule = WarmupCosine(config.warmup, config.steps, config.lr_final)
    weights = start if params is None else {n: params[n] for n in start}  # the start's order: the moments' too
    t = adam_training(step, weights, config.lr, steps, config.checkpoint_every,
                      schedule=schedule, weight_decay=config.weight_decay, dtype=config.dtype)
    return t, writing.WritingRun(corpus, longer, t)


def kept_file(model_file: bytes, config: writing.WritingConfig, t) -> bytes:
    """The file the reader keeps of a run `t` (a Training) whose model file is `model_file`."""
    return pack_kept(model_file, t.optimizer.moments, t.optimizer.t, config.steps)


def keep_training(kept: Kept, more: int):
    """The kept run taken on for `more` steps, ready to step from where it was kept: (training, run),
    with its losses and checkpoints so far, so its record is the whole run's."""
    model, done = kept.model, kept.t
    config = dataclasses.replace(model.config, steps=kept.schedule_steps)
    t, run = training(model.text, model.seed, config, done + more,
                      params={n: a.astype(config.dtype) for n, a in model.params.items()})
    if len(model.run["losses"]) != done:
        raise ValueError("the kept run's record does not fit its optimiser")
    np.copyto(t.optimizer.moments, kept.moments)
    t.optimizer.t = done
    # Where the run was kept: its losses so far, and its checkpoints as already measured (the
    # start's, which the new Training took of the kept weights, is dropped; run.measure() goes on
    # after them).
    t.result.losses = [float(v) for v in model.run["losses"]]
    t.result.checkpoint_steps = [c["step"] for c in model.run["checkpoints"]]
    t.result.checkpoints = [None] * len(model.run["checkpoints"])
    run.checkpoints = list(model.run["checkpoints"])
    return t, run
