"""circuits: a head's query-key and output-value circuits (Elhage et al. 2021) for chapter 3's head,
the same head refactored, and chapter 9's trained head 1."""
from __future__ import annotations

import numpy as np
import pytest

from engine.attention import attention_forward
from engine.figures import ParamError, compute, facts, parse
from engine.tasks import grammar, winograd


@pytest.fixture(scope="module")
def data():
    return compute(parse("circuits"))


def _panels(data, view):
    return {p["title"]: np.array(p["values"]) for p in data["views"][view]["panels"]}


def test_the_hand_set_grids_are_the_products_of_chapter_3s_matrices(data):
    wq, wk, wv = (m[0] for m in winograd.matrices())
    grids = _panels(data, 0)
    np.testing.assert_allclose(grids["W_Q W_Kᵀ"], np.round(wq @ wk.T, 2))
    np.testing.assert_allclose(grids["W_V W_O"], wv)
    f = facts(parse("circuits"))
    assert f["hand_peak"] == f["strength"] * f["key_length"] == 8.0
    features = list(winograd.FEATURES)
    peaks = {(features[i], features[j]) for i, j in zip(*np.nonzero(grids["W_Q W_Kᵀ"] == 8.0))}
    assert peaks == {("describes animals", "animal"), ("describes places", "place")}


def test_the_scores_of_it_are_the_attention_codes_scores(data):
    run = winograd.run(winograd.LAST_WORDS[0])
    x = winograd.embeddings(winograd.LAST_WORDS[0])
    wq, wk, wv = winograd.matrices()
    _, cache = attention_forward(x, wq, wk, wv)
    scores = (cache.q @ cache.k.swapaxes(-1, -2))[0, 0]  # (T, T) already scaled
    np.testing.assert_allclose(data["views"][0]["it_scores"], scores[winograd.IT], atol=1e-12)
    assert data["views"][0]["words"] == list(run["words"])


def test_other_factors_with_the_same_product_score_identically(data):
    hand, other = _panels(data, 0), _panels(data, 1)
    np.testing.assert_allclose(other["W_Q W_Kᵀ"], hand["W_Q W_Kᵀ"])
    assert np.abs(other["W_Q M"] - hand["W_Q"]).max() > 1  # the factors really differ
    f = facts(parse("circuits"))
    assert f["it_query_0"] != f["it_query_1"] and f["factor_change"] == 2.5
    assert f["score_gap"] < 1e-14
    assert data["text"]["fixed"][1] == f"Other factors, same product: every score of “it” within {f['score_gap']:.0e}"


def test_the_trained_grids_are_head_1s_word_blocks(data):
    p = grammar.trained(0).params
    n = len(grammar.VOCAB)
    grids = _panels(data, 2)
    wq, wk, wv = (p[k][0].astype(np.float64) for k in ("wq", "wk", "wv"))
    np.testing.assert_allclose(grids["W_Q W_Kᵀ"], (wq @ wk.T)[:n, :n], atol=0.006)
    readout = p["readout"][0][:, :wv.shape[1]].astype(np.float64)  # head 1's part of the attached-word readout
    np.testing.assert_allclose(grids["W_V, then the attached-word readout"], (wv @ readout.T)[:n], atol=0.006)


def test_the_trained_head_recovers_the_attached_word_rule(data):
    """Each describing kind of word scores its noun highest and nouns their verb; the verb is the exception."""
    t = data["views"][2]
    best = {c: t["classes"][int(np.argmax(row))] for c, row in zip(t["classes"], t["class_means"])}
    assert best == {"determiner": "noun", "adjective": "noun", "preposition": "noun", "noun": "verb",
                    "verb": "determiner"}
    f = facts(parse("circuits"))
    assert f["verb_best"] == "determiner" and min(f["det_noun"], f["adj_noun"], f["prep_noun"], f["noun_verb"]) > 4
    assert f["copied"] == f["attachable"] == len(grammar.NOUNS) + len(grammar.VERBS)  # every noun and verb copied
    # Chapter 12 calls the verb row the grid's version of the intervention figure's verb row, whose top is "the".
    assert facts(parse("intervention"))["verb_row"]["top"] in grammar.DETS


def test_text_states_follow_the_views(data):
    states = data["text"]["states"]
    assert [s["label"] for s in states] == data["labels"]
    assert states[0]["numbers"][0].startswith("Scaled scores of “it”: The ")
    assert states[1]["numbers"][1].startswith(states[0]["numbers"][0])  # the same scores, to two decimals
    assert len(states[2]["numbers"]) == len(data["views"][2]["classes"])
    assert data["text"]["numbers"] == states[data["start"]]["numbers"] + data["text"]["fixed"]
    opened = compute(parse("circuits", {"view": "trained"}))
    assert opened["text"]["numbers"][:5] == states[2]["numbers"]


def test_bad_options_are_refused():
    with pytest.raises(ParamError, match="view"):
        compute(parse("circuits", {"view": "learned"}))
    with pytest.raises(ParamError, match="head"):
        compute(parse("circuits", {"head": 3}))
