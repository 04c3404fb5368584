import numpy as np
import pytest

from engine.tasks.grammar import GrammarConfig, draw_batches, init_params, loss_and_grads, train_grammar_model
from engine.tasks.grammar_step import GrammarStep, scatter_plan, step_rows
from engine.train import pack
from tests.engine.gradcheck import assert_close_grad, numerical_grad


def fused(config, seed=3, steps=3, batch_size=4, dtype=np.float64):
    """A fused step on a small run's batches, the parameters packed as Training packs them."""
    import dataclasses
    config = dataclasses.replace(config, batch_size=batch_size, dtype=np.dtype(dtype).name)
    rng = np.random.default_rng(seed)
    params = init_params(rng, config)
    data = draw_batches(rng, config, steps)
    flat, views = pack(params, dtype)
    return GrammarStep(data, dtype), data, flat, views


def unflatten(grad, views):
    out, start = {}, 0
    for n, v in views.items():
        out[n] = grad[start:start + v.size].reshape(v.shape)
        start += v.size
    return out


@pytest.mark.parametrize("config", [GrammarConfig(), GrammarConfig(n_heads=3, d_k=3, d_v=2)])
def test_fused_step_matches_the_plain_model_in_float64(config):
    step_fn, data, _, views = fused(config)
    for step in range(3):
        loss, grad = step_fn(views, step)
        ref_loss, ref = loss_and_grads(views, data.x(step), data.valid[step], data.target_words[step])
        assert loss == pytest.approx(ref_loss, rel=1e-12)
        for name, g in unflatten(grad, views).items():
            np.testing.assert_allclose(g, ref[name], rtol=1e-10, atol=1e-12, err_msg=name)


def test_fused_gradients_match_finite_differences():
    step_fn, _, _, views = fused(GrammarConfig(d_k=3, d_v=2), batch_size=2)
    _, grad = step_fn(views, 1)
    grads = {n: g.copy() for n, g in unflatten(grad, views).items()}
    for name, p in views.items():
        assert_close_grad(grads[name], numerical_grad(lambda: step_fn(views, 1)[0], p))


def test_padding_reads_the_zero_row():
    words = np.array([[[3, 0, -1]]])  # one step, one sentence of two words and a pad
    rows = step_rows(words, n_words=5, zero_row=8)
    assert rows.tolist() == [[[3, 0, 8], [5, 6, 8]]]


def test_scatter_plan_sums_each_rows_entries_like_add_at():
    rng = np.random.default_rng(0)
    S, N, R, F = 3, 10, 7, 4
    rows = rng.integers(0, R - 2, (S, 2, N))  # rows are read by no word
    order, starts = scatter_plan(rows, R)
    for s in range(S):
        grad = np.vstack((rng.normal(size=(N, F)), np.zeros((1, F))))  # (N + 1, F), zero row last
        expected = np.zeros((R, F))
        np.add.at(expected, rows[s], grad[:N])
        np.testing.assert_allclose(np.add.reduceat(grad[order[s]], starts[s], axis=0), expected, atol=1e-12)


def test_float64_training_trains_too():
    run = train_grammar_model(seed=0, steps=60, config=GrammarConfig(dtype="float64"))
    assert run.losses[-1] < run.losses[0] / 2
