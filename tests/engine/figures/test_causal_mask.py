"""causal-mask: under the mask, rows of earlier words never change as words are added; without it
they all do; the key-value cache computes fewer scores and the same outputs."""
import numpy as np
import pytest

from engine.attention import attention_forward
from engine.figures import compute, facts, parse
from engine.figures.causal_mask import TOLERANCE
from engine.tasks import winograd


def test_rows_of_earlier_words_are_unchanged_only_under_the_mask():
    f = facts(parse("causal-mask"))
    n = f["n_words"]
    assert n == 11 and f["earlier_rows"] == n * (n - 1) // 2
    assert f["masked_rows_changed"] == 0 and f["masked_largest_change"] < TOLERANCE
    assert f["open_rows_changed"] == f["earlier_rows"]  # every earlier row moves without the mask
    assert f["open_second_change"] > 0.4  # "The" goes from reading only itself to sharing
    assert f["open_last_rows_changed"] == n - 1 and f["open_last_new_weight"] > 0.05


def test_without_the_mask_the_new_word_takes_weight_and_old_weights_barely_move():
    """Adding the last word with the mask off: the big change in each earlier row is the weight the new
    word receives; the weights the row already had shift far less. Checked against the engine directly."""
    f = facts(parse("causal-mask"))
    x = winograd.embeddings("tired", copied=0.0)
    wq, wk, wv = winograd.matrices()
    before = attention_forward(x[:-1], wq, wk, wv, causal=False)[1].weights[0]  # (n-1, n-1)
    after = attention_forward(x, wq, wk, wv, causal=False)[1].weights[0]  # (n, n)
    n = len(x)
    new = after[:n - 1, n - 1]  # (n-1,) the new column
    old = np.abs(after[:n - 1, :n - 1] - before)  # (n-1, n-1)
    words = list(winograd.words("tired"))
    assert f["open_last_new_weight"] == pytest.approx(new.max())
    assert f["open_last_new_word"] == words[int(new.argmax())] == "didn't"
    assert f["open_last_old_largest"] == pytest.approx(old.max())
    assert 0.09 < f["open_last_new_weight"] < 0.1 and 0.005 < f["open_last_old_largest"] < 0.02
    data = compute(parse("causal-mask"))
    last = data["text"]["states"][2 * n - 1]["numbers"][1]
    assert "takes up to 0.093" in last and "“didn't”" in last and "more than 0.011" in last


def test_grid_states_match_the_engine_on_each_prefix():
    data = compute(parse("causal-mask"))
    x = winograd.embeddings("tired", copied=0.0)
    wq, wk, wv = winograd.matrices()
    for mode, causal in (("on", True), ("off", False)):
        for t in (1, 5, 11):
            w = np.array(data["modes"][mode]["weights"][t - 1])
            ref = attention_forward(x[:t], wq, wk, wv, causal=causal)[1].weights[0]
            np.testing.assert_allclose(w, ref, atol=1e-6)
            assert w.shape == (t, t)
            if causal:
                assert np.all(np.triu(w, 1) == 0)
        assert len(data["modes"][mode]["changed"][4]) == 4
    assert not any(any(c) for c in data["modes"]["on"]["changed"])
    assert all(all(c) for c in data["modes"]["off"]["changed"][1:])


def test_the_pronoun_waits_and_the_last_word_resolves():
    f = facts(parse("causal-mask"))
    assert f["masked_it_sees"] == winograd.IT + 1
    assert f["masked_it_share"] == pytest.approx(1 / f["masked_it_sees"])
    assert f["masked_last_on_animal"] > 0.9
    assert facts(parse("causal-mask", {"last": "wide"}))["last_word"] == "wide"


def test_kv_cache_counts_and_agreement():
    f = facts(parse("causal-mask"))
    n = f["kv_n"]
    assert f["kv_cached_scores"] == n * (n + 1) // 2 == 66
    assert f["kv_recomputed_scores"] == n * (n + 1) * (2 * n + 1) // 6 == 506
    assert f["kv_recomputed_allowed"] == sum(t * (t + 1) // 2 for t in range(1, n + 1))
    assert f["kv_cached_key_rows"] == n and f["kv_recomputed_key_rows"] == n * (n + 1) // 2
    assert f["kv_largest_difference"] < 1e-12


def test_text_states_describe_each_step():
    data = compute(parse("causal-mask"))
    n = len(data["words"])
    states = data["text"]["states"]
    assert len(states) == 2 * n
    assert data["text"]["numbers"] == states[n - 1]["numbers"] + data["text"]["fixed"]
    assert "leaves all 4 earlier rows unchanged" in states[4]["numbers"][1]
    assert "changes 4 of 4 earlier rows" in states[n + 4]["numbers"][1]
    assert "66 scores" in data["text"]["fixed"][0] and "506" in data["text"]["fixed"][0]
    opened = compute(parse("causal-mask", {"causal": False, "shown": 3}))["text"]["numbers"]
    assert opened == states[n + 2]["numbers"] + data["text"]["fixed"]
