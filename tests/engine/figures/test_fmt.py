import pytest

from engine.figures.fmt import fill, fixed, pairs, percent, scope_at, states


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


def test_fill_whole_numbers_as_written_others_to_decimals():
    assert fill("{a:~4} {b:~4} {c:~2} {z:~2} {s.1:~1}", {"a": 2.0, "b": 0.5, "c": -1, "z": -0.0, "s": [0, 0.25]}) \
        == "2 0.5000 -1 0 0.3"


DATA = {"xs": [10, 20, 30], "ys": ["a", "b"], "grid": {"near": [[2, 0], [1, 1], [0, 2], [2, 2], [1, 0], [0, 1]]},
        "every": 5, "runs": [{"from": 0, "v": [7, 8, 9]}, {"from": 1, "v": [90]}], "names": {"b": "bee"}}


def test_a_scope_splits_the_state_over_its_index_arrays_last_fastest():
    scope = {"index": [["y", "ys"], ["x", "xs"]],
             "values": {"x_at": "xs[x]", "y_at": "ys[y]", "name": "names[y_at]", "near": "xs[grid.near[i]]",
                        "last": "xs[-1]", "place": "x + 1", "step": "x * every - 2 * every"}}
    assert states(scope, DATA) == 6
    assert scope_at(scope, DATA, 4) == {"x_at": 20, "y_at": "b", "name": "bee", "near": [20, 10], "last": 30,
                                        "place": 2, "step": -5}


def test_a_caller_may_give_a_scopes_step_in_its_place():
    scope = {"index": [["k", "xs"]], "let": {"run": "runs.0"}, "values": {"v": "run.v[k - run.from]"}}
    assert scope_at(scope, DATA, 2) == {"v": 9}
    assert scope_at(scope, DATA, 1, {"run": DATA["runs"][1]}) == {"v": 90}


@pytest.mark.parametrize("expr, i", [("xs[x + 3]", 0), ("ys[x]", 2), ("xs * 2", 0), ("ys.0 + 1", 0), ("zs", 0),
                                     ("xs[x", 0), ("xs[x] xs", 0), ("xs.b", 0), ("xs[x]", 3)])
def test_a_scope_refuses_what_it_cannot_read(expr, i):
    with pytest.raises(ValueError):
        scope_at({"index": [["x", "xs"]], "values": {"v": expr}}, DATA, i)
