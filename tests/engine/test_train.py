import math

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from engine.train import (
    SGD,
    Adam,
    AdamConfig,
    SGDConfig,
    cross_entropy_backward,
    cross_entropy_forward,
    flatten,
    pack,
    Training,
    WarmupCosine,
    adam_training,
    to_json,
)
from tests.engine.gradcheck import assert_close_grad, numerical_grad


def reference_ce(logits, targets, valid, axis):
    z = np.moveaxis(logits, axis, -1)
    logp = z - z.max(-1, keepdims=True)
    logp = logp - np.log(np.exp(logp).sum(-1, keepdims=True))
    nll = -np.take_along_axis(logp, targets[..., None], -1)[..., 0]
    w = np.broadcast_to(valid, targets.shape).astype(float)
    return (nll * w).sum() / max(w.sum(), 1.0)


# ---- cross-entropy -----------------------------------------------------------------

def test_cross_entropy_uniform_logits_give_log_classes():
    loss, _ = cross_entropy_forward(np.zeros((5, 4)), np.array([0, 1, 2, 3, 0]))
    assert loss == pytest.approx(math.log(4))


def test_cross_entropy_survives_huge_logits():
    loss, cache = cross_entropy_forward(np.array([[1000.0, 0.0], [0.0, 1000.0]]), np.array([0, 0]))
    assert loss == pytest.approx(500.0)
    assert np.all(np.isfinite(cross_entropy_backward(1.0, cache)))


@pytest.mark.parametrize("axis", [-1, 0, 1])
def test_cross_entropy_backward_matches_finite_differences(axis):
    rng = np.random.default_rng(0)
    logits = rng.normal(size=(3, 4, 5))
    tshape = tuple(s for i, s in enumerate(logits.shape) if i != axis % 3)
    targets = rng.integers(0, logits.shape[axis], tshape)
    valid = rng.random(tshape) < 0.7
    loss, cache = cross_entropy_forward(logits, targets, valid, axis=axis)
    assert loss == pytest.approx(reference_ce(logits, targets, valid, axis))
    d = cross_entropy_backward(2.0, cache)
    num = numerical_grad(lambda: 2.0 * cross_entropy_forward(logits, targets, valid, axis=axis)[0], logits)
    assert_close_grad(d, num)


def test_cross_entropy_ignores_rows_that_do_not_count():
    logits = np.array([[0.0, 5.0], [3.0, 0.0]])
    loss, cache = cross_entropy_forward(logits, np.array([0, 0]), valid=np.array([False, True]))
    assert loss == pytest.approx(reference_ce(logits[1:], np.array([0]), np.array([True]), -1))
    assert np.all(cross_entropy_backward(1.0, cache)[0] == 0.0)


@settings(max_examples=30, deadline=None)
@given(
    shape=st.lists(st.integers(1, 4), min_size=1, max_size=3),
    classes=st.integers(1, 6),
    axis_pick=st.integers(0, 3),
    seed=st.integers(0, 2**32 - 1),
)
def test_cross_entropy_any_shape(shape, classes, axis_pick, seed):
    rng = np.random.default_rng(seed)
    axis = axis_pick % (len(shape) + 1)
    full = tuple(shape[:axis]) + (classes,) + tuple(shape[axis:])
    logits = rng.normal(size=full) * 3
    targets = rng.integers(0, classes, tuple(shape))
    valid = rng.random(tuple(shape)) < 0.8
    loss, cache = cross_entropy_forward(logits, targets, valid, axis=axis)
    assert loss == pytest.approx(reference_ce(logits, targets, valid, axis), rel=1e-10, abs=1e-12)
    d = cross_entropy_backward(1.0, cache)
    assert d.shape == logits.shape
    u = rng.normal(size=full)
    eps = 1e-6
    fd = (cross_entropy_forward(logits + eps * u, targets, valid, axis=axis)[0]
          - cross_entropy_forward(logits - eps * u, targets, valid, axis=axis)[0]) / (2 * eps)
    assert abs(fd - (d * u).sum()) <= 1e-6 * max(1.0, abs(fd))


# ---- parameters and optimisers ------------------------------------------------------

def test_pack_makes_views_into_one_buffer():
    flat, views = pack({"a": np.ones((2, 3)), "b": np.arange(4.0)})
    assert flat.shape == (10,)
    flat += 1.0
    np.testing.assert_array_equal(views["a"], 2.0)
    np.testing.assert_array_equal(views["b"], np.arange(4.0) + 1)
    np.testing.assert_array_equal(flatten({"b": views["b"], "a": views["a"]}, ["a", "b"]), flat)
    assert to_json({"b": views["b"]}) == {"b": [1.0, 2.0, 3.0, 4.0]}


def test_adam_matches_the_paper_update():
    cfg = AdamConfig(lr=0.1, beta1=0.9, beta2=0.99, eps=1e-8)
    p = np.array([1.0, -2.0, 0.5])
    opt = Adam(3, cfg)
    grads = [np.array([0.3, -1.0, 0.0]), np.array([0.1, 2.0, -0.5])]
    m = v = np.zeros(3)
    expect = p.copy()
    for t, g in enumerate(grads, start=1):
        m = cfg.beta1 * m + (1 - cfg.beta1) * g
        v = cfg.beta2 * v + (1 - cfg.beta2) * g * g
        expect = expect - cfg.lr * (m / (1 - cfg.beta1 ** t)) / (np.sqrt(v / (1 - cfg.beta2 ** t)) + cfg.eps)
        opt.step(p, g)
    np.testing.assert_allclose(p, expect, rtol=1e-12)


def test_the_schedule_rises_over_the_warm_up_then_falls_along_a_cosine_to_its_end():
    s = WarmupCosine(warmup=4, steps=100, final=0.1)
    assert [s(t) for t in (1, 2, 4)] == pytest.approx([0.25, 0.5, 1.0], rel=3e-3)  # the cosine has barely begun
    assert s(51) == pytest.approx(0.55) and s(101) == pytest.approx(0.1)  # half way down; the end
    assert all(s(t) >= s(t + 1) for t in range(4, 100))
    assert {WarmupCosine()(t) for t in (1, 7, 10_000)} == {1.0}  # the default: constant


def test_weight_decay_shrinks_the_matrices_not_the_gains_and_biases():
    start = {"w": np.array([[1.0, -2.0]]), "b": np.array([3.0])}
    zero = lambda v, s: (0.0, {"w": 0 * v["w"], "b": 0 * v["b"]})  # noqa: E731: no gradient, so only the decay moves them
    result = adam_training(zero, start, 0.1, 3, weight_decay=0.5).run()
    np.testing.assert_allclose(result.params["w"], start["w"] * (1 - 0.1 * 0.5) ** 3, rtol=1e-12)
    assert result.params["b"].tolist() == [3.0]


def test_sgd_momentum_carries_the_previous_step():
    p = np.array([1.0])
    opt = SGD(1, SGDConfig(lr=0.1, momentum=0.5))
    opt.step(p, np.array([1.0]))  # velocity 1
    opt.step(p, np.array([1.0]))  # velocity 1.5
    np.testing.assert_allclose(p, [1.0 - 0.1 - 0.15])


@pytest.mark.parametrize("make", [lambda n: Adam(n, AdamConfig(lr=0.1)), lambda n: SGD(n, SGDConfig(lr=0.05))])
def test_optimisers_minimise_a_quadratic(make):
    target = np.array([3.0, -1.0, 0.5])
    result = Training(lambda v, step: (float(((v["w"] - target) ** 2).sum()), {"w": 2 * (v["w"] - target)}),
                      {"w": np.zeros(3)}, make(3), steps=300).run()
    assert result.losses[-1] < 1e-3 * result.losses[0]
    np.testing.assert_allclose(result.params["w"], target, atol=0.05)


# ---- the loop -------------------------------------------------------------------------

def quadratic(v, step):
    return float((v["w"] ** 2).sum()), {"w": 2 * v["w"]}


def test_train_checkpoints_the_start_and_every_n_steps():
    start = {"w": np.array([1.0, 2.0])}
    result = Training(quadratic, start, SGD(2, SGDConfig(lr=0.1, momentum=0.0)), steps=10, checkpoint_every=5).run()
    assert result.checkpoint_steps == [0, 5, 10]
    np.testing.assert_array_equal(result.checkpoints[0]["w"], [1.0, 2.0])
    np.testing.assert_allclose(result.checkpoints[1]["w"], np.array([1.0, 2.0]) * 0.8 ** 5)
    np.testing.assert_array_equal(start["w"], [1.0, 2.0])  # the caller's arrays are untouched
    assert len(result.losses) == 10


def test_a_flat_gradient_vector_trains_like_the_dict():
    start = {"w": np.array([1.0, 2.0]), "b": np.array([[0.5], [-1.0]])}

    def as_dict(v, step):
        return float((v["w"] ** 2).sum() + (v["b"] ** 2).sum()), {"w": 2 * v["w"], "b": 2 * v["b"]}

    def as_flat(v, step):
        loss, g = as_dict(v, step)
        return loss, np.concatenate([g["w"], g["b"].ravel()])  # packed order: w, then b

    a = Training(as_dict, start, Adam(4, AdamConfig(lr=0.1)), steps=5).run()
    b = Training(as_flat, start, Adam(4, AdamConfig(lr=0.1)), steps=5).run()
    assert a.losses == b.losses
    for n in start:
        np.testing.assert_array_equal(a.params[n], b.params[n])


def test_a_run_stepped_in_slices_is_the_run_to_the_end():
    """The worker steps a run a slice at a time; finish() part way keeps what was done."""
    whole = Training(quadratic, {"w": np.ones(2)}, Adam(2), steps=10, checkpoint_every=2).run()
    sliced = Training(quadratic, {"w": np.ones(2)}, Adam(2), steps=10, checkpoint_every=2)
    for _ in range(4):
        sliced.step()
    part = sliced.finish()
    assert len(part.losses) == 4 and part.checkpoint_steps == [0, 2, 4] and not sliced.done
    np.testing.assert_array_equal(part.params["w"], part.checkpoints[-1]["w"])
    while not sliced.done:
        sliced.step()
    assert sliced.finish().losses == whole.losses and sliced.done_steps == 10


def test_adam_training_is_adam_over_every_weight():
    start = {"w": np.array([1.0, 2.0]), "b": np.array([[0.5], [-1.0]])}
    a = adam_training(lambda v, s: (float((v["w"] ** 2).sum()), {"w": 2 * v["w"], "b": 0 * v["b"]}), start, 0.1, 5).run()
    b = Training(lambda v, s: (float((v["w"] ** 2).sum()), {"w": 2 * v["w"], "b": 0 * v["b"]}), start,
                 Adam(4, AdamConfig(lr=0.1)), 5).run()
    assert a.losses == b.losses
