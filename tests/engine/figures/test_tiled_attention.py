"""tiled-attention: the steps the view shows are the engine's tiles, and the result matches plain attention."""
from __future__ import annotations

import numpy as np
import pytest

from engine.figures import compute, facts, parse
from engine.figures.tiled_attention import Params, _inputs
from engine.tiling import plain_attention, tiled_attention_forward


@pytest.mark.parametrize("options", [{}, {"block": 4, "causal": False}, {"tokens": 7, "block": 3}])
def test_tiles_cover_the_allowed_grid_once_and_match_plain_attention(options):
    data = compute(parse("tiled-attention", options))
    p = Params(**{**Params().__dict__, **options})
    covered = np.zeros((p.tokens, p.tokens), int)
    for s in data["steps"]:
        (r0, r1), (c0, c1) = s["rows"], s["cols"]
        covered[r0:r1, c0:c1] += 1
        assert (r1 - r0) * (c1 - c0) <= p.block ** 2
    assert covered.max() == 1
    visible = np.tril(np.ones_like(covered)) if p.causal else np.ones_like(covered)
    assert np.all(covered[visible == 1] == 1)  # every unmasked score lies in some tile
    assert data["largest_difference"] < 1e-15
    q, k, v = _inputs(p)
    assert np.abs(tiled_attention_forward(q, k, v, p.block, p.causal) - plain_attention(q, k, v, p.causal)).max() < 1e-15


def test_running_sums_end_at_the_softmax_denominator():
    data = compute(parse("tiled-attention"))
    p = Params()
    q, k, v = _inputs(p)
    scores = q @ k.T / 2.0
    scores[np.triu_indices(p.tokens, 1)] = -np.inf
    finals = [s for s in data["steps"] if s["last_of_block"]]
    assert sum(s["rows"][1] - s["rows"][0] for s in finals) == p.tokens
    for s in finals:
        for j, r in enumerate(range(*s["rows"])):
            m = scores[r].max()
            assert s["max_after"][j] == pytest.approx(m)
            assert s["total"][j] == pytest.approx(np.exp(scores[r] - m).sum())


def test_facts_and_text_name_the_rescaling():
    f = facts(parse("tiled-attention"))
    assert f["held"] == f["block"] ** 2 and f["grid"] == f["tokens"] ** 2 and f["tiles"] == 10
    assert f["rescales"] > 0  # the example shows at least one running max rising
    lines = [line for s in compute(parse("tiled-attention"))["text"]["states"] for line in s["numbers"]]
    assert sum("multiplied by" in line for line in lines) == f["rescales"]
