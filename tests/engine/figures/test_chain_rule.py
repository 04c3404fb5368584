"""chain-rule: the weights are the engine's softmax at every stop of the slider, and the text says them."""
from __future__ import annotations

import numpy as np
import pytest

from engine.figures import ParamError, compute, parse


def test_every_stop_is_the_softmax_of_the_sharpened_scores():
    data = compute(parse("chain-rule"))
    scores = np.array(data["scores"])
    for s, w in zip(data["sharpnesses"], data["weights"]):
        e = np.exp(s * scores - (s * scores).max())
        np.testing.assert_allclose(w, e / e.sum(), atol=1e-4)
    assert data["weights"][0] == pytest.approx([1 / len(scores)] * len(scores), abs=1e-4)  # sharpness 0: uniform


def test_the_opening_stop_is_the_option_and_its_numbers_are_listed():
    data = compute(parse("chain-rule", {"sharpness": 2.0}))
    i = data["start"]
    assert data["sharpnesses"][i] == 2.0
    assert data["text"]["numbers"] == data["text"]["states"][i]["numbers"] + data["text"]["fixed"]
    assert data["text"]["numbers"][0].startswith("Sharpness 2.00: cat ")
    assert len(data["text"]["states"]) == len(data["sharpnesses"])


def test_a_sharpness_out_of_range_is_refused():
    with pytest.raises(ParamError, match="'sharpness' must lie between"):
        parse("chain-rule", {"sharpness": 9})
