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


@pytest.mark.parametrize("x, digits, out", [
    (0.125, 2, "0.13"), (2.5, 0, "3"), (-2.5, 0, "-3"), (0.5, 0, "1"),  # ties go away from zero, as toFixed
    (1.005, 2, "1.00"),  # 1.005 is stored a hair below 1.005: the exact value rounds down, as toFixed
])
def test_fixed_rounds_as_javascript_to_fixed(x, digits, out):
    assert fixed(x, digits) == out


def test_fill_items_of_a_list_and_plain_numbers():
    values = {"w": ["cat", "{x}"], "s": [0.125, -0.001], "n": 3.0, "c": 0.6, "x": 1}
    assert fill("{w.0} {s.0:2}, {w.1} {s.1:2}; {n} {c}", values) == "cat 0.13, {x} 0.00; 3 0.6"
    assert fill("{c} {n}", {"c": 0.30000000000000004, "n": -0.0}) == "0.30000000000000004 0"


@pytest.mark.parametrize("template, values", [
    ("{s.2:2}", {"s": [1, 2]}),  # no such item
    ("{s.0}", {"s": 3}),  # not a list
    ("{c}", {"c": 0.00001}),  # Python would print 1e-05, JS 0.00001: give decimals
    ("{b}", {"b": True}),  # True / true
    ("{t:2}", {"t": "text"}),
    ("{n}", {"n": 2.0 ** 60}),  # beyond JS's safe whole numbers
])
def test_fill_refuses_what_python_and_js_would_print_differently(template, values):
    with pytest.raises(ValueError):
        fill(template, values)
