"""Attention computed tile by tile with an online softmax: the idea behind FlashAttention (Dao et al. 2022).

softmax(Q Kᵀ / √d) V is built one (query block × key block) tile of scores at a time. Each query
row keeps a running maximum m, a running sum l of exp(score - m) and an unnormalised output; when a
later tile raises m, what was gathered so far is scaled down by exp(m_old - m_new). Only one tile of
scores exists at any moment, yet the result equals plain attention up to rounding. Inference only:
FlashAttention's backward recomputes the tiles the same way, which this toy does not need.
Shapes: S queries, T keys, K query/key width, V value width, b the block size.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .attention import cross_attention_forward


@dataclass(frozen=True)
class TileStep:
    """The state after one tile: which tile, its scores, and every row of its query block so far."""
    rows: tuple          # (first, stop) query rows of the tile
    cols: tuple          # (first, stop) key columns of the tile
    scores: np.ndarray   # (rows, cols) this tile's scaled scores, -inf where the mask hides a key
    max_before: np.ndarray  # (rows,) running max before the tile (-inf before the first)
    max_after: np.ndarray   # (rows,) running max after it
    rescale: np.ndarray     # (rows,) exp(max_before - max_after): what the earlier sum and output were multiplied by
    total: np.ndarray       # (rows,) running sum of exp(score - max_after)
    partial: np.ndarray     # (rows, V) running unnormalised output (weights not yet divided by total)


def _allowed(rows: range, cols: range, offset: int):
    """Causal rule for S queries over T keys: query i sits at position i + offset (offset = T - S), so
    with S == T it is the usual lower triangle and with S < T the queries are the last S positions."""
    return (np.arange(cols.start, cols.stop)[None, :] <= np.arange(rows.start, rows.stop)[:, None] + offset)  # (r, c)


def plain_attention(q, k, v, causal: bool = False):
    """The same softmax(q kᵀ / √K) v by engine/attention.py, whole grid at once, to check the tiles against:
    one head whose matrices pick q, k and v out of [k v] unchanged. Same causal rule as the tiles."""
    q, k, v = (np.asarray(a, dtype=np.float64) for a in (q, k, v))
    (S, K), (T, V) = q.shape, v.shape
    wq = np.eye(K)[None]  # (1, K, K)
    wk = np.vstack((np.eye(K), np.zeros((V, K))))[None]  # (1, K+V, K) the k part of [k v]
    wv = np.vstack((np.zeros((K, V)), np.eye(V)))[None]  # (1, K+V, V) the v part
    mask = _allowed(range(S), range(T), T - S) if causal else None  # (S, T)
    return cross_attention_forward(q, np.hstack((k, v)), wq, wk, wv, mask=mask)[0]  # (S, V)


def tiled_attention_steps(q, k, v, block: int, causal: bool = False):
    """Yield a TileStep after each tile, query block by query block, key block by key block (tiles that
    the causal mask hides entirely are skipped, as FlashAttention skips them). The last step of each
    query block holds its finished rows: partial / total."""
    q, k, v = (np.asarray(a, dtype=np.float64) for a in (q, k, v))
    (S, K), (T, K2), T2 = q.shape, k.shape, v.shape[0]
    if K != K2 or T != T2:
        raise ValueError(f"shapes do not match: q {q.shape}, k {k.shape}, v {v.shape}")
    if block < 1:
        raise ValueError(f"block must be at least 1, not {block}")
    offset = T - S
    if causal and offset < 0:
        raise ValueError("a causal mask needs at least as many keys as queries")
    scale = 1.0 / math.sqrt(K)
    for r0 in range(0, S, block):
        rows = range(r0, min(r0 + block, S))
        m = np.full(len(rows), -np.inf)  # (r,) running max
        total = np.zeros(len(rows))  # (r,) running sum of exp(score - m)
        acc = np.zeros((len(rows), v.shape[1]))  # (r, V) running unnormalised output
        for c0 in range(0, T, block):
            cols = range(c0, min(c0 + block, T))
            if causal and c0 > rows.stop - 1 + offset:
                break  # every later key is hidden from every row of this block
            s = (q[r0:rows.stop] @ k[c0:cols.stop].T) * scale  # (r, c) the only scores held
            if causal:
                s = np.where(_allowed(rows, cols, offset), s, -np.inf)  # (r, c)
            m_new = np.maximum(m, s.max(axis=1))  # (r,)
            safe = np.where(np.isfinite(m_new), m_new, 0.0)  # (r,) a row with nothing visible yet keeps 0s
            rescale = np.exp(m - safe)  # (r,) exp(-inf) = 0 before the first visible key
            p = np.exp(s - safe[:, None])  # (r, c) masked entries give exp(-inf) = 0
            total = total * rescale + p.sum(axis=1)  # (r,)
            acc = acc * rescale[:, None] + p @ v[c0:cols.stop]  # (r, V)
            yield TileStep((rows.start, rows.stop), (cols.start, cols.stop), s, m, m_new, rescale, total, acc)
            m = m_new


def tiled_attention_forward(q, k, v, block: int, causal: bool = False):
    """softmax(q kᵀ / √K) v, (S, K), (T, K), (T, V) -> (S, V), holding at most block × block scores at once."""
    q = np.asarray(q, dtype=np.float64)
    out = np.empty((q.shape[0], np.shape(v)[1]))  # (S, V)
    for step in tiled_attention_steps(q, k, v, block, causal):
        r0, r1 = step.rows
        out[r0:r1] = step.partial / step.total[:, None]  # (r, V) overwritten until the block's last tile
    return out

