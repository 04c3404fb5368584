"""sinusoids: a code's dot product with itself is width/2 (8 for 16 numbers), about 7.5 with a
neighbour, and every dot product depends only on the distance between the two positions."""
import numpy as np
import pytest

from engine.attention import sinusoidal_positions
from engine.figures import ParamError, compute, facts, parse
from engine.figures.fmt import fixed


def test_self_dot_is_eight_and_neighbours_about_seven_and_a_half():
    f = facts(parse("sinusoids"))
    assert f["width"] == 16 and f["pairs"] == 8
    assert f["self_dot"] == pytest.approx(8.0, abs=1e-12)
    assert f["neighbour_dot"] == pytest.approx(7.5, abs=0.05)
    # The closed form the chapter gives: sum of cos(w_i * offset).
    freq = 10000.0 ** (-np.arange(0, 16, 2) / 16)
    assert f["neighbour_dot"] == pytest.approx(np.cos(freq).sum(), abs=1e-12)
    assert f["offset_2_dot"] == pytest.approx(np.cos(2 * freq).sum(), abs=1e-12)
    assert f["neighbour_dot"] > f["offset_2_dot"] > f["min_dot"] > 0


def test_the_fast_pair_repeats_every_two_pi_rows_and_the_slow_pair_hardly_moves():
    f = facts(parse("sinusoids"))
    assert f["fast_period"] == pytest.approx(2 * np.pi)
    codes = np.array(compute(parse("sinusoids"))["codes"])
    assert (codes[:f["fast_first_negative"], 0] >= 0).all() and codes[f["fast_first_negative"], 0] < 0
    assert f["fast_first_negative"] == 4  # sin 3 > 0 > sin 4
    assert f["slow_period"] == pytest.approx(2 * np.pi * 10000 ** (14 / 16))
    assert f["slow_largest_sine"] == pytest.approx(np.sin(23 * 10000 ** (-14 / 16)))


def test_dot_products_depend_on_the_offset_only():
    data = compute(parse("sinusoids", {"positions": 40}))
    dots = np.array(data["dots"])
    for k in range(40):
        diag = np.diagonal(dots, k)
        assert np.ptp(diag) < 1e-12
    assert facts(parse("sinusoids"))["offset_spread"] < 1e-12
    np.testing.assert_allclose(dots, dots.T)
    np.testing.assert_allclose(np.diagonal(dots), 8.0)


def test_codes_are_the_engine_codes():
    data = compute(parse("sinusoids", {"positions": 10, "width": 8}))
    np.testing.assert_allclose(data["codes"], sinusoidal_positions(10, 8))
    assert np.diagonal(np.array(data["dots"])) == pytest.approx(4.0)


def test_one_state_per_position_with_the_dots_as_printed():
    data = compute(parse("sinusoids"))
    text = data["text"]
    n = len(data["codes"])
    assert len(text["states"]) == n
    for i, state in enumerate(text["states"]):
        assert state["bars"] == [fixed(v) for v in data["dots"][i]]
        assert state["numbers"][1].endswith(", ".join(state["bars"]))
    assert text["numbers"] == text["states"][data["position"]]["numbers"] + text["fixed"]
    assert text["states"][6]["label"] == "Position 6: dot product 8.00 with itself, 7.49 with 5 and 7.49 with 7"
    assert text["states"][0]["label"] == "Position 0: dot product 8.00 with itself, 7.49 with 1"


def test_position_past_the_end_is_clamped():
    assert compute(parse("sinusoids", {"positions": 5, "position": 40}))["position"] == 4


@pytest.mark.parametrize("raw, words", [({"width": 7}, "even"), ({"positions": 1}, "between"),
                                        ({"position": -1}, "between")])
def test_bad_options(raw, words):
    with pytest.raises(ParamError, match=words):
        compute(parse("sinusoids", raw))
