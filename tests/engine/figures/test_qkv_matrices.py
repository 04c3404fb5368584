"""qkv-matrices: Q, K and V of the trained model's head, and the weights they give each query."""
from __future__ import annotations

import numpy as np
import pytest

from engine.figures import ParamError, compute, facts, parse
from engine.tasks import grammar


def test_the_matrices_are_the_trained_heads_projections_of_the_sentence():
    data = compute(parse("qkv-matrices"))
    assert data["words"] == ["the", "cat", "sat", "on", "the", "mat"] and data["step"] == 400
    for role in ("q", "k", "v"):
        assert np.shape(data[role]) == (6, 6)
    e = grammar.trained(0).export("the cat sat on the mat", -1)["heads"][0]
    assert np.allclose(data["q"], e["q"], atol=5e-4) and np.allclose(data["v"], e["v"], atol=5e-4)
    assert data["extent"] == pytest.approx(max(np.abs(e[r]).max() for r in ("q", "k", "v")), abs=1e-3)


def test_weights_are_the_softmax_of_q_dot_k_over_root_6():
    data = compute(parse("qkv-matrices", {"sentence": "a small bird hid behind the big tree", "head": 2}))
    q, k = np.array(data["q"]), np.array(data["k"])
    raw = q @ k.T
    assert data["d_k"] == 6 and data["root_d"] == pytest.approx(np.sqrt(6))
    assert np.allclose(data["scores"], raw, atol=0.05)  # q and k are rounded to 3 decimals
    assert np.allclose(data["scaled"], np.array(data["scores"]) / np.sqrt(6), atol=2e-3)
    e = np.exp(raw / np.sqrt(6) - (raw / np.sqrt(6)).max(axis=1, keepdims=True))
    assert np.allclose(data["weights"], e / e.sum(axis=1, keepdims=True), atol=5e-3)
    assert np.allclose(np.sum(data["weights"], axis=1), 1, atol=5e-4)


def test_head_1_looks_at_the_attached_word():
    data = compute(parse("qkv-matrices"))
    s = grammar.parse("the cat sat on the mat")
    attached = s.targets[0, :6, 0]
    top = np.argmax(data["weights"], axis=1)
    assert data["top"] == top.tolist()
    assert (top == attached).sum() >= 4, top  # "sat" looks at its subject's determiner, not "cat"
    f = facts(parse("qkv-matrices"))
    assert (f["query_word"], f["top_word"]) == ("cat", "sat") and f["top_weight"] > 0.99
    assert f["top_scaled"] == pytest.approx(f["top_score"] / np.sqrt(6))


def test_one_state_per_query_and_repeated_words_told_apart():
    data = compute(parse("qkv-matrices", {"query": 4}))
    states = data["text"]["states"]
    assert len(states) == 6 and len({s["label"] for s in states}) == 6
    assert states[4]["label"] == "the (word 5)"
    assert data["text"]["numbers"][0].startswith("Query of the (word 5)")
    for i, s in enumerate(states):
        assert all(f"{w} " in s["numbers"][1] for w in data["words"])


@pytest.mark.parametrize("params, message", [
    ({"sentence": "the cat sat"}, "option 'sentence' must follow the grammar"),
    ({"query": 6}, "option 'query' must name one of the 6 words"),
    ({"head": 3}, "option 'head' must be one of 1, 2"),
])
def test_bad_options_name_the_option(params, message):
    with pytest.raises(ParamError, match=message):
        compute(parse("qkv-matrices", params))
