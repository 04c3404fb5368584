"""chain-rule: the slope of y = e^(x²) by the chain rule, term by term, against a central difference
computed here, at every stop of the slider; the text says the model's numbers."""
from __future__ import annotations

import math

import numpy as np
import pytest

from engine.figures import ParamError, compute, module, parse
from engine.figures.fmt import fixed

NAME = "chain-rule"


@pytest.fixture(scope="module")
def data():
    return compute(parse(NAME))


def test_every_stop_is_the_chain_rule_and_agrees_with_a_central_difference(data):
    h = data["h"]
    for x, u, y, inner, outer, slope, numeric in zip(data["xs"], data["u"], data["y"], data["inner"],
                                                     data["outer"], data["slope"], data["numeric"]):
        assert u == pytest.approx(x * x) and y == pytest.approx(math.exp(x * x))
        assert inner == pytest.approx(2 * x) and outer == pytest.approx(math.exp(x * x))  # f′(x), g′(f(x))
        assert slope == pytest.approx(inner * outer)
        mine = (np.exp((x + h) ** 2) - np.exp((x - h) ** 2)) / (2 * h)  # numpy's exp: the same rounding
        assert numeric == pytest.approx(mine, rel=1e-12, abs=1e-12)
        assert abs(slope - numeric) < 1e-8 * max(1.0, abs(slope))  # agree to about nine digits or more


def test_the_slider_covers_its_range_and_opens_on_the_option(data):
    xs = data["xs"]
    assert xs[0] == -1.5 and xs[-1] == 1.5 and len(xs) == 31
    assert xs[data["start"]] == pytest.approx(0.8)
    assert data["text"]["numbers"] == data["text"]["states"][data["start"]]["numbers"]
    off = compute(parse(NAME, {"x": 0.83}))  # a point dragged between stops is a stop of its own
    assert len(off["xs"]) == 32 and off["xs"][off["start"]] == pytest.approx(0.83)


def test_each_tangent_has_the_slope_and_touches_the_curve_inside_the_box(data):
    for x, y, slope, ((x1, y1), (x2, y2)) in zip(data["xs"], data["y"], data["slope"], data["tangents"]):
        assert x1 < x2 and (y2 - y1) / (x2 - x1) == pytest.approx(slope)
        assert y1 + slope * (x - x1) == pytest.approx(y)  # the line passes through the point
        for xx, yy in ((x1, y1), (x2, y2)):
            assert -1.5 <= xx <= 1.5 and -1e-9 <= yy <= 10 + 1e-9


def test_the_text_says_the_products_terms_and_the_difference(data):
    i = data["start"]
    lines = data["text"]["numbers"]
    assert lines[0] == f"x = 0.80: u = x² = {fixed(0.64, 4)}, y = eᵘ = {fixed(math.exp(0.64), 4)}"
    assert f"slope = 1.6000 × {fixed(math.exp(0.64), 4)} = {fixed(data['slope'][i], 8)}" in lines[1]
    assert data["difference"][i] < 1e-9  # the text gives its order
    assert lines[2] == f"Central difference with h = 10⁻⁵: {fixed(data['numeric'][i], 8)}, off by less than 10⁻⁹"


def test_facts_are_the_opening_state_and_the_worst_agreement(data):
    facts = module(NAME).facts(parse(NAME), data)
    assert facts["slope"] == pytest.approx(1.6 * math.exp(0.64))
    worst = max(d / max(abs(s), 1) for d, s in zip(data["difference"], data["slope"]))
    assert 10 ** -(facts["digits"] + 1) <= worst < 10 ** -facts["digits"] and facts["digits"] >= 8


def test_a_smaller_nudge_is_not_always_better():
    """Rounding takes over below h ≈ 1e-5: at 1e-11 the check is far worse than at 1e-5."""
    near = compute(parse(NAME, {"h": 1e-5}))["difference"]
    tiny = compute(parse(NAME, {"h": 1e-11}))["difference"]
    assert max(tiny) > 100 * max(near)


def test_an_x_out_of_range_is_refused():
    with pytest.raises(ParamError, match="'x' must lie between"):
        parse(NAME, {"x": 2})
