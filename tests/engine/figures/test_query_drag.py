import math

import numpy as np
import pytest

from engine.figures import ParamError, compute, facts, parse
from engine.tasks import winograd


def test_keys_animal_right_street_up_others_short():
    data = compute(parse("query-drag"))
    keys = dict(zip(data["words"], data["keys"]))
    assert keys["animal"] == [1.6, 0.0]
    assert keys["street"] == [0.0, 1.6]
    lengths = [math.hypot(*k) for w, k in keys.items() if w not in ("animal", "street")]
    assert max(lengths) < 0.3
    assert data["long_keys"] == [w in ("animal", "street") for w in data["words"]]


def test_grid_scores_are_dot_products_scaled_by_root_2_and_weights_their_softmax():
    data = compute(parse("query-drag"))
    axis, keys = np.array(data["axis"]), np.array(data["keys"])
    G = len(axis)
    assert G == 17 and axis[0] == -4 and axis[-1] == 4 and len(data["scores"]) == G * G
    for i in range(G * G):
        q = np.array([axis[i % G], axis[i // G]])
        s = keys @ q
        w = np.exp(s / math.sqrt(2) - (s / math.sqrt(2)).max())
        assert data["scores"][i] == pytest.approx(s.tolist(), abs=0.005 + 1e-9)  # kept to 2 decimals
        assert data["scaled"][i] == pytest.approx((s / math.sqrt(2)).tolist(), abs=0.005 + 1e-9)
        assert data["weights"][i] == pytest.approx((w / w.sum()).tolist(), abs=0.005 + 1e-9)


def test_the_grid_agrees_with_the_head_itself():
    """At the query "it" really has, the grid holds the weights of the chapter 1 head's row for "it"."""
    data = compute(parse("query-drag"))
    col, row = data["start"]
    run = winograd.run("tired")
    assert [data["axis"][col], data["axis"][row]] == run["queries"][winograd.IT].tolist() == [3.0, 0.0]
    assert np.ravel(data["keys"]).tolist() == pytest.approx(run["keys"].ravel().tolist())
    assert data["weights"][row * len(data["axis"]) + col] == pytest.approx(
        run["weights"][winograd.IT].tolist(), abs=0.005 + 1e-9)


def test_pointing_the_query_picks_a_word():
    f = facts(parse("query-drag"))
    assert f["root_d"] == pytest.approx(math.sqrt(2))
    assert f["right"]["animal_score"] == pytest.approx(4.8)
    assert f["right"]["animal_scaled"] == pytest.approx(4.8 / math.sqrt(2))
    assert f"{f['right']['animal_weight']:.0%}" == "75%"
    # the weights come from the scaled scores: softmax of the raw ones would be far more decisive
    assert f"{f['right']['animal_weight_unscaled']:.0%}" == "92%"
    assert f"{f['up']['street_weight']:.0%}" == "75%"
    assert f["away"]["animal_score"] == pytest.approx(-3.2) == f["away"]["street_score"]
    assert f["away"]["animal_weight"] < f["away"]["other_weight_max"]
    # a longer query in the same direction is more decisive
    assert f["short_right"]["animal_weight"] < f["right"]["animal_weight"] < f["long_right"]["animal_weight"]


@pytest.mark.parametrize("raw, option, words", [
    ({"last_word": "sleepy"}, "last_word", "one of tired, wide"),
    ({"step": 0.1}, "step", "at most 30"),
    ({"query": [4.5, 0]}, "query", "inside the grid"),
    ({"query": [1]}, "query", "2 to 2 items"),
])
def test_bad_options(raw, option, words):
    with pytest.raises(ParamError, match=words) as err:
        compute(parse("query-drag", raw))
    assert err.value.option == option


def test_text_templates_filled_at_a_grid_position():
    from engine.figures.fmt import fill, fill_all, scope_at
    data = compute(parse("query-drag"))
    G = len(data["axis"])
    i = 2 * G + 13  # row 2, column 13
    assert "states" not in data["text"]
    assert fill_all(data["text"]["templates"], scope_at(data["text"]["scope"], data, i)) == [
        f"Query ({data['axis'][13]:.2f}, {data['axis'][2]:.2f})",
        "Raw scores q·k: " + ", ".join(f"{w} {s:.2f}" for w, s in zip(data["words"], data["scores"][i])).replace("-0.00", "0.00"),
        "Scaled scores q·k/√2: " + ", ".join(f"{w} {s:.2f}" for w, s in zip(data["words"], data["scaled"][i])).replace("-0.00", "0.00"),
        "Weights, softmax of the scaled scores: " + ", ".join(f"{w} {x:.2f}" for w, x in zip(data["words"], data["weights"][i])),
    ]
    assert data["schema"]["last_word"]["choices"] == ["tired", "wide"]
    parts = data["text"]["parts"]
    assert fill(parts["score"], {"v": data["scores"][i][0]}) == f"{data['scores'][i][0]:.2f}".replace("-0.00", "0.00")
