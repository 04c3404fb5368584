"""The fused writing step against the readable model (gpt_forward, gpt_backward), whose gradients
test_gpt.py checks by finite differences: the same loss and gradients to rounding, by either road
(einsum without BLAS, matmul with it), whatever the spans of queries attention is computed in,
and the same run."""
import dataclasses

import numpy as np
import pytest

from engine.tasks import writing_step
from engine.tasks.writing import Corpus, loss_and_grads, starting_point, train_writing_model
from engine.tasks.writing_step import WritingStep
from engine.train import pack

from .test_writing import SMALL, TEXT


@pytest.mark.parametrize("blas, spans", [(True, 2), (False, 1), (False, 5)])  # 5 spans of 24 queries: the last is shorter
def test_fused_step_matches_the_readable_one(monkeypatch, blas, spans):
    monkeypatch.setattr(writing_step, "HAS_BLAS", blas)
    config = dataclasses.replace(SMALL, steps=3, heads=4, batch_size=3)
    start, batches = starting_point(Corpus.of(TEXT), 0, config)
    _, views = pack(start)
    rng = np.random.default_rng(1)
    for a in views.values():
        a += rng.normal(0.0, 0.3, a.shape)  # weights off their start, so every gradient is far from 0
    fused = WritingStep(batches, spans)
    for step in range(3):
        loss, grad = fused(views, step)
        ref_loss, ref = loss_and_grads(views, batches[step])
        assert loss == pytest.approx(ref_loss, rel=1e-12)
        flat = np.concatenate([ref[n].ravel() for n in views])
        np.testing.assert_allclose(grad, flat, rtol=1e-9, atol=1e-12 * np.abs(flat).max())


def test_fused_and_readable_runs_agree_at_every_checkpoint():
    config = dataclasses.replace(SMALL, steps=40, checkpoint_every=20)
    fused, readable = (train_writing_model(TEXT, 0, config, fused=f) for f in (True, False))
    np.testing.assert_allclose(fused["losses"], readable["losses"], rtol=1e-9)
    for a, b in zip(fused["checkpoints"], readable["checkpoints"]):
        assert a["train"] == pytest.approx(b["train"], rel=1e-9)
        assert a["held_out"] == pytest.approx(b["held_out"], rel=1e-9)
