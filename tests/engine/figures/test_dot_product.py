import math

import numpy as np
import pytest

from engine.figures import ParamError, compute


@pytest.fixture(scope="module")
def data():
    return compute("dot-product")


def test_both_readouts_agree_everywhere(data):
    dot, geo = np.array(data["dot"]), np.array(data["geometric"])
    assert data["facts"]["largest_gap"] < 1e-12
    np.testing.assert_allclose(geo, dot, atol=1e-4)
    pts = np.array(data["points"])
    np.testing.assert_array_equal(dot, pts @ pts.T)


def test_start_example(data):
    s = data["facts"]["start"]
    assert (data["facts"]["a"], data["facts"]["b"]) == ([3, 1], [1, 2])
    assert s["dot"] == 5 and s["geometric"] == pytest.approx(5)
    assert s["angle"] == pytest.approx(45)
    assert data["facts"]["length_a"] * data["facts"]["length_b"] * s["cos"] == pytest.approx(5)


def test_zero_at_right_angles_negative_when_opposed(data):
    f = data["facts"]
    assert f["right_angle"]["dot"] == 0 and f["right_angle"]["angle"] == pytest.approx(90)
    assert f["opposed"]["dot"] < 0 and f["opposed"]["angle"] == pytest.approx(180)
    dot, angle = np.array(data["dot"]), np.array(data["angle"])
    assert np.all(dot[angle > 90.05] < 0) and np.all(dot[angle < 89.95] > 0)
    assert np.all(dot[np.abs(angle - 90) < 0.05] == 0)


def test_grid_size(data):
    assert data["facts"]["n_points"] == 48 == len(data["points"])
    assert [0, 0] not in data["points"]
    i, j = data["start"]
    assert data["points"][i] == [3, 1] and data["points"][j] == [1, 2]
    assert data["length"][i] == pytest.approx(math.sqrt(10), abs=1e-4)


@pytest.mark.parametrize("raw, words", [
    ({"a": [0, 0]}, "must not be"),
    ({"b": [4, 0]}, "outside the grid"),
    ({"a": [1.5, 0]}, "whole number"),
    ({"extent": 9}, "between"),
])
def test_bad_options(raw, words):
    with pytest.raises(ParamError, match=words):
        compute("dot-product", raw)
