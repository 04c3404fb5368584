import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from engine.attention import (
    attention_backward,
    attention_forward,
    causal_mask,
    sinusoidal_positions,
    softmax_backward,
    softmax_forward,
)
from tests.engine.gradcheck import assert_close_grad, numerical_grad


def make_inputs(rng, batch, T, D, H, K, V):
    shape = (T, D) if batch is None else (batch, T, D)
    return {
        "x": rng.normal(size=shape),
        "wq": rng.normal(size=(H, D, K)),
        "wk": rng.normal(size=(H, D, K)),
        "wv": rng.normal(size=(H, D, V)),
    }


def reference_attention(x, wq, wk, wv, causal=False):
    """Loop-over-heads attention written plainly, to check the vectorised version."""
    T = x.shape[-2]
    outs, weights = [], []
    for h in range(wq.shape[0]):
        q, k, v = x @ wq[h], x @ wk[h], x @ wv[h]
        s = q @ np.swapaxes(k, -1, -2) / np.sqrt(wq.shape[2])
        if causal:
            s = np.where(np.tril(np.ones((T, T))) > 0, s, -np.inf)
        e = np.exp(s - s.max(axis=-1, keepdims=True))
        a = e / e.sum(axis=-1, keepdims=True)
        weights.append(a)
        outs.append(a @ v)
    return np.concatenate(outs, axis=-1), np.stack(weights, axis=-3)


# ---- softmax ----------------------------------------------------------------------

def test_softmax_rows_sum_to_one_and_survive_huge_scores():
    x = np.array([[1000.0, 1001.0, 1002.0], [-1000.0, 0.0, 1000.0], [0.0, 0.0, 0.0]])
    y, _ = softmax_forward(x)
    assert np.all(np.isfinite(y))
    np.testing.assert_allclose(y.sum(axis=-1), 1.0)
    np.testing.assert_allclose(y[0], softmax_forward(x[0] - 1000.0)[0])
    np.testing.assert_allclose(y[2], [1 / 3] * 3)


def test_softmax_known_values():
    y, _ = softmax_forward(np.array([2.0, 1.0, 0.0]))
    np.testing.assert_allclose(y, [0.6652409558, 0.2447284711, 0.0900305732], rtol=1e-9)


@pytest.mark.parametrize("shape", [(5,), (3, 4), (2, 3, 4)])
def test_softmax_backward_matches_finite_differences(shape):
    rng = np.random.default_rng(1)
    x = rng.normal(size=shape)
    dy = rng.normal(size=shape)
    y, cache = softmax_forward(x)
    dx = softmax_backward(dy, cache)
    num = numerical_grad(lambda: float((softmax_forward(x)[0] * dy).sum()), x)
    assert_close_grad(dx, num)


# ---- attention forward -------------------------------------------------------------

@pytest.mark.parametrize("causal", [False, True])
@pytest.mark.parametrize("batch", [None, 3])
def test_attention_matches_per_head_reference(causal, batch):
    rng = np.random.default_rng(2)
    p = make_inputs(rng, batch, T=5, D=4, H=3, K=2, V=3)
    out, cache = attention_forward(**p, causal=causal)
    ref_out, ref_w = reference_attention(**p, causal=causal)
    np.testing.assert_allclose(out, ref_out, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(cache.weights, ref_w, rtol=1e-12, atol=1e-12)


def test_heads_are_concatenated_in_head_order():
    rng = np.random.default_rng(3)
    p = make_inputs(rng, None, T=4, D=3, H=2, K=2, V=2)
    out, _ = attention_forward(**p)
    for h in range(2):
        one, _ = attention_forward(p["x"], p["wq"][h:h + 1], p["wk"][h:h + 1], p["wv"][h:h + 1])
        np.testing.assert_allclose(out[:, 2 * h:2 * h + 2], one)


def test_causal_weights_on_later_positions_are_exactly_zero():
    rng = np.random.default_rng(4)
    p = make_inputs(rng, 2, T=6, D=3, H=2, K=4, V=2)
    _, cache = attention_forward(**p, causal=True)
    later = ~causal_mask(6)
    assert np.all(cache.weights[..., later] == 0.0)
    np.testing.assert_allclose(cache.weights.sum(axis=-1), 1.0)


def test_causal_rows_do_not_change_when_words_are_appended():
    rng = np.random.default_rng(5)
    p = make_inputs(rng, None, T=7, D=3, H=2, K=2, V=2)
    full, _ = attention_forward(**p, causal=True)
    short, _ = attention_forward(p["x"][:4], p["wq"], p["wk"], p["wv"], causal=True)
    np.testing.assert_allclose(full[:4], short, rtol=1e-12)


def test_scores_are_divided_by_sqrt_dk():
    x = np.eye(2)
    wq = np.zeros((1, 2, 4))
    wq[0, 0, :] = 1.0  # query of word 0 is (1, 1, 1, 1)
    wk = np.zeros((1, 2, 4))
    wk[0, 0, :] = 1.0  # key of word 0 is (1, 1, 1, 1), key of word 1 is 0
    wv = np.ones((1, 2, 1))
    _, cache = attention_forward(x, wq, wk, wv)
    # raw score 4, scaled by 1/sqrt(4) -> 2 against 0
    np.testing.assert_allclose(cache.weights[0, 0], [np.exp(2) / (np.exp(2) + 1), 1 / (np.exp(2) + 1)])


def test_padding_mask_hides_keys_and_matches_the_unpadded_sentence():
    rng = np.random.default_rng(6)
    p = make_inputs(rng, 2, T=5, D=3, H=2, K=2, V=2)
    valid = np.array([[1, 1, 1, 0, 0], [1, 1, 1, 1, 1]], dtype=bool)
    out, cache = attention_forward(**p, mask=valid[:, None, :])
    assert np.all(cache.weights[0, :, :, 3:] == 0.0)
    alone, _ = attention_forward(p["x"][0, :3], p["wq"], p["wk"], p["wv"])
    np.testing.assert_allclose(out[0, :3], alone, rtol=1e-12)


def test_float64_by_default_and_one_hot_integers_accepted():
    x = np.eye(3, dtype=np.int64)
    w = np.ones((1, 3, 2), dtype=np.int64)
    out, cache = attention_forward(x, w, w, w)
    assert out.dtype == np.float64 and cache.weights.dtype == np.float64


# ---- attention backward ------------------------------------------------------------

@pytest.mark.parametrize("H", [1, 2, 4])
@pytest.mark.parametrize("causal", [False, True])
@pytest.mark.parametrize("batch", [None, 2])
def test_attention_backward_matches_finite_differences(H, causal, batch):
    rng = np.random.default_rng(10 + H)
    p = make_inputs(rng, batch, T=4, D=3, H=H, K=2, V=3)
    out, cache = attention_forward(**p, causal=causal)
    dout = rng.normal(size=out.shape)
    grads = attention_backward(dout, cache)
    assert set(grads) == {"x", "wq", "wk", "wv"}

    def loss():
        return float((attention_forward(**p, causal=causal)[0] * dout).sum())

    for name in ("x", "wq", "wk", "wv"):
        assert grads[name].shape == p[name].shape
        assert_close_grad(grads[name], numerical_grad(loss, p[name]))


def test_attention_backward_with_padding_mask_matches_finite_differences():
    rng = np.random.default_rng(20)
    p = make_inputs(rng, 2, T=4, D=3, H=2, K=2, V=2)
    mask = np.array([[1, 1, 0, 0], [1, 1, 1, 1]], dtype=bool)[:, None, :]
    out, cache = attention_forward(**p, causal=True, mask=mask)
    dout = rng.normal(size=out.shape)
    grads = attention_backward(dout, cache)
    for name in ("x", "wq", "wk", "wv"):
        num = numerical_grad(lambda: float((attention_forward(**p, causal=True, mask=mask)[0] * dout).sum()), p[name])
        assert_close_grad(grads[name], num)


@settings(max_examples=40, deadline=None)
@given(
    batch=st.one_of(st.none(), st.integers(1, 3)),
    T=st.integers(1, 6),
    D=st.integers(1, 5),
    H=st.integers(1, 4),
    K=st.integers(1, 5),
    V=st.integers(1, 4),
    causal=st.booleans(),
    seed=st.integers(0, 2**32 - 1),
)
def test_attention_any_shape(batch, T, D, H, K, V, causal, seed):
    """Shapes, row sums and a directional-derivative gradient check for arbitrary sizes."""
    rng = np.random.default_rng(seed)
    p = make_inputs(rng, batch, T, D, H, K, V)
    lead = () if batch is None else (batch,)
    out, cache = attention_forward(**p, causal=causal)
    assert out.shape == lead + (T, H * V)
    assert cache.weights.shape == lead + (H, T, T)
    np.testing.assert_allclose(cache.weights.sum(axis=-1), 1.0)
    if causal:
        assert np.all(cache.weights[..., ~causal_mask(T)] == 0.0)
    dout = rng.normal(size=out.shape)
    grads = attention_backward(dout, cache)
    eps = 1e-6
    for name in ("x", "wq", "wk", "wv"):
        assert grads[name].shape == p[name].shape
        u = rng.normal(size=p[name].shape)
        plus = dict(p, **{name: p[name] + eps * u})
        minus = dict(p, **{name: p[name] - eps * u})
        fd = ((attention_forward(**plus, causal=causal)[0] - attention_forward(**minus, causal=causal)[0]) * dout).sum() / (2 * eps)
        an = (grads[name] * u).sum()
        assert abs(fd - an) <= 1e-5 * max(1.0, abs(fd))


# ---- positions ---------------------------------------------------------------------

def test_sinusoidal_positions_dot_products():
    pe = sinusoidal_positions(32, 16)
    assert pe.shape == (32, 16)
    dots = pe @ pe.T
    np.testing.assert_allclose(np.diag(dots), 8.0)
    assert 7.4 < dots[10, 11] < 7.6 and 7.4 < dots[10, 9] < 7.6
    assert dots[10, 20] < dots[10, 11]
    # a fixed shift changes the dot product the same way everywhere
    np.testing.assert_allclose(dots[3, 6], dots[20, 23])


def test_sinusoidal_positions_rejects_odd_width():
    with pytest.raises(ValueError):
        sinusoidal_positions(4, 5)


# ---- cross-attention, padding masks and the key-value cache --------------------------

from engine.attention import (  # noqa: E402
    cross_attention_backward,
    cross_attention_forward,
    decode_step,
    padding_mask,
)


def _cross_inputs(rng, batch, Tq=3, Tk=5, D=4, E=3, H=2, K=2, V=3):
    lead = () if batch is None else (batch,)
    return {
        "xq": rng.normal(size=lead + (Tq, D)),
        "xkv": rng.normal(size=lead + (Tk, E)),
        "wq": rng.normal(size=(H, D, K)),
        "wk": rng.normal(size=(H, E, K)),
        "wv": rng.normal(size=(H, E, V)),
    }


def test_cross_attention_on_one_sequence_is_self_attention():
    rng = np.random.default_rng(5)
    p = make_inputs(rng, 2, T=4, D=3, H=2, K=2, V=3)
    out, cache = cross_attention_forward(p["x"], p["x"], p["wq"], p["wk"], p["wv"])
    ref, ref_cache = attention_forward(**p)
    np.testing.assert_allclose(out, ref, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(cache.weights, ref_cache.weights, rtol=1e-12, atol=1e-12)


def test_cross_attention_weights_are_rectangular_rows_of_softmax():
    rng = np.random.default_rng(6)
    p = _cross_inputs(rng, None)
    out, cache = cross_attention_forward(**p)
    assert out.shape == (3, 2 * 3) and cache.weights.shape == (2, 3, 5)
    np.testing.assert_allclose(cache.weights.sum(axis=-1), 1.0)
    h = 1
    s = (p["xq"] @ p["wq"][h]) @ (p["xkv"] @ p["wk"][h]).T / np.sqrt(2)
    w = np.exp(s - s.max(axis=1, keepdims=True))
    w /= w.sum(axis=1, keepdims=True)
    np.testing.assert_allclose(cache.weights[h], w, rtol=1e-12)
    np.testing.assert_allclose(out[:, 3:], w @ (p["xkv"] @ p["wv"][h]), rtol=1e-12)


@pytest.mark.parametrize("batch", [None, 2])
@pytest.mark.parametrize("masked", [False, True])
def test_cross_attention_backward_matches_finite_differences(batch, masked):
    rng = np.random.default_rng(7)
    p = _cross_inputs(rng, batch)
    mask = padding_mask([5, 3], 5) if masked and batch == 2 else (None if not masked else np.tril(np.ones((3, 5), bool)))
    dout = rng.normal(size=cross_attention_forward(**p)[0].shape)
    _, cache = cross_attention_forward(**p, mask=mask)
    grads = cross_attention_backward(dout, cache)
    for name in ("xq", "xkv", "wq", "wk", "wv"):
        num = numerical_grad(lambda: float((cross_attention_forward(**p, mask=mask)[0] * dout).sum()), p[name])
        assert_close_grad(grads[name], num)


def test_padding_mask_makes_a_padded_batch_agree_with_each_sequence_alone():
    rng = np.random.default_rng(8)
    p = make_inputs(rng, 2, T=5, D=3, H=2, K=2, V=2)
    lengths = [5, 3]
    m = padding_mask(lengths, 5)
    assert m.shape == (2, 1, 5) and m[1, 0].tolist() == [True, True, True, False, False]
    out, cache = attention_forward(**p, mask=m)
    alone, _ = attention_forward(p["x"][1, :3], p["wq"], p["wk"], p["wv"])
    np.testing.assert_allclose(out[1, :3], alone, rtol=1e-12, atol=1e-12)
    assert np.all(cache.weights[1, :, :, 3:] == 0)  # no query reads padding
    unmasked, _ = attention_forward(**p)
    assert not np.allclose(unmasked[1, :3], alone)  # without the mask the padding leaks in


def test_padding_mask_gradients_match_finite_differences():
    rng = np.random.default_rng(9)
    p = make_inputs(rng, 2, T=4, D=3, H=2, K=2, V=2)
    m = padding_mask([4, 2], 4)
    dout = rng.normal(size=(2, 4, 4))
    _, cache = attention_forward(**p, mask=m)
    grads = attention_backward(dout, cache)
    for name in ("x", "wq", "wk", "wv"):
        num = numerical_grad(lambda: float((attention_forward(**p, mask=m)[0] * dout).sum()), p[name])
        assert_close_grad(grads[name], num)


def test_decode_step_with_a_kv_cache_equals_the_causal_forward():
    rng = np.random.default_rng(10)
    p = make_inputs(rng, None, T=6, D=4, H=2, K=3, V=2)
    full, cache = attention_forward(**p, causal=True)
    kv = None
    for t in range(6):
        out, w, kv = decode_step(p["x"][t], p["wq"], p["wk"], p["wv"], kv)
        assert kv.k.shape == (2, t + 1, 3) and w.shape == (2, t + 1)
        np.testing.assert_allclose(out, full[t], rtol=1e-12, atol=1e-12)
        np.testing.assert_allclose(w, cache.weights[:, t, :t + 1], rtol=1e-12, atol=1e-12)
