"""A run of chapter 14's model trained in the page (from scratch, or fine-tuned: writing_own), as the
reader keeps it, and kept training.

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

from engine.tasks import writing, writing_own

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
    if not of_the_page(model.config, recipe):
        raise ValueError("the kept run is not of a recipe this page trains")
    moments = np.frombuffer(arrays, dtype="<f4").reshape(2, size).astype(np.float32)
    return Kept(model, moments, t, schedule_steps)


def of_the_page(config: writing.WritingConfig, recipe: writing.WritingConfig = IN_THE_PAGE) -> bool:
    """Whether a kept run's recipe is one the page trains, whatever its length: `recipe`, or a
    fine-tuning (writing_own) of a model of `recipe`'s sizes or of the shipped model's."""
    if dataclasses.replace(config, steps=recipe.steps) == recipe:
        return True
    sizes = ("context", "d_model", "layers", "heads", "d_ff", "dropout", "dtype")
    return writing_own.tuned(config) and any(all(getattr(config, k) == getattr(base, k) for k in sizes)
                                             for base in (recipe, writing.SHIPPED))


def model_of(data: bytes, recipe: writing.WritingConfig = IN_THE_PAGE) -> writing.Shipped:
    """The model of a kept file (what figure 14.2 writes with)."""
    return unpack_kept(data, recipe).model


def kept_file(text: str, config: writing.WritingConfig, seed: int, record: dict, moments: np.ndarray, t: int,
              schedule_steps: int) -> bytes:
    """A run as the reader keeps it: its model (writing.pack of its text, recipe, seed and record:
    finish()'s, with the text's baselines), then its optimiser's state."""
    return pack_kept(writing.pack(text, config, seed, record), moments, t, schedule_steps)


def keep_training(kept: Kept, more: int):
    """The kept run taken on for `more` steps, ready to step from where it was kept: (training, run),
    with its losses and checkpoints so far, so its record is the whole run's."""
    model, done = kept.model, kept.t
    config = dataclasses.replace(model.config, steps=kept.schedule_steps)
    t, run = writing.writing_training(model.text, model.seed, config, steps=done + more, vocab=model.vocab,
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
