"""engine/tiling.py: attention built tile by tile equals engine/attention.py's plain attention, while
holding one tile of scores at a time."""
from __future__ import annotations

import numpy as np
import pytest

from engine.attention import attention_forward
from engine.tiling import plain_attention as plain
from engine.tiling import tiled_attention_forward, tiled_attention_steps


def qkv(S, T, K, V, seed=0, spread=1.0):
    rng = np.random.default_rng(seed)
    return rng.normal(size=(S, K)) * spread, rng.normal(size=(T, K)) * spread, rng.normal(size=(T, V))


@pytest.mark.parametrize("causal", [False, True])
@pytest.mark.parametrize("block", [1, 2, 3, 4, 8, 64])
@pytest.mark.parametrize("S,T,K,V", [(8, 8, 4, 4), (5, 11, 3, 6), (11, 11, 6, 2), (1, 7, 2, 5)])
def test_tiles_equal_plain_attention(S, T, K, V, block, causal):
    q, k, v = qkv(S, T, K, V, seed=S * 100 + T)
    tiled = tiled_attention_forward(q, k, v, block, causal=causal)
    assert tiled.shape == (S, V)
    assert np.max(np.abs(tiled - plain(q, k, v, causal))) < 1e-15  # a few units in the last place of float64


def test_the_reference_is_engine_attention():
    """plain_attention(q, k, v) is attention_forward on x = [q k v] with matrices that pick the parts out."""
    q, k, v = qkv(6, 6, 3, 2, seed=7)
    x = np.hstack((q, k, v))  # (6, 8)
    pick = np.eye(8)[None]  # (1, 8, 8): columns a:b of x
    for causal in (False, True):
        out, _ = attention_forward(x, pick[..., 0:3], pick[..., 3:6], pick[..., 6:8], causal=causal)
        assert np.max(np.abs(out - plain(q, k, v, causal=causal))) < 1e-15


def test_large_scores_do_not_overflow():
    """Scores near 1e4 would overflow exp() without the running max; the tiles stay finite and exact."""
    q, k, v = qkv(8, 8, 4, 3, seed=3, spread=60.0)
    scores = q @ k.T / 2.0
    assert np.abs(scores).max() > 1000
    for causal in (False, True):
        tiled = tiled_attention_forward(q, k, v, 2, causal=causal)
        assert np.all(np.isfinite(tiled))
        assert np.max(np.abs(tiled - plain(q, k, v, causal))) < 1e-15


def test_never_more_than_one_tile_of_scores_and_causal_tiles_are_skipped():
    q, k, v = qkv(8, 8, 4, 4)
    steps = list(tiled_attention_steps(q, k, v, 2, causal=False))
    assert len(steps) == 16 and max(s.scores.size for s in steps) == 4
    causal = list(tiled_attention_steps(q, k, v, 2, causal=True))
    assert len(causal) == 10  # 4 + 3 + 2 + 1 tiles on or below the diagonal
    assert all(s.cols[0] <= s.rows[1] - 1 for s in causal)


def test_the_running_max_rescales_what_was_gathered():
    """When a tile raises a row's max, the earlier sum is multiplied by exp(old - new) < 1."""
    q, k, v = qkv(4, 8, 2, 2, seed=5)
    k[6] = q[0] * 5  # a key late in the row that scores far above the others for query 0
    steps = [s for s in tiled_attention_steps(q, k, v, 2) if s.rows == (0, 2)]
    last = steps[-1]
    grew = [s for s in steps if s.max_after[0] > s.max_before[0] and np.isfinite(s.max_before[0])]
    assert grew and all(0 < s.rescale[0] < 1 for s in grew)
    scores = q[0] @ k.T / np.sqrt(2)
    assert last.max_after[0] == pytest.approx(scores.max())
    assert last.total[0] == pytest.approx(np.exp(scores - scores.max()).sum())


def test_bad_shapes_are_refused():
    q, k, v = qkv(4, 3, 2, 2)
    with pytest.raises(ValueError):
        tiled_attention_forward(q, k, v, 2, causal=True)  # more queries than keys
    with pytest.raises(ValueError):
        tiled_attention_forward(q, k[:, :1], v, 2)
    with pytest.raises(ValueError):
        tiled_attention_forward(q, k, v, 0)


def test_fewer_queries_than_keys_are_the_last_positions():
    """Causal with S < T: the S queries sit at the end, as when a cached prefix is extended, so their rows
    equal the last S rows of the full square, tiled or not."""
    q, k, v = qkv(9, 9, 3, 2, seed=11)
    full = plain(q, k, v, causal=True)
    assert np.max(np.abs(plain(q[6:], k, v, causal=True) - full[6:])) < 1e-15
    assert np.max(np.abs(tiled_attention_forward(q[6:], k, v, 2, causal=True) - full[6:])) < 1e-15
