import math

import numpy as np
import pytest

from engine.figures import ParamError, compute, facts, parse
from engine.figures.dot_product import grid_points, readouts


@pytest.fixture(scope="module")
def data():
    return compute(parse("dot-product"))


def test_both_readouts_agree_everywhere(data):
    exact = readouts(grid_points(3))
    assert np.abs(exact["dot"] - exact["geometric"]).max() < 1e-12
    dot, geo = np.array(data["dot"]), np.array(data["geometric"])
    np.testing.assert_allclose(geo, dot, atol=0.005)  # shown to 2 decimals
    pts = np.array(data["points"])
    np.testing.assert_array_equal(dot, pts @ pts.T)


def test_start_example():
    f = facts(parse("dot-product"))
    s = f["start"]
    assert (f["a"], f["b"]) == ([3, 1], [1, 2])
    assert s["dot"] == 5 and s["geometric"] == pytest.approx(5)
    assert s["angle"] == pytest.approx(45)
    assert f["length_a"] * f["length_b"] * s["cos"] == pytest.approx(5)


def test_zero_at_right_angles_negative_when_opposed(data):
    f = facts(parse("dot-product"))
    assert f["right_angle"]["dot"] == 0 and f["right_angle"]["angle"] == pytest.approx(90)
    assert f["opposed"]["dot"] < 0 and f["opposed"]["angle"] == pytest.approx(180)
    dot, angle = np.array(data["dot"]), np.array(data["angle"])
    assert np.all(dot[angle > 90.05] < 0) and np.all(dot[angle < 89.95] > 0)
    assert np.all(dot[np.abs(angle - 90) < 0.05] == 0)


def test_grid_size(data):
    assert len(data["points"]) == 48
    assert [0, 0] not in data["points"]
    i, j = data["start"]
    assert data["points"][i] == [3, 1] and data["points"][j] == [1, 2]
    assert data["length"][i] == round(math.sqrt(10), 2)


@pytest.mark.parametrize("raw, words", [
    ({"b": [4, 0]}, "outside the grid"),
    ({"a": [1.5, 0]}, "whole number"),
    ({"extent": 9}, "between"),
])
def test_bad_options(raw, words):
    with pytest.raises(ParamError, match=words):
        compute(parse("dot-product", raw))


def test_templates_filled_for_any_pair_read_the_pairs_values(data):
    from engine.figures.dot_product import TEMPLATES
    from engine.figures.fmt import fill, scope_at

    def slots(data, i, j):
        return scope_at(data["text"]["scope"], data, i * len(data["points"]) + j)
    assert data["text"]["templates"] == list(TEMPLATES)
    assert data["text"]["numbers"] == ["a = (3, 1), b = (1, 2), angle 45.0°",
                                       "Sum of products: (3)(1) + (1)(2) = 5",
                                       "|a| |b| cos θ: 3.16 × 2.24 × cos 45.0° = 3.16 × 2.24 × 0.707 = 5.00"]
    pts = data["points"]
    i, j = pts.index([-2, 3]), pts.index([1, -1])
    lines = [fill(t, slots(data, i, j)) for t in TEMPLATES]
    assert lines[1] == "Sum of products: (-2)(1) + (3)(-1) = -5"
    assert lines[0].endswith(f"angle {data['angle'][i][j]:.1f}°")
    assert lines[2].endswith(f"= {data['geometric'][i][j]:.2f}") and "-5.00" in lines[2]
    right = pts.index([-1, 3])  # a = (3, 1) turned a quarter: zero, never "-0.00"
    assert fill(TEMPLATES[2], slots(data, pts.index([3, 1]), right)).endswith("× 0.000 = 0.00")
