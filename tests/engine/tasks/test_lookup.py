import math

import numpy as np
import pytest

from engine.tasks.lookup import LookupConfig, grid, loss_and_grads, lookup_training, sample_batch
from tests.engine.gradcheck import assert_close_grad, numerical_grad


@pytest.fixture(scope="module")
def trained():
    t = lookup_training(seed=0, steps=300)
    t.run()
    return t


def test_examples_hold_four_distinct_pairs_and_a_question_from_the_keys():
    cfg = LookupConfig()
    b = sample_batch(np.random.default_rng(0), cfg)
    assert b.x.shape == (16, 5, 16)
    keys, values = b.x[:, :4, :8], b.x[:, :4, 8:]
    assert np.all(keys.sum(axis=2) == 1) and np.all(values.sum(axis=2) == 1)
    assert np.all(keys.sum(axis=1) <= 1) and np.all(values.sum(axis=1) <= 1)  # distinct keys, distinct values
    question = b.x[:, 4]
    assert np.all(question[:, 8:] == 0)
    rows = np.arange(16)
    np.testing.assert_array_equal(question[:, :8], keys[rows, b.correct])
    np.testing.assert_array_equal(values[rows, b.correct].argmax(1), b.answer)


def test_128_numbers_are_trained():
    assert lookup_training(seed=0).flat.size == 128


def test_gradients_match_finite_differences():
    cfg = LookupConfig(init_scale=0.5)
    rng = np.random.default_rng(3)
    params = {"wq": rng.normal(0, 0.5, (1, 16, 4)), "wk": rng.normal(0, 0.5, (1, 16, 4))}
    batch = sample_batch(rng, cfg)
    _, grads = loss_and_grads(params, batch, cfg)
    for name in params:
        assert_close_grad(grads[name], numerical_grad(lambda: loss_and_grads(params, batch, cfg)[0], params[name]))


def test_loss_starts_near_ln4():
    t = lookup_training(seed=0)
    t.step()
    assert abs(t.result.losses[0] - math.log(4)) < 0.05


def test_loss_falls_below_a_tenth_within_300_steps(trained):
    losses = trained.result.losses
    assert min(np.convolve(losses, np.ones(10) / 10, "valid")) < 0.1
    assert np.mean(losses[-10:]) < 0.1


def test_learned_grid_has_a_dominant_diagonal(trained):
    g = grid(trained.views)
    assert g.shape == (8, 8)
    np.testing.assert_array_equal(g.argmax(axis=1), np.arange(8))
    off = g[~np.eye(8, dtype=bool)]
    assert np.diag(g).min() > off.max()
    assert off.mean() < 0 < np.diag(g).min()


def test_the_same_seed_gives_the_same_start_and_batches_at_any_step_size():
    a, b, slow = lookup_training(seed=4, steps=5), lookup_training(seed=4, steps=5), lookup_training(seed=4, lr=0.05)
    np.testing.assert_array_equal(grid(a.views), grid(slow.views))
    a.run(), b.run()
    assert a.result.losses == b.result.losses
    slow.step()
    assert slow.result.losses[0] == a.result.losses[0]  # the first batch, before any update


def test_smaller_steps_learn_more_slowly():
    slow, fast = lookup_training(seed=0, steps=100, lr=0.05), lookup_training(seed=0, steps=100)
    assert np.mean(slow.run().losses[-10:]) > np.mean(fast.run().losses[-10:])
