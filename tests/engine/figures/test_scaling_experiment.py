import math

import pytest

from engine.figures import ParamError, compute, parse


def test_reproduces_the_reference_numbers():
    by_d = compute(parse("scaling-experiment"))["by_d"]
    assert by_d["2"]["unscaled"] == pytest.approx(0.41, abs=0.02)
    assert by_d["512"]["unscaled"] == pytest.approx(0.95, abs=0.02)
    assert by_d["512"]["scaled"] == pytest.approx(0.36, abs=0.02)


def test_scaling_keeps_the_spread_and_unscaled_saturates():
    rows = compute(parse("scaling-experiment"))["rows"]
    unscaled = [r["unscaled"] for r in rows]
    assert unscaled == sorted(unscaled)  # more certain as d grows
    assert max(r["scaled"] for r in rows) - min(r["scaled"] for r in rows) < 0.08
    for r in rows:  # the typical raw score grows like sqrt(d)
        assert r["score_spread"] == pytest.approx(math.sqrt(r["d"]), rel=0.15)
        assert 1 / 8 <= r["scaled"] <= 1 and 1 / 8 <= r["unscaled"] <= 1


def test_seed_and_keys_change_the_draw():
    base = compute(parse("scaling-experiment", {"widths": [64]}))["rows"][0]
    assert compute(parse("scaling-experiment", {"widths": [64], "seed": 1}))["rows"][0] != base
    two = compute(parse("scaling-experiment", {"widths": [64], "keys": 2}))
    assert two["uniform"] == 0.5 and two["rows"][0]["scaled"] > base["scaled"]


def test_start_row_and_key_choices_come_from_the_model():
    data = compute(parse("scaling-experiment"))
    assert data["rows"][data["start"]]["d"] == 512
    assert compute(parse("scaling-experiment", {"start_d": 3, "widths": [1, 2, 4]}))["start"] == 1  # the nearest width
    assert data["schema"]["keys"]["choices"] == [2, 4, 8, 16, 32]
    with pytest.raises(ParamError, match="one of 2, 4, 8, 16, 32"):
        compute(parse("scaling-experiment", {"keys": 5}))


def test_text_readout_per_width():
    data = compute(parse("scaling-experiment"))
    text = data["text"]
    assert len(text["states"]) == len(data["rows"]) and text["fixed"] == text["numbers"]
    for row, state, line in zip(data["rows"], text["states"], text["fixed"]):
        assert state["numbers"] == []
        assert state["label"] == (f"d = {row['d']}: largest weight {row['unscaled']:.2f} as is, "
                                  f"{row['scaled']:.2f} divided by √d")
        assert line == f"d = {row['d']}: {row['unscaled']:.2f} unscaled, {row['scaled']:.2f} scaled"
