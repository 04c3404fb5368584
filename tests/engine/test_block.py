"""The decoder block's pieces: forward values against direct formulas, every backward against
central differences (gradcheck.py)."""
import math

import numpy as np
import pytest

from engine import block
from engine.attention import attention_forward

from .gradcheck import assert_close_grad, numerical_grad


def _rng():
    return np.random.default_rng(7)


def _block_params(rng, d=6, f=10, h=2, k=3, v=3):
    return {
        "ln1_gain": 1 + 0.3 * rng.normal(size=d), "ln1_bias": 0.2 * rng.normal(size=d),
        "wq": rng.normal(size=(h, d, k)), "wk": rng.normal(size=(h, d, k)), "wv": rng.normal(size=(h, d, v)),
        "wo": rng.normal(size=(h * v, d)) / 2,
        "ln2_gain": 1 + 0.3 * rng.normal(size=d), "ln2_bias": 0.2 * rng.normal(size=d),
        "w1": rng.normal(size=(d, f)) / 2, "b1": 0.3 * rng.normal(size=f),
        "w2": rng.normal(size=(f, d)) / 2, "b2": 0.2 * rng.normal(size=d),
    }


def test_layernorm_rows_have_mean_zero_and_unit_variance():
    x = _rng().normal(3.0, 5.0, size=(2, 4, 8))
    out, _ = block.layernorm_forward(x, np.ones(8), np.zeros(8))
    assert np.allclose(out.mean(axis=-1), 0)
    assert np.allclose(out.var(axis=-1), 25 / (25 + block.LN_EPS), atol=1e-6)  # eps inside the sqrt
    g, b = np.arange(1.0, 9.0), np.linspace(-1, 1, 8)
    out2, _ = block.layernorm_forward(x, g, b)
    assert np.allclose(out2, out * g + b)
    # a constant row has variance 0: eps keeps it finite, and the row becomes the bias
    flat, _ = block.layernorm_forward(np.full((1, 8), 4.0), g, b)
    assert np.allclose(flat, b)


def test_layernorm_backward():
    rng = _rng()
    x, g, b = rng.normal(size=(2, 3, 5)), rng.normal(size=5), rng.normal(size=5)
    up = rng.normal(size=(2, 3, 5))
    out, cache = block.layernorm_forward(x, g, b)
    grads = block.layernorm_backward(up, cache)
    for name, a in (("x", x), ("gain", g), ("bias", b)):
        num = numerical_grad(lambda: float((block.layernorm_forward(x, g, b)[0] * up).sum()), a)
        assert_close_grad(grads[name], num)


def test_gelu_is_the_tanh_approximation():
    x = np.linspace(-4, 4, 17)
    y, cache = block.gelu_forward(x)
    exact = np.array([0.5 * v * (1 + math.erf(v / math.sqrt(2))) for v in x])
    assert np.abs(y - exact).max() < 1e-3  # close to the exact GELU, but not it
    assert np.abs(y - exact).max() > 1e-6
    num = numerical_grad(lambda: float(block.gelu_forward(x)[0].sum()), x)
    assert_close_grad(block.gelu_backward(np.ones_like(x), cache), num)


@pytest.mark.parametrize("activation", block.ACTIVATIONS)
def test_ffn_forward_and_backward(activation):
    rng = _rng()
    x = rng.normal(size=(2, 3, 4))
    w1, b1, w2, b2 = rng.normal(size=(4, 7)), rng.normal(size=7), rng.normal(size=(7, 4)), rng.normal(size=4)
    out, cache = block.ffn_forward(x, w1, b1, w2, b2, activation)
    h = x @ w1 + b1
    act = np.maximum(h, 0) if activation == "relu" else block.gelu_forward(h)[0]
    assert np.allclose(out, act @ w2 + b2)
    up = rng.normal(size=out.shape)
    grads = block.ffn_backward(up, cache)
    for name, a in (("x", x), ("w1", w1), ("b1", b1), ("w2", w2), ("b2", b2)):
        num = numerical_grad(lambda: float((block.ffn_forward(x, w1, b1, w2, b2, activation)[0] * up).sum()), a)
        assert_close_grad(grads[name], num)


def test_ffn_rejects_unknown_activation():
    with pytest.raises(ValueError, match="activation"):
        block.ffn_forward(np.zeros((1, 2)), np.zeros((2, 2)), np.zeros(2), np.zeros((2, 2)), np.zeros(2), "tanh")


def test_self_attention_is_attention_then_wo():
    rng = _rng()
    x = rng.normal(size=(5, 6))
    wq, wk, wv, wo = rng.normal(size=(2, 6, 3)), rng.normal(size=(2, 6, 3)), rng.normal(size=(2, 6, 4)), rng.normal(size=(8, 6))
    out, cache = block.self_attention_forward(x, wq, wk, wv, wo)
    heads, _ = attention_forward(x, wq, wk, wv, causal=True)
    assert np.allclose(out, heads @ wo)
    assert np.all(np.triu(cache.attn.weights[0], 1) == 0)  # causal by default
    up = rng.normal(size=out.shape)
    grads = block.self_attention_backward(up, cache)
    for name, a in (("x", x), ("wq", wq), ("wk", wk), ("wv", wv), ("wo", wo)):
        num = numerical_grad(lambda: float((block.self_attention_forward(x, wq, wk, wv, wo)[0] * up).sum()), a)
        assert_close_grad(grads[name], num)


def test_block_forward_is_pre_norm_with_residuals():
    rng = _rng()
    p = _block_params(rng)
    x = rng.normal(size=(2, 4, 6))
    out, cache = block.block_forward(x, p)
    n1, _ = block.layernorm_forward(x, p["ln1_gain"], p["ln1_bias"])
    a, _ = block.self_attention_forward(n1, p["wq"], p["wk"], p["wv"], p["wo"])
    mid = x + a
    n2, _ = block.layernorm_forward(mid, p["ln2_gain"], p["ln2_bias"])
    f, _ = block.ffn_forward(n2, p["w1"], p["b1"], p["w2"], p["b2"])
    assert np.allclose(out, mid + f)
    assert np.allclose(out, x + cache.attn_out + cache.ffn_out)  # the stream is the input plus what each sublayer added
    # causal: changing the last position leaves every earlier output alone
    x2 = x.copy()
    x2[:, -1] += 1.0
    out2, _ = block.block_forward(x2, p)
    assert np.allclose(out2[:, :-1], out[:, :-1]) and not np.allclose(out2[:, -1], out[:, -1])


@pytest.mark.parametrize("activation", block.ACTIVATIONS)
def test_block_backward(activation):
    rng = _rng()
    p = _block_params(rng)
    x = rng.normal(size=(2, 3, 6))
    out, cache = block.block_forward(x, p, activation)
    up = rng.normal(size=out.shape)
    grads = block.block_backward(up, cache)
    assert set(grads) == {"x", *block.BLOCK_PARAMS}

    def loss():
        return float((block.block_forward(x, p, activation)[0] * up).sum())

    assert_close_grad(grads["x"], numerical_grad(loss, x))
    for name in block.BLOCK_PARAMS:
        assert grads[name].shape == p[name].shape
        assert_close_grad(grads[name], numerical_grad(loss, p[name]))


def test_the_residual_path_carries_the_gradient_straight_through():
    # with every sublayer writing nothing (W_O and W2 zero), the block is the identity and so is its Jacobian
    rng = _rng()
    p = _block_params(rng)
    p["wo"][:] = 0
    p["w2"][:] = 0
    p["b2"][:] = 0
    x = rng.normal(size=(3, 6))
    out, cache = block.block_forward(x, p)
    assert np.allclose(out, x)
    up = rng.normal(size=x.shape)
    assert np.allclose(block.block_backward(up, cache)["x"], up)


def test_parameter_counts():
    # GPT-2 small (d 768, 12 heads of 64, d_ff 3072) has 7,087,872 numbers per block
    assert block.block_parameters(768, 3072, 12, 64) == 7_087_872
    assert block.rough_parameters(96, 12288) == 12 * 96 * 12288 ** 2
