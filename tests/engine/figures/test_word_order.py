"""word-order: without positions attention is permutation equivariant; with sinusoidal codes and
a one-step-back rotation in the query matrix, dog bites man and man bites dog come apart."""
import numpy as np
import pytest

from engine.attention import attention_forward, sinusoidal_positions
from engine.figures import ParamError, compute, facts, parse
from engine.figures import word_order as m
from engine.figures.fmt import fill, fixed


def test_without_positions_each_word_gets_the_same_output_in_both_orders():
    data = compute(parse("word-order"))
    off = data["modes"]["off"]
    assert off["same"] == [True, True, True]
    a, b = (np.array(r["weights"]) for r in off["sentences"])
    # "man bites dog" is "dog bites man" with first and last word swapped: rows and columns follow.
    perm = [2, 1, 0]
    np.testing.assert_allclose(b, a[np.ix_(perm, perm)], atol=1e-15)
    f = facts(parse("word-order"))
    assert f["off_bites_dog"] == pytest.approx(f["off_bites_man"], abs=1e-15)
    assert f["off_bites_dog"] + f["off_bites_man"] + f["off_bites_self"] == pytest.approx(1.0)
    assert f["off_bites_dog"] > 0.4 and f["off_bites_self"] < 0.2


def test_with_positions_the_orders_differ_and_bites_leans_to_the_word_before():
    data, f = compute(parse("word-order")), facts(parse("word-order"))
    on = data["modes"]["on"]
    assert on["same"] == [False, False, False] and f["on_differ_count"] == 3
    assert f["on_bites_before"] > 0.55 > 0.3 > f["on_bites_after"]
    # The lean in scaled scores: lean x (code.code - code.code two places apart) / sqrt(d_k), as the chapter explains.
    code = facts(parse("sinusoids"))
    assert f["on_bites_lean"] == pytest.approx(2.0 * (code["self_dot"] - code["offset_2_dot"]) / np.sqrt(18))
    assert np.exp(f["on_bites_lean"]) == pytest.approx(f["on_bites_before"] / f["on_bites_after"])
    bites = data["words"].index("bites")
    first, second = on["by_word"][bites]
    # The same lean in the other sentence: the noun before bites is now man.
    assert second[data["words"].index("man")] == pytest.approx(first[data["words"].index("dog")])


def test_permutation_equivariance_holds_for_any_order_without_positions():
    """The property the chapter derives: attention(PX) = P attention(X), for every permutation."""
    rng = np.random.default_rng(0)
    x = rng.normal(size=(5, 4))
    wq, wk, wv = (rng.normal(size=(1, 4, 3)) for _ in range(3))
    out, _ = attention_forward(x, wq, wk, wv)
    for _ in range(5):
        perm = rng.permutation(5)
        out_p, _ = attention_forward(x[perm], wq, wk, wv)
        np.testing.assert_allclose(out_p, out[perm], atol=1e-12)
    # Adding position codes breaks it (same permutation, different outputs).
    pe = sinusoidal_positions(5, 4)
    perm = np.array([4, 3, 2, 1, 0])
    a, _ = attention_forward(x + pe, wq, wk, wv)
    b, _ = attention_forward(x[perm] + pe, wq, wk, wv)
    assert np.abs(b - a[perm]).max() > 1e-3


@pytest.mark.parametrize("k", [0, 1, 5, 17])
def test_step_back_turns_each_code_into_the_one_before(k):
    pe = sinusoidal_positions(20, m.WIDTH)
    m1 = m.step_back(m.WIDTH)
    np.testing.assert_allclose(pe[k + 1] @ m1, pe[k], atol=1e-12)


def test_no_lean_means_no_difference():
    data = compute(parse("word-order", {"lean": 0.0}))
    assert data["modes"]["on"]["same"] == [True, True, True]


def test_text_lists_every_weight_and_output_as_the_model_prints_them():
    data = compute(parse("word-order"))
    text = data["text"]
    assert text["numbers"] == text["states"][0]["numbers"]
    assert compute(parse("word-order", {"positions": True}))["text"]["numbers"] == text["states"][1]["numbers"]
    for state, name in zip(text["states"], data["settings"]):
        mode = data["modes"][name]
        line = next(n for n in state["numbers"] if n.startswith("Output of bites"))
        for out in mode["by_word"][data["words"].index("bites")]:  # the view's output cells read as the list does
            assert ", ".join(fill(text["parts"]["share"], {"word": w, "v": v}) for w, v in zip(data["words"], out)) in line
        assert ("same in both" in line) == mode["same"][data["words"].index("bites")]
    assert fill(text["parts"]["cell"], {"v": 0.125}) == fixed(0.125) == "0.13"
    assert "every word's output is the same" in text["states"][0]["label"]
    assert "differ" in text["states"][1]["label"]


@pytest.mark.parametrize("raw, words", [({"positions": "yes"}, "true or false"), ({"lean": 9}, "between")])
def test_bad_options(raw, words):
    with pytest.raises(ParamError, match=words):
        compute(parse("word-order", raw))
