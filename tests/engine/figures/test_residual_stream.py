"""residual-stream: the hand-set two-layer decoder does what the chapter says, through block_forward."""
import numpy as np
import pytest

from engine import block
from engine.figures import ParamError, compute, facts, parse
from engine.figures import residual_stream as rs


@pytest.fixture(scope="module")
def data():
    return compute(parse("residual-stream"))


@pytest.fixture(scope="module")
def f():
    return facts(parse("residual-stream"))


def test_the_stream_is_the_sum_of_what_each_stage_added():
    streams, adds, _ = rs.run()
    assert len(streams) == len(adds) == len(rs.STAGES)
    for s in range(len(rs.STAGES)):
        assert np.allclose(streams[s], sum(adds[: s + 1]))
    # the negated copy keeps every row's mean at 0, so layer norm only rescales
    for x in streams:
        assert np.allclose(x.mean(axis=1), 0)


def test_layer_one_writes_the_previous_word_and_layer_two_reads_it(data):
    t = len(rs.TOKENS)
    for i in range(1, t):
        assert data["looks"][1][i]["at"] == i - 1 and data["looks"][1][i]["weight"] > 0.99
        prev = [e for e in data["streams"][1][i] if e["slot"] == "previous"]
        assert prev[0]["label"] == rs.TOKENS[i - 1] and abs(prev[0]["value"] - 1) < 0.01
    last = t - 1
    assert data["looks"][3][last]["at"] == rs.TOKENS.index("Lovelace")  # after the earlier "Ada"
    for i in range(1, last):  # no earlier copy of the word: the induction head rests on <s>
        assert data["looks"][3][i]["at"] == 0
    # what layer 1 wrote is still in the last word's stream after every later stage
    for s in range(1, len(rs.STAGES)):
        assert any(e["slot"] == "previous" and e["label"] == "so" for e in data["streams"][s][last])


def test_the_induction_needs_what_layer_one_wrote():
    l1, l2 = rs._layer1(), rs._layer2()
    broken = l1 | {"wo": np.zeros_like(l1["wo"])}  # attention 1 writes nothing
    streams, _, patterns = rs.run((broken, l2))
    last = len(rs.TOKENS) - 1
    assert int(patterns[1][last].argmax()) == 0  # layer 2 finds nothing and rests on <s>
    p = rs._readout(streams[-1])[last]
    assert p.max() - p.min() < rs.EVEN


def test_facts(data, f):
    assert f["p_embedding"] == pytest.approx(1 / 8) and f["p_attention_1"] == pytest.approx(1 / 8)
    assert f["p_FFN_1"] == pytest.approx(1 / 8, abs=1e-3)  # FFN 1 stores nothing about "Ada"
    assert 0.6 < f["p_attention_2"] < f["p_FFN_2"] and f["p_FFN_2"] > 0.9
    assert f["prediction"] == "Lovelace" and f["previous_written"] == "so"
    assert f["induction_weight"] > 0.95 and f["induction_at"] == 3
    assert f["norm_ffn1"] < 0.01 < f["norm_attn1"]
    assert f["memory_wrote"] == "the" and f["memory_wrote_p"] > 0.5
    assert f["no_residual_p"] == pytest.approx(1 / 8, abs=1e-3)
    # The last step: cross-entropy is minus the log of the right token's probability; an even guess scores ln 8.
    assert f["loss_final"] == pytest.approx(-np.log(f["p_FFN_2"])) and f["loss_final"] < 0.1
    assert f["loss_even"] == pytest.approx(np.log(8)) == pytest.approx(-np.log(f["p_embedding"]))
    assert f["features"] == 34 and compute(parse("residual-stream"))["width"] == 68  # each feature and its negation
    # model sizes: the papers' numbers and the estimate computed from them
    assert f["gpt3_heads"] * f["gpt3_d_head"] == f["gpt3_d_model"] == 12288
    assert f["gpt3_estimate_billions"] == pytest.approx(12 * 96 * 12288 ** 2 / 1e9)
    assert 170 < f["gpt3_exact_billions"] < 176  # the paper's 175 billion, embeddings aside
    assert f["base_d_head"] == 64 and f["base_d_ff"] == 4 * f["base_d_model"]


def test_readout_and_text(data, f):
    t = len(rs.TOKENS)
    last = t - 1
    assert data["text"]["fixed"] == [f"Prediction after the last word, “Ada” (8): Lovelace, probability {f['p_FFN_2']:.2f}"]
    states = data["text"]["states"]
    assert len(states) == len(rs.STAGES) * t
    s = states[3 * t + last]["numbers"]
    assert s[0].startswith("attention 2 added ") and "next Lovelace" in s[0] and "“Lovelace” (3)" in s[0]
    assert s[2].startswith("Readout at “Ada” (8) after attention 2: Lovelace ")
    assert "no preference" in states[last]["numbers"][2]
    assert data["text"]["numbers"] == states[last]["numbers"] + data["text"]["fixed"]
    for s in range(len(rs.STAGES)):
        for i in range(t):
            assert np.isclose(sum(data["probs"][s][i]), 1)
            assert np.isclose(data["norms"][s][i], np.sqrt(sum(e["value"] ** 2 for e in rs._entries(
                rs.run()[1][s][i, :rs.N], 0.0))))


def test_block_forward_is_what_runs():
    # the figure's stream after layer 1 is block_forward's output on the embedding
    out, _ = block.block_forward(rs._embedding(), rs._layer1())
    assert np.allclose(rs.run()[0][2], out)


@pytest.mark.parametrize("raw, words", [({"stage": 5}, "between 0 and 4"), ({"word": -1}, "between 0 and 7")])
def test_bad_options(raw, words):
    with pytest.raises(ParamError, match=words):
        compute(parse("residual-stream", raw))


def test_the_worked_layer_norm_takes_the_mean_and_spread_out():
    """Chapter 10's example: four numbers, their mean and variance, and the engine's layer norm of them,
    which has mean 0 and variance about 1, and does not change when the input is scaled."""
    import math

    import numpy as np

    from engine.figures import facts, parse

    ln = facts(parse("residual-stream"))["layer_norm"]
    x = np.array(ln["x"])
    assert ln["n"] == len(x) == 4 and ln["mean"] == x.mean()
    assert ln["deviations"] == (x - x.mean()).tolist() and ln["variance"] == ((x - x.mean()) ** 2).mean()
    assert ln["std"] == math.sqrt(ln["variance"])
    out = np.array(ln["out"])
    np.testing.assert_allclose(out, (x - x.mean()) / math.sqrt(ln["variance"] + ln["eps"]), rtol=1e-12)
    np.testing.assert_allclose(out, (x - x.mean()) / ln["std"], rtol=1e-5)  # epsilon is far below the variance
    assert abs(out.mean()) < 1e-12 and abs((out ** 2).mean() - 1) < 1e-5
    assert ln["factor"] == 10
    np.testing.assert_allclose(ln["out_scaled"], out, rtol=1e-5)
