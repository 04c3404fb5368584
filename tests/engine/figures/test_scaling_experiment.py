import math

import pytest

from engine.figures import ParamError, compute


def test_reproduces_the_reference_numbers():
    by_d = compute("scaling-experiment")["by_d"]
    assert by_d["2"]["unscaled"] == pytest.approx(0.41, abs=0.02)
    assert by_d["512"]["unscaled"] == pytest.approx(0.95, abs=0.02)
    assert by_d["512"]["scaled"] == pytest.approx(0.36, abs=0.02)


def test_scaling_keeps_the_spread_and_unscaled_saturates():
    rows = compute("scaling-experiment")["rows"]
    unscaled = [r["unscaled"] for r in rows]
    assert unscaled == sorted(unscaled)  # more certain as d grows
    assert max(r["scaled"] for r in rows) - min(r["scaled"] for r in rows) < 0.08
    for r in rows:  # the typical raw score grows like sqrt(d)
        assert r["score_spread"] == pytest.approx(math.sqrt(r["d"]), rel=0.15)
        assert 1 / 8 <= r["scaled"] <= 1 and 1 / 8 <= r["unscaled"] <= 1


def test_seed_and_keys_change_the_draw():
    base = compute("scaling-experiment", {"widths": [64]})["rows"][0]
    assert compute("scaling-experiment", {"widths": [64], "seed": 1})["rows"][0] != base
    two = compute("scaling-experiment", {"widths": [64], "keys": 2})
    assert two["uniform"] == 0.5 and two["rows"][0]["scaled"] > base["scaled"]


def test_work_is_bounded():
    with pytest.raises(ParamError, match="must stay below"):
        compute("scaling-experiment", {"queries": 5000, "keys": 64, "widths": [4096]})
