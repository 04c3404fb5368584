import math

import numpy as np
import pytest

from engine.figures import ParamError, compute
from engine.tasks import winograd


def test_keys_animal_right_street_up_others_short():
    facts = compute("query-drag")["facts"]
    assert facts["animal_key"] == [1.6, 0.0]
    assert facts["street_key"] == [0.0, 1.6]
    assert facts["other_key_max_length"] < 0.3


def test_grid_scores_are_dot_products_and_weights_their_scaled_softmax():
    data = compute("query-drag")
    axis, keys = np.array(data["axis"]), np.array(data["keys"])
    G = len(axis)
    assert G == 17 and axis[0] == -4 and axis[-1] == 4 and data["facts"]["grid_positions"] == G * G
    for i in range(G * G):
        q = np.array([axis[i % G], axis[i // G]])
        s = keys @ q
        w = np.exp(s / math.sqrt(2) - (s / math.sqrt(2)).max())
        assert data["scores"][i] == pytest.approx(s.tolist(), abs=0.005 + 1e-9)  # kept to 2 decimals
        assert data["weights"][i] == pytest.approx((w / w.sum()).tolist(), abs=0.005 + 1e-9)


def test_the_grid_agrees_with_the_head_itself():
    """At the query "it" really has, the grid holds the weights of the chapter 1 head's row for "it"."""
    data = compute("query-drag")
    col, row = data["start"]
    run = winograd.run("tired")
    assert [data["axis"][col], data["axis"][row]] == run["queries"][winograd.IT].tolist() == [3.0, 0.0]
    assert np.ravel(data["keys"]).tolist() == pytest.approx(run["keys"].ravel().tolist())
    assert data["weights"][row * len(data["axis"]) + col] == pytest.approx(
        run["weights"][winograd.IT].tolist(), abs=0.005 + 1e-9)


def test_pointing_the_query_picks_a_word():
    facts = compute("query-drag")["facts"]
    assert facts["right"]["animal_score"] == pytest.approx(4.8)
    assert f"{facts['right']['animal_weight']:.0%}" == "75%"
    assert f"{facts['up']['street_weight']:.0%}" == "75%"
    assert facts["away"]["animal_score"] == pytest.approx(-3.2) == facts["away"]["street_score"]
    assert facts["away"]["animal_weight"] < facts["away"]["other_weight_max"]
    # a longer query in the same direction is more decisive
    assert facts["short_right"]["animal_weight"] < facts["right"]["animal_weight"] < facts["long_right"]["animal_weight"]


@pytest.mark.parametrize("raw, option, words", [
    ({"last_word": "sleepy"}, "last_word", "'tired' or 'wide'"),
    ({"step": 0.1}, "step", "at most 30"),
    ({"step": 0.3}, "step", "divide"),
    ({"query": [4.5, 0]}, "query", "inside the grid"),
    ({"query": [1]}, "query", "2 to 2 items"),
])
def test_bad_options(raw, option, words):
    with pytest.raises(ParamError, match=words) as err:
        compute("query-drag", raw)
    assert err.value.option == option
