"""Scaled dot-product attention as forward/backward pairs of pure functions.

Each ``op_forward(...)`` returns ``(out, cache)`` and each ``op_backward(dout, cache)``
returns gradients, so training code chains them by hand, without autograd. Shapes use
B batch, T positions, H heads, D input width, K query/key width, V value width.
"""
import math
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class SoftmaxCache:
    """The output alone determines the softmax Jacobian, so it is all backward needs."""
    y: np.ndarray


def _row_max(x):
    """Max over the last axis, keepdims. numpy reduces a short last axis one row at a time;
    reducing the leading axis of a transposed copy is several times faster."""
    n = x.shape[-1]
    return np.ascontiguousarray(x.reshape(-1, n).T).max(axis=0).reshape(x.shape[:-1] + (1,))  # (..., 1)


def _row_sum(x):
    """Sum over the last axis, keepdims, as one matrix product (faster than .sum for short rows)."""
    n = x.shape[-1]
    return (x.reshape(-1, n) @ np.ones((n, 1), x.dtype)).reshape(x.shape[:-1] + (1,))  # (..., 1)


def softmax_forward(x):
    """Softmax along the last axis; subtracting the row max keeps exp from overflowing."""
    e = x - _row_max(x)  # (..., n) every row's largest entry is now 0
    np.exp(e, out=e)
    e /= _row_sum(e)  # (..., n)
    return e, SoftmaxCache(e)


def softmax_backward(dy, cache):
    """dx = y * (dy - <dy, y>): the Jacobian-vector product without forming the Jacobian."""
    y = cache.y
    return y * (dy - _row_sum(dy * y))  # (..., n)


def causal_mask(n):
    """True where a query may read a key: itself and the positions before it."""
    return np.tril(np.ones((n, n), dtype=bool))  # (T, T)


def sinusoidal_positions(n_positions, width, base=10000.0):
    """Fixed sine/cosine position codes (Vaswani et al. 2017), sin and cos interleaved.

    Each (sin, cos) pair has unit length, so a position's code dotted with itself is width / 2.
    """
    if width % 2:
        raise ValueError(f"width must be even, got {width}")
    p = np.arange(n_positions, dtype=np.float64)[:, None]  # (P, 1)
    freq = base ** (-np.arange(0, width, 2, dtype=np.float64) / width)  # (width/2,)
    angle = p * freq  # (P, width/2)
    pe = np.empty((n_positions, width))  # (P, width)
    pe[:, 0::2] = np.sin(angle)
    pe[:, 1::2] = np.cos(angle)
    return pe


@dataclass(frozen=True)
class AttentionCache:
    """Everything attention_backward needs; ``weights`` is also what figures draw."""
    x2: np.ndarray       # (B*T, D) the input rows
    w_all: np.ndarray    # (D, H*(2K+V)) wq / sqrt(K), wk, wv side by side per head
    q: np.ndarray        # (B, H, T, K) queries already divided by sqrt(K)
    k: np.ndarray        # (B, H, T, K)
    v: np.ndarray        # (B, H, T, V)
    weights: np.ndarray  # (..., H, T, T) attention weights, rows sum to 1
    scale: float         # 1 / sqrt(K)
    x_shape: tuple       # shape of x as given: (T, D) or (B, T, D)


def _float_type(*arrays):
    """Float inputs keep their precision; anything else (one-hot ints, lists) becomes float64."""
    t = np.result_type(*arrays)
    return t if np.issubdtype(t, np.floating) else np.dtype(np.float64)


def attention_forward(x, wq, wk, wv, causal=False, mask=None):
    """Multi-head scaled dot-product attention; heads concatenated in head order.

    x is (T, D) or (B, T, D); wq, wk are (H, D, K), wv is (H, D, V). ``mask`` (optional,
    True = may attend; no head axis) broadcasts against (T, T) or (B, T, T), e.g. (B, 1, T)
    to hide padding keys, and combines with ``causal``; every query must keep at least one
    key. Returns out (..., T, H*V) and an AttentionCache.
    """
    dt = _float_type(x, wq, wk, wv)
    x, wq, wk, wv = (np.asarray(a, dtype=dt) for a in (x, wq, wk, wv))
    x_shape = x.shape
    xb = x.reshape((-1,) + x.shape[-2:])  # (B, T, D)
    B, T, D = xb.shape
    H, _, K = wq.shape
    V = wv.shape[2]
    C = 2 * K + V
    scale = 1.0 / math.sqrt(K)  # a Python float, so float32 inputs stay float32
    # Dividing the small query matrix by sqrt(K) divides every score by sqrt(K), at a fraction of the cost.
    w_all = np.concatenate((wq * scale, wk, wv), axis=2).transpose(1, 0, 2).reshape(D, H * C)  # (D, H*C)
    x2 = xb.reshape(B * T, D)  # (B*T, D)
    qkv = (x2 @ w_all).reshape(B, T, H, C).transpose(0, 2, 1, 3)  # (B, H, T, C)
    q = qkv[..., :K]  # (B, H, T, K)
    k = qkv[..., K:2 * K]  # (B, H, T, K)
    v = qkv[..., 2 * K:]  # (B, H, T, V)
    scores = q @ k.swapaxes(-1, -2)  # (B, H, T, T) already scaled
    allowed = None
    if causal:
        allowed = causal_mask(T)  # (T, T)
    if mask is not None:
        m = np.asarray(mask, dtype=bool)
        m = m.reshape((-1,) + m.shape[-2:])[:, None] if m.ndim >= 3 else m  # (B|1, 1, T, T) or (T, T)
        allowed = m if allowed is None else allowed & m
    if allowed is not None:
        scores += np.where(allowed, 0.0, -np.inf).astype(dt)  # (B, H, T, T); the mask is small, so build it small and add
    weights, _ = softmax_forward(scores)  # (B, H, T, T)
    out = np.empty((B, T, H, V), dt)  # (B, T, H, V) heads side by side, written in place below
    np.matmul(weights, v, out=out.transpose(0, 2, 1, 3))
    out = out.reshape(x_shape[:-1] + (H * V,))  # (..., T, H*V)
    cache = AttentionCache(x2, w_all, q, k, v, weights.reshape(x_shape[:-2] + (H, T, T)), scale, x_shape)
    return out, cache


def attention_backward(dout, cache, x_grad=True):
    """Gradients of a scalar loss with respect to x, wq, wk, wv, given dLoss/dout.

    With ``x_grad=False`` the "x" entry is left out: when x is data, not a parameter,
    that matrix product is wasted work.
    """
    q, k, v = cache.q, cache.k, cache.v
    B, H, T, K = q.shape
    V = v.shape[3]
    D = cache.x2.shape[1]
    w = cache.weights.reshape(B, H, T, T)  # (B, H, T, T)
    dout_h = np.asarray(dout, dtype=q.dtype).reshape(B, T, H, V).transpose(0, 2, 1, 3)  # (B, H, T, V)
    C = 2 * K + V
    dqkv = np.empty((B, T, H, C), q.dtype)  # (B, T, H, C) laid out like x @ w_all; filled in place below
    dqkv_h = dqkv.transpose(0, 2, 1, 3)  # (B, H, T, C) view
    np.matmul(w.swapaxes(-1, -2), dout_h, out=dqkv_h[..., 2 * K:])  # dv (B, H, T, V)
    dscores = softmax_backward(dout_h @ v.swapaxes(-1, -2), SoftmaxCache(w))  # (B, H, T, T); masked entries are 0
    np.matmul(dscores, k, out=dqkv_h[..., :K])  # dq (B, H, T, K)
    np.matmul(dscores.swapaxes(-1, -2), q, out=dqkv_h[..., K:2 * K])  # dk (B, H, T, K)
    dqkv = dqkv.reshape(B * T, H * C)  # (B*T, H*C)
    dw_all = (cache.x2.T @ dqkv).reshape(D, H, C).transpose(1, 0, 2)  # (H, D, C)
    grads = {
        "wq": dw_all[..., :K] * cache.scale,  # (H, D, K) through the scaled query matrix
        "wk": dw_all[..., K:2 * K],  # (H, D, K)
        "wv": dw_all[..., 2 * K:],  # (H, D, V)
    }
    if x_grad:
        grads["x"] = (dqkv @ cache.w_all.T).reshape(cache.x_shape)  # (..., T, D)
    return grads


def padding_mask(lengths, n):
    """True where a key is a real word: (B, 1, T) for attention_forward's ``mask``, hiding each
    sequence's padding keys (lengths[b] real words, then padding up to n)."""
    lengths = np.asarray(lengths)  # (B,)
    return (np.arange(n)[None, :] < lengths[:, None])[:, None, :]  # (B, 1, T)


@dataclass(frozen=True)
class CrossCache:
    """Everything cross_attention_backward needs; ``weights`` is (..., H, Tq, Tk)."""
    xq: np.ndarray       # (B, Tq, D) the rows that ask
    xkv: np.ndarray      # (B, Tk, E) the rows that are read
    wq: np.ndarray       # (H, D, K)
    wk: np.ndarray       # (H, E, K)
    wv: np.ndarray       # (H, E, V)
    q: np.ndarray        # (B, H, Tq, K) already divided by sqrt(K)
    k: np.ndarray        # (B, H, Tk, K)
    v: np.ndarray        # (B, H, Tk, V)
    weights: np.ndarray  # (..., H, Tq, Tk) rows sum to 1
    scale: float         # 1 / sqrt(K)
    xq_shape: tuple      # (Tq, D) or (B, Tq, D) as given
    xkv_shape: tuple     # (Tk, E) or (B, Tk, E) as given


def cross_attention_forward(xq, xkv, wq, wk, wv, mask=None):
    """Attention whose queries come from one sequence and keys and values from another, as the
    original transformer's decoder reads its encoder's output; heads concatenated in head order.

    xq is (Tq, D) or (B, Tq, D); xkv is (Tk, E) or (B, Tk, E); wq is (H, D, K), wk (H, E, K),
    wv (H, E, V). ``mask`` (True = may attend) broadcasts against (Tq, Tk) or (B, Tq, Tk), e.g.
    (B, 1, Tk) to hide padding in the read sequence. Returns out (..., Tq, H*V) and a CrossCache.
    """
    dt = _float_type(xq, xkv, wq, wk, wv)
    xq, xkv, wq, wk, wv = (np.asarray(a, dtype=dt) for a in (xq, xkv, wq, wk, wv))
    xq_shape, xkv_shape = xq.shape, xkv.shape
    a = xq.reshape((-1,) + xq.shape[-2:])  # (B, Tq, D)
    b = xkv.reshape((-1,) + xkv.shape[-2:])  # (B, Tk, E)
    K = wq.shape[2]
    scale = 1.0 / math.sqrt(K)
    q = np.einsum("btd,hdk->bhtk", a, wq) * scale  # (B, H, Tq, K)
    k = np.einsum("bte,hek->bhtk", b, wk)  # (B, H, Tk, K)
    v = np.einsum("bte,hev->bhtv", b, wv)  # (B, H, Tk, V)
    scores = q @ k.swapaxes(-1, -2)  # (B, H, Tq, Tk) already scaled
    if mask is not None:
        m = np.asarray(mask, dtype=bool)
        m = m.reshape((-1,) + m.shape[-2:])[:, None] if m.ndim >= 3 else m  # (B|1, 1, Tq|1, Tk) or (Tq, Tk)
        scores = scores + np.where(m, 0.0, -np.inf).astype(dt)  # (B, H, Tq, Tk)
    weights, _ = softmax_forward(scores)  # (B, H, Tq, Tk)
    out = (weights @ v).transpose(0, 2, 1, 3)  # (B, Tq, H, V)
    out = out.reshape(xq_shape[:-1] + (-1,))  # (..., Tq, H*V)
    Tq, Tk = q.shape[2], k.shape[2]
    cache = CrossCache(a, b, wq, wk, wv, q, k, v, weights.reshape(xq_shape[:-2] + (-1, Tq, Tk)), scale,
                       xq_shape, xkv_shape)
    return out, cache


def cross_attention_backward(dout, cache):
    """Gradients of a scalar loss with respect to xq, xkv, wq, wk, wv, given dLoss/dout."""
    q, k, v = cache.q, cache.k, cache.v
    B, H, Tq, K = q.shape
    V = v.shape[3]
    w = cache.weights.reshape(B, H, Tq, k.shape[2])  # (B, H, Tq, Tk)
    dout_h = np.asarray(dout, dtype=q.dtype).reshape(B, Tq, H, V).transpose(0, 2, 1, 3)  # (B, H, Tq, V)
    dv = w.swapaxes(-1, -2) @ dout_h  # (B, H, Tk, V)
    dscores = softmax_backward(dout_h @ v.swapaxes(-1, -2), SoftmaxCache(w))  # (B, H, Tq, Tk); masked entries are 0
    dq = (dscores @ k) * cache.scale  # (B, H, Tq, K) through the division by sqrt(K)
    dk = dscores.swapaxes(-1, -2) @ q  # (B, H, Tk, K); q already holds the scale
    return {
        "xq": np.einsum("bhtk,hdk->btd", dq, cache.wq).reshape(cache.xq_shape),  # (..., Tq, D)
        "xkv": (np.einsum("bhtk,hek->bte", dk, cache.wk)
                + np.einsum("bhtv,hev->bte", dv, cache.wv)).reshape(cache.xkv_shape),  # (..., Tk, E)
        "wq": np.einsum("btd,bhtk->hdk", cache.xq, dq),  # (H, D, K)
        "wk": np.einsum("bte,bhtk->hek", cache.xkv, dk),  # (H, E, K)
        "wv": np.einsum("bte,bhtv->hev", cache.xkv, dv),  # (H, E, V)
    }


@dataclass(frozen=True)
class KVCache:
    """The keys and values of every word written so far: a causal model never changes them."""
    k: np.ndarray  # (H, T, K)
    v: np.ndarray  # (H, T, V)


def decode_step(x_new, wq, wk, wv, kv=None):
    """One new word of causal self-attention, reusing the earlier words' keys and values from ``kv``.

    Only the new word's query, key and value are computed, and one score per word so far; the
    result equals the last row of attention_forward(..., causal=True) on the whole prefix.
    Inference only, so there is no backward. Returns out (H*V,), weights (H, T) and the grown KVCache.
    """
    x_new = np.asarray(x_new, dtype=np.float64)  # (D,)
    K = wq.shape[2]
    q = np.einsum("d,hdk->hk", x_new, wq) / math.sqrt(K)  # (H, K)
    k_new = np.einsum("d,hdk->hk", x_new, wk)[:, None]  # (H, 1, K)
    v_new = np.einsum("d,hdv->hv", x_new, wv)[:, None]  # (H, 1, V)
    k = k_new if kv is None else np.concatenate((kv.k, k_new), axis=1)  # (H, T, K)
    v = v_new if kv is None else np.concatenate((kv.v, v_new), axis=1)  # (H, T, V)
    weights, _ = softmax_forward(np.einsum("hk,htk->ht", q, k))  # (H, T) one score per word so far
    out = np.einsum("ht,htv->hv", weights, v).reshape(-1)  # (H*V,)
    return out, weights, KVCache(k, v)
