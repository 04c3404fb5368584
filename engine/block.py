"""A pre-norm decoder block as forward/backward pairs of pure functions, built on attention.py.

Each ``op_forward(...)`` returns ``(out, cache)`` and each ``op_backward(dout, cache)`` returns
gradients, like attention.py. Shapes: B batch (optional), T positions, D model width (d_model),
F feed-forward width (d_ff), H heads, K query/key width, V value width.
"""
import math
from dataclasses import dataclass

import numpy as np

from .attention import _float_type, attention_backward, attention_forward

LN_EPS = 1e-5  # GPT-2's and PyTorch's default; added to the variance, inside the square root
_GELU_C = math.sqrt(2.0 / math.pi)


@dataclass(frozen=True)
class LayerNormCache:
    """The normalised input and 1 / std per row: all the backward pass needs, with the gain."""
    xhat: np.ndarray  # (..., D)
    rstd: np.ndarray  # (..., 1)
    gain: np.ndarray  # (D,)


def layernorm_forward(x, gain, bias, eps=LN_EPS):
    """Layer normalisation (Ba et al. 2016): each row to mean 0 and variance 1, then gain * row + bias."""
    x = np.asarray(x, dtype=np.float64)  # (..., D)
    mean = x.mean(axis=-1, keepdims=True)  # (..., 1)
    xc = x - mean  # (..., D)
    var = (xc * xc).mean(axis=-1, keepdims=True)  # (..., 1) the biased variance, as GPT-2 uses
    rstd = 1.0 / np.sqrt(var + eps)  # (..., 1) eps inside the square root
    xhat = xc * rstd  # (..., D)
    out = xhat * gain + bias  # (..., D)
    return out, LayerNormCache(xhat, rstd, np.asarray(gain, dtype=np.float64))


def layernorm_backward(dout, cache):
    """Gradients with respect to x, gain and bias. The mean and variance depend on every entry of
    the row, so dx subtracts the row's mean gradient and its projection on xhat."""
    dout = np.asarray(dout, dtype=np.float64)  # (..., D)
    xhat, rstd = cache.xhat, cache.rstd
    d = xhat.shape[-1]
    dxhat = dout * cache.gain  # (..., D)
    dx = rstd * (dxhat - dxhat.mean(axis=-1, keepdims=True)
                 - xhat * (dxhat * xhat).mean(axis=-1, keepdims=True))  # (..., D)
    return {
        "x": dx,
        "gain": (dout * xhat).reshape(-1, d).sum(axis=0),  # (D,)
        "bias": dout.reshape(-1, d).sum(axis=0),  # (D,)
    }


def gelu_forward(x):
    """GELU by the tanh approximation of Hendrycks & Gimpel (2016), the form GPT-2's code uses."""
    x = np.asarray(x, dtype=np.float64)  # (...)
    t = np.tanh(_GELU_C * (x + 0.044715 * (x * x * x)))  # (...) x ** 3 would call pow, several times slower
    return 0.5 * x * (1.0 + t), (x, t)


def gelu_backward(dout, cache):
    """d/dx of 0.5 x (1 + tanh(u)), u = c (x + 0.044715 x^3)."""
    x, t = cache
    du = _GELU_C * (1.0 + 3 * 0.044715 * x ** 2)  # (...)
    return dout * (0.5 * (1.0 + t) + 0.5 * x * (1.0 - t * t) * du)  # (...)


ACTIVATIONS = ("gelu", "relu")


@dataclass(frozen=True)
class FFNCache:
    """The input, the hidden pre-activations and activations, and the weights backward reuses."""
    x: np.ndarray  # (..., D)
    h: np.ndarray  # (..., F) before the nonlinearity
    a: np.ndarray  # (..., F) after it
    act_cache: object
    activation: str
    w1: np.ndarray  # (D, F)
    w2: np.ndarray  # (F, D)


def ffn_forward(x, w1, b1, w2, b2, activation="gelu"):
    """The position-wise feed-forward layer: act(x W1 + b1) W2 + b2, the same for every position.

    ``activation`` is "gelu" (tanh approximation, GPT-2 and GPT-3) or "relu" (the original transformer).
    """
    if activation not in ACTIVATIONS:
        raise ValueError(f"activation must be one of {', '.join(ACTIVATIONS)}")
    x = np.asarray(x, dtype=np.float64)  # (..., D)
    h = x @ w1 + b1  # (..., F)
    if activation == "gelu":
        a, act_cache = gelu_forward(h)  # (..., F)
    else:
        a, act_cache = np.maximum(h, 0.0), None  # (..., F)
    out = a @ w2 + b2  # (..., D)
    return out, FFNCache(x, h, a, act_cache, activation, np.asarray(w1), np.asarray(w2))


def ffn_backward(dout, cache):
    """Gradients with respect to x, w1, b1, w2, b2."""
    dout = np.asarray(dout, dtype=np.float64)  # (..., D)
    d, f = cache.w1.shape
    da = dout @ cache.w2.T  # (..., F)
    if cache.activation == "gelu":
        dh = gelu_backward(da, cache.act_cache)  # (..., F)
    else:
        dh = da * (cache.h > 0)  # (..., F)
    return {
        "x": dh @ cache.w1.T,  # (..., D)
        "w1": cache.x.reshape(-1, d).T @ dh.reshape(-1, f),  # (D, F)
        "b1": dh.reshape(-1, f).sum(axis=0),  # (F,)
        "w2": cache.a.reshape(-1, f).T @ dout.reshape(-1, d),  # (F, D)
        "b2": dout.reshape(-1, d).sum(axis=0),  # (D,)
    }


@dataclass(frozen=True)
class SelfAttentionCache:
    """attention.py's cache, the heads' concatenated outputs and the output matrix."""
    attn: object          # AttentionCache
    heads: np.ndarray     # (..., T, H*V) before W_O
    wo: np.ndarray        # (H*V, D)


def self_attention_forward(x, wq, wk, wv, wo, causal=True):
    """Multi-head causal self-attention with the output matrix W_O (chapter 7): the heads'
    outputs, side by side, mapped back to the model width. No biases, for brevity. float32 inputs
    stay float32; anything else is computed in float64."""
    heads, attn = attention_forward(x, wq, wk, wv, causal=causal)  # (..., T, H*V)
    wo = np.asarray(wo, dtype=_float_type(heads, wo))  # (H*V, D)
    out = heads @ wo  # (..., T, D)
    return out, SelfAttentionCache(attn, heads, wo)


def self_attention_backward(dout, cache):
    """Gradients with respect to x, wq, wk, wv, wo."""
    dout = np.asarray(dout, dtype=cache.wo.dtype)  # (..., T, D)
    hv, d = cache.wo.shape
    dheads = dout @ cache.wo.T  # (..., T, H*V)
    grads = attention_backward(dheads, cache.attn)
    grads["wo"] = cache.heads.reshape(-1, hv).T @ dout.reshape(-1, d)  # (H*V, D)
    return grads


BLOCK_PARAMS = ("ln1_gain", "ln1_bias", "wq", "wk", "wv", "wo", "ln2_gain", "ln2_bias", "w1", "b1", "w2", "b2")


@dataclass(frozen=True)
class BlockCache:
    """Every sublayer's cache, and what each sublayer added to the stream (what figures draw)."""
    ln1: LayerNormCache
    attn: SelfAttentionCache
    ln2: LayerNormCache
    ffn: FFNCache
    attn_out: np.ndarray  # (..., T, D) what attention added
    mid: np.ndarray       # (..., T, D) the stream between the two sublayers: x + attn_out
    ffn_out: np.ndarray   # (..., T, D) what the feed-forward layer added


def block_forward(x, p, activation="gelu", causal=True):
    """A pre-norm decoder block, as in GPT-2: mid = x + attn(LN1(x)); out = mid + ffn(LN2(mid)).

    ``p`` maps the names in BLOCK_PARAMS to arrays: LN gains and biases (D,), wq, wk (H, D, K),
    wv (H, D, V), wo (H*V, D), w1 (D, F), b1 (F,), w2 (F, D), b2 (D,). Each sublayer reads a
    normalised copy of the stream and adds its output to the stream itself.
    """
    x = np.asarray(x, dtype=np.float64)  # (..., T, D)
    n1, ln1 = layernorm_forward(x, p["ln1_gain"], p["ln1_bias"])  # (..., T, D)
    attn_out, attn = self_attention_forward(n1, p["wq"], p["wk"], p["wv"], p["wo"], causal=causal)  # (..., T, D)
    mid = x + attn_out  # (..., T, D) the residual addition
    n2, ln2 = layernorm_forward(mid, p["ln2_gain"], p["ln2_bias"])  # (..., T, D)
    ffn_out, ffn = ffn_forward(n2, p["w1"], p["b1"], p["w2"], p["b2"], activation)  # (..., T, D)
    out = mid + ffn_out  # (..., T, D)
    return out, BlockCache(ln1, attn, ln2, ffn, attn_out, mid, ffn_out)


def block_backward(dout, cache):
    """Gradients with respect to x and every entry of BLOCK_PARAMS. The gradient reaches x by
    two roads through each residual addition: straight through, and through the sublayer."""
    dout = np.asarray(dout, dtype=np.float64)  # (..., T, D)
    g_ffn = ffn_backward(dout, cache.ffn)
    g_ln2 = layernorm_backward(g_ffn["x"], cache.ln2)
    dmid = dout + g_ln2["x"]  # (..., T, D) the residual path plus the sublayer's
    g_attn = self_attention_backward(dmid, cache.attn)
    g_ln1 = layernorm_backward(g_attn["x"], cache.ln1)
    return {
        "x": dmid + g_ln1["x"],  # (..., T, D)
        "ln1_gain": g_ln1["gain"], "ln1_bias": g_ln1["bias"],
        "wq": g_attn["wq"], "wk": g_attn["wk"], "wv": g_attn["wv"], "wo": g_attn["wo"],
        "ln2_gain": g_ln2["gain"], "ln2_bias": g_ln2["bias"],
        "w1": g_ffn["w1"], "b1": g_ffn["b1"], "w2": g_ffn["w2"], "b2": g_ffn["b2"],
    }


def block_parameters(d_model, d_ff, heads, d_head):
    """How many numbers one block holds (GPT-style: biases on every linear map, two layer norms)."""
    attention = 3 * (d_model * heads * d_head + heads * d_head) + heads * d_head * d_model + d_model
    ffn = d_model * d_ff + d_ff + d_ff * d_model + d_model
    return attention + ffn + 4 * d_model


def rough_parameters(layers, d_model):
    """The usual estimate 12 * layers * d_model^2: 4 d^2 for Q, K, V and O, 8 d^2 for a
    feed-forward layer four times as wide, biases and norms left out."""
    return 12 * layers * d_model ** 2
