"""attention-stages: raw, scaled and softmax grids of the trained head at each of its 21 checkpoints."""
from __future__ import annotations

import numpy as np
import pytest

from engine.figures import ParamError, compute, facts, parse
from engine.tasks import grammar


@pytest.fixture(scope="module")
def data():
    return compute(parse("attention-stages"))


def test_twenty_one_checkpoints_every_20_steps(data):
    assert data["steps"] == list(range(0, 401, 20))
    assert np.shape(data["grids"]) == (21, 3, 6, 6)
    f = facts(parse("attention-stages"))
    assert (f["checkpoints"], f["first_step"], f["last_step"], f["every"]) == (21, 0, 400, 20)


def test_each_stage_follows_from_the_one_before(data):
    g = np.array(data["grids"])  # (C, 3, n, n)
    assert np.allclose(g[:, 1], g[:, 0] / np.sqrt(6), atol=2e-3)
    e = np.exp(g[:, 1] - g[:, 1].max(axis=-1, keepdims=True))
    assert np.allclose(g[:, 2], e / e.sum(axis=-1, keepdims=True), atol=3e-3)
    assert np.allclose(g[:, 2].sum(axis=-1), 1, atol=3e-3)
    top = np.take_along_axis(g[:, 2], np.array(data["top"])[..., None], -1)[..., 0]  # (C, n)
    assert np.all(top >= g[:, 2].max(axis=-1) - 1e-3)  # each row's top is its largest weight


def test_the_grids_are_the_runs_checkpoints(data):
    run = grammar.trained(0)
    for c in (0, 7, 20):
        h = run.export("the cat sat on the mat", c)["heads"][0]
        assert np.allclose(data["grids"][c][0], h["scores"], atol=5e-4)


def test_training_sharpens_the_rows(data):
    """Near-uniform weights at step 0 (6 words: about 1/6 each); one word takes almost all by step 400."""
    w = np.array(data["grids"])[:, 2]  # (C, n, n)
    assert w[0].max() < 0.3
    assert w[-1].max(axis=-1).min() > 0.9
    f = facts(parse("attention-stages"))
    assert f["row_word"] == "cat" and f["first_top_weight"] < 0.25
    assert f["last_top_word"] == "sat" and f["last_top_weight"] > 0.99
    assert data["extent"][2] <= 1.0 and data["extent"][0] > data["extent"][1]


def test_templates_describe_the_selected_row():
    d = compute(parse("attention-stages", {"row": 5, "checkpoint": 0, "head": 2}))
    lines = d["text"]["numbers"]
    assert lines[0].startswith("Step 0 of 400, head 2: row of mat (word 6)")
    assert len(d["text"]["stages"]) == 3 and "√6 ≈ 2.449" in d["text"]["stages"][1]["text"]


@pytest.mark.parametrize("params, message", [
    ({"sentence": "a cat"}, "option 'sentence' must follow the grammar"),
    ({"row": 6}, "option 'row' must name one of the 6 words"),
    ({"checkpoint": 21}, "option 'checkpoint'"),
    ({"stage": 3}, "option 'stage'"),
])
def test_bad_options_name_the_option(params, message):
    with pytest.raises(ParamError, match=message):
        compute(parse("attention-stages", params))
