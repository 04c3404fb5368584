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


def test_dropout_draws_a_step_s_mask_from_its_seed_and_its_gradient_is_the_loss_s():
    config = dataclasses.replace(SMALL, steps=2, heads=4, batch_size=2)
    start, batches = starting_point(Corpus.of(TEXT), 0, config)
    flat, views = pack(start)
    rng = np.random.default_rng(1)
    flat += rng.normal(0.0, 0.3, flat.shape)
    dropped = WritingStep(batches, dropout=0.5, seed=7)
    loss, grad = (v.copy() if isinstance(v, np.ndarray) else v for v in dropped(views, 0))
    assert dropped(views, 0)[0] == loss != WritingStep(batches)(views, 0)[0]  # the same mask each time it runs
    assert WritingStep(batches, dropout=0.5, seed=8)(views, 0)[0] != loss  # another seed, another mask
    for i in rng.choice(flat.size, 12, replace=False):  # central differences, the mask held
        keep = flat[i]
        flat[i] = keep + 1e-5
        up = dropped.forward(0)
        flat[i] = keep - 1e-5
        down = dropped.forward(0)
        flat[i] = keep
        assert grad[i] == pytest.approx((up - down) / 2e-5, rel=1e-4, abs=1e-8)


def test_a_float32_step_is_the_float64_one_to_float32_rounding():
    config = dataclasses.replace(SMALL, steps=2, heads=4, batch_size=2)
    start, batches = starting_point(Corpus.of(TEXT), 0, config)
    (_, wide), (_, narrow) = pack(start), pack(start, np.float32)
    (loss, grad), (loss32, grad32) = WritingStep(batches)(wide, 1), WritingStep(batches)(narrow, 1)
    assert grad32.dtype == np.float32 and loss32 == pytest.approx(loss, rel=1e-6)
    np.testing.assert_allclose(grad32, grad, rtol=1e-3, atol=1e-5 * np.abs(grad).max())
    assert WritingStep(batches, dropout=0.5)(narrow, 1)[1].dtype == np.float32  # its masks drawn in float32 too
