import numpy as np
import pytest

from engine.figures import ParamError, compute, facts, parse
from engine.tasks import winograd


def test_with_tired_the_output_of_it_is_about_076_002():
    f = facts(parse("value-sum"))
    np.testing.assert_allclose(f["tired_output"], (0.76, 0.02), atol=0.005)
    np.testing.assert_allclose(f["wide_output"], (0.02, 0.76), atol=0.005)
    assert f["tired_top_word"] == "animal"
    # The largest term is animal's whole value scaled by its weight; the other ten add little.
    assert f["tired_first_term"] == pytest.approx([f["tired_top_weight"], 0.0])
    assert f["tired_largest_other_term"] < 0.05
    assert max(abs(x) for x in f["tired_rest"]) < 0.05


@pytest.mark.parametrize("last", ["tired", "wide"])
def test_terms_largest_first_add_up_to_the_engines_output(last):
    mode = compute(parse("value-sum"))["modes"][last]
    w, v = np.array(mode["weights"]), np.array(mode["values"])
    assert sorted(mode["order"]) == list(range(len(w)))
    assert all(w[a] >= w[b] for a, b in zip(mode["order"], mode["order"][1:]))
    np.testing.assert_allclose(mode["terms"], w[mode["order"], None] * v[mode["order"]])
    running = np.array(mode["running"])
    np.testing.assert_allclose(running[0], 0)
    np.testing.assert_allclose(running[-1], mode["output"], atol=1e-12)
    # The engine's output is the weighted sum of values: w @ V, as the formula says.
    np.testing.assert_allclose(mode["output"], w @ v, atol=1e-12)
    np.testing.assert_allclose(mode["output"], winograd.run(last)["outputs"][winograd.IT])


def test_text_lists_every_term_and_follows_the_toggle():
    data = compute(parse("value-sum", {"last": "wide"}))
    text = data["text"]
    assert text["numbers"] == text["states"][1]["numbers"]
    assert text["states"][0]["numbers"][0] == "Last word “tired”: the output of “it” is (0.76, 0.02)"
    assert text["states"][1]["numbers"][1].startswith("Weight × value, largest weight first: 0.75 × street (0.00, 1.00), ")
    assert text["states"][1]["numbers"][1].count(" × ") - 1 == len(data["modes"]["wide"]["words"])


def test_bad_options():
    with pytest.raises(ParamError, match="must be one of tired, wide"):
        compute(parse("value-sum", {"last": "sleepy"}))
