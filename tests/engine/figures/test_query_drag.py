import math

import numpy as np
import pytest

from engine.figures import ParamError, compute
from engine.tasks import pronoun_head as head


def test_keys_animal_right_street_up_others_short():
    data = compute("query-drag")
    facts = data["facts"]
    assert facts["animal_key"] == [2.0, 0.0]
    assert facts["street_key"] == [0.0, 2.0]
    assert facts["other_key_max_length"] < 0.25


def test_grid_scores_are_dot_products_and_weights_their_scaled_softmax():
    data = compute("query-drag")
    axis, keys = np.array(data["axis"]), np.array(data["keys"])
    assert len(axis) == 25 and axis[0] == -3 and axis[-1] == 3
    assert data["facts"]["grid_positions"] == 625
    rng = np.random.default_rng(0)
    for i in rng.integers(0, 625, 40):
        q = np.array([axis[i % 25], axis[i // 25]])
        s = keys @ q
        w = np.exp(s / math.sqrt(2) - (s / math.sqrt(2)).max())
        assert data["scores"][i] == pytest.approx(s.tolist(), abs=0.005 + 1e-9)  # kept to 2 decimals
        assert data["weights"][i] == pytest.approx((w / w.sum()).tolist(), abs=0.005 + 1e-9)


def test_start_is_the_query_of_it_in_the_head():
    data = compute("query-drag")
    col, row = data["start"]
    assert (data["axis"][col], data["axis"][row]) == (2.5, 0.0)
    h = head.head("tired")
    assert h["q"][head.IT].tolist() == [2.5, 0.0]


def test_pointing_the_query_picks_a_word():
    facts = compute("query-drag")["facts"]
    assert facts["right"]["animal_score"] == pytest.approx(5.0)
    assert round(facts["right"]["animal_weight"], 2) == 0.75
    assert round(facts["up"]["street_weight"], 2) == 0.75
    assert facts["away"]["animal_score"] == pytest.approx(-3.0) and facts["away"]["street_score"] == pytest.approx(-3.0)
    assert facts["away"]["animal_weight"] < facts["away"]["other_weight_max"]
    # a longer query in the same direction is more decisive
    assert facts["short_right"]["animal_weight"] < facts["right"]["animal_weight"] < facts["long_right"]["animal_weight"]


@pytest.mark.parametrize("raw, option, words", [
    ({"last_word": "sleepy"}, "last_word", "'tired' or 'wide'"),
    ({"step": 0.05}, "step", "at most 30"),
    ({"step": 0.4}, "step", "divide"),
    ({"query": [3.5, 0]}, "query", "inside the grid"),
    ({"query": [1]}, "query", "2 to 2 items"),
])
def test_bad_options(raw, option, words):
    with pytest.raises(ParamError, match=words) as err:
        compute("query-drag", raw)
    assert err.value.option == option
