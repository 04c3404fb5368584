"""access-chart: causal n(n+1)/2 vs bidirectional n² readable pairs; padding and cross-attention examples."""
import numpy as np
import pytest

from engine.figures import compute, facts, parse


def test_counts_are_the_triangle_and_the_square():
    data = compute(parse("access-chart"))
    for n in range(1, len(data["words"]) + 1):
        assert data["counts"]["causal"][n - 1] == n * (n + 1) // 2
        assert data["counts"]["bidirectional"][n - 1] == n * n
        g = np.array(data["grids"]["causal"][n - 1])
        assert np.array_equal(g, np.tril(np.ones((n, n), int)))
    f = facts(parse("access-chart"))
    assert (f["n"], f["causal_pairs"], f["bidirectional_pairs"]) == (11, 66, 121)
    assert facts(parse("access-chart", {"length": 4}))["causal_pairs"] == 10


def test_padding_mask_restores_the_short_sentence_exactly():
    f = facts(parse("access-chart"))
    assert f["pad_count"] == f["pad_long_len"] - f["pad_short_len"] > 0
    assert f["pad_first_on_pads"] > 0.5 and f["pad_last_on_pads"] < 0.05
    assert f["pad_first_open_animal"] < f["pad_first_alone_animal"]  # zero values shrink the output
    assert f["pad_largest_open_gap"] > 0.1
    assert f["pad_largest_masked_gap"] < 1e-12 and f["pad_masked_on_pads"] == 0


def test_cross_attention_fetches_what_each_word_describes():
    f = facts(parse("access-chart"))
    assert (f["cross_rows"], f["cross_cols"]) == (2, 6)
    assert f["cross_tired_animal"] > 0.95 and f["cross_wide_street"] > 0.95
    assert f["cross_tired_out_0"] == pytest.approx(1, abs=0.05) and abs(f["cross_tired_out_1"]) < 0.05
    assert f["cross_wide_out_1"] == pytest.approx(1, abs=0.05) and abs(f["cross_wide_out_0"]) < 0.05


def test_bert_masking_shares_cover_every_chosen_word():
    f = facts(parse("access-chart"))
    assert f["bert_mask_token"] + f["bert_random_word"] + f["bert_unchanged"] == pytest.approx(1.0)
    assert (f["bert_selected"], f["bert_mask_token"], f["bert_unchanged"]) == (0.15, 0.8, 0.1)  # Devlin et al. 3.1


def test_text_states():
    data = compute(parse("access-chart"))
    n = len(data["words"])
    states = data["text"]["states"]
    assert len(states) == 2 * n
    assert data["text"]["numbers"] == states[n - 1]["numbers"]
    assert "66 of 121" in states[n - 1]["numbers"][0] and "121 of 121" in states[2 * n - 1]["numbers"][0]
    assert compute(parse("access-chart", {"causal": False, "length": 2}))["text"]["numbers"] == states[n + 1]["numbers"]
