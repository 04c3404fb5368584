"""A run kept in the page and kept training (engine/tasks/writing_kept.py): the file holds the model
and the optimiser, and training N steps, keeping, then M more is training N + M at once, bit for bit."""
from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from engine.tasks import writing, writing_kept, writing_own
from engine.tasks.writing import pack

from .test_writing import SMALL, TEXT

CONFIG = dataclasses.replace(SMALL, steps=60, checkpoint_every=20, warmup=10, lr_final=0.1, dtype="float32")


def _kept(t, run, text=TEXT, seed=3) -> bytes:
    """What the page keeps of a run trained to its end (writing_training's model_file)."""
    return writing_kept.kept_file(text, run.config, seed, run.finish() | {"baselines": {}}, t.optimizer.moments,
                                  t.optimizer.t, run.config.steps)


def test_keeping_and_training_more_is_training_longer_bit_for_bit():
    t, run = writing.writing_training(TEXT, 3, CONFIG)  # Train from scratch, as the page's job runs it
    t.run()
    kept = writing_kept.unpack_kept(_kept(t, run), CONFIG)
    assert kept.t == CONFIG.steps and kept.schedule_steps == CONFIG.steps
    more, more_run = writing_kept.keep_training(kept, 40)
    more.run()
    resumed = more_run.finish()
    longer, longer_run = writing.writing_training(TEXT, 3, CONFIG, steps=CONFIG.steps + 40)
    longer.run()
    uninterrupted = longer_run.finish()
    assert resumed["losses"] == uninterrupted["losses"]
    for name, weights in uninterrupted["params"].items():
        assert np.array_equal(resumed["params"][name], weights), name
    assert resumed["checkpoints"] == uninterrupted["checkpoints"]
    assert resumed["final_held_out"] == uninterrupted["final_held_out"]


def test_the_kept_file_is_the_model_then_the_optimiser_and_nothing_else_reads():
    t, run = writing.writing_training(TEXT, 3, dataclasses.replace(CONFIG, steps=20))
    t.run()
    data = _kept(t, run)
    assert writing_kept.model_of(data, CONFIG).params.keys() == run.finish()["params"].keys()
    for broken in (data[:-4], data.replace(writing_kept.MARK, b"\n"), writing.pack(TEXT, CONFIG, 3, run.finish() | {"baselines": {}}),
                   data.replace(b'"t": 20', b'"t": -1')):
        with pytest.raises(ValueError):
            writing_kept.unpack_kept(broken, CONFIG)
    with pytest.raises(ValueError, match="not of a recipe this page trains"):
        writing_kept.unpack_kept(data)  # a model of another recipe (of any size) is not one the page keeps


OWN = "Later the reader writes a text of their own, in the letters the model knows. " * 16  # 1,232 characters


def test_a_fine_tuned_run_is_kept_and_kept_training_is_fine_tuning_longer_bit_for_bit():
    base = writing.unpack(pack(TEXT, CONFIG, 3, _finished(CONFIG)))
    t, run = writing_own.tuning(base, OWN, True, 2 * writing_own.CHECKPOINT_EVERY, 5)
    assert run.corpus.vocab == base.vocab  # the text is read with the model's characters
    t.run()
    data = _kept(t, run, OWN, 5)
    kept = writing_kept.unpack_kept(data, CONFIG)  # a fine-tuning of a model of the page's sizes: one the page keeps
    assert kept.model.text == OWN and kept.model.config == run.config
    more, more_run = writing_kept.keep_training(kept, writing_own.CHECKPOINT_EVERY)
    more.run()
    resumed = more_run.finish()
    longer, longer_run = writing.writing_training(OWN, 5, run.config, steps=3 * writing_own.CHECKPOINT_EVERY,
                                                  vocab=base.vocab, params={n: a.astype(np.float32) for n, a in base.params.items()})
    longer.run()
    uninterrupted = longer_run.finish()
    assert resumed["losses"] == uninterrupted["losses"] and resumed["checkpoints"] == uninterrupted["checkpoints"]
    for name, weights in uninterrupted["params"].items():
        assert np.array_equal(resumed["params"][name], weights), name
    bigger = dataclasses.replace(run.config, d_model=2 * run.config.d_model)  # a fine-tuning of no model the page has
    assert writing_own.tuned(bigger) and not writing_kept.of_the_page(bigger, CONFIG)


def _finished(config) -> dict:
    t, run = writing.writing_training(TEXT, 3, dataclasses.replace(config, steps=20))
    t.run()
    return run.finish() | {"baselines": {}}
