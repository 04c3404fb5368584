import pytest

from engine.figures.fmt import fill, fixed, pairs, percent


@pytest.mark.parametrize("x, digits, out", [
    (0.5, 2, "0.50"), (2, 1, "2.0"), (-1.234, 2, "-1.23"), (1234.4, 0, "1234"),
    (-0.001, 2, "0.00"), (-0.0, 2, "0.00"), (-0.4, 0, "0"), (-0.01, 2, "-0.01"),
])
def test_fixed_is_to_fixed_without_negative_zero(x, digits, out):
    assert fixed(x, digits) == out


def test_pairs_and_percent():
    assert pairs(["cat", "sat"], [0.5, 0.25]) == "cat 0.50, sat 0.25"
    assert pairs(["a"], [3], 1) == "a 3.0"
    assert percent(0.7509) == "75%"


def test_fill_names_and_decimals():
    assert fill("({a1}, {a2}) = {dot}; {cos:3} and {g:2}", {"a1": 3, "a2": -1, "dot": 5, "cos": 0.7071, "g": -0.001}) \
        == "(3, -1) = 5; 0.707 and 0.00"
    with pytest.raises(KeyError):
        fill("{missing}", {})
