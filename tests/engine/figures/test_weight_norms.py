"""weight-norms: weights against weighted-vector lengths (Kobayashi et al. 2020) on chapter 9's model."""
from __future__ import annotations

import numpy as np
import pytest

from engine.figures import ParamError, compute, parse
from engine.tasks import grammar


@pytest.fixture(scope="module")
def data():
    return compute(parse("weight-norms"))


def test_lengths_are_weights_times_value_lengths_and_shares_add_up_to_one(data):
    for head in data["heads"]:
        w, v = np.array(head["weights"]), np.array(head["value_lengths"])
        np.testing.assert_allclose(head["weighted"], w * v[None, :], atol=0.01)
        np.testing.assert_allclose(np.array(head["shares"]).sum(axis=1), 1.0, atol=0.004)


def test_value_lengths_are_the_models(data):
    run = grammar.trained(data["seed"])
    s = grammar.parse(" ".join(data["words"]))
    x = grammar.encode(s.words[:, :len(data["words"])])[0]
    for h, head in enumerate(data["heads"]):
        np.testing.assert_allclose(head["value_lengths"], np.linalg.norm(x @ run.params["wv"][h], axis=-1), atol=5e-4)


def test_the_opening_row_ranks_two_words_differently_by_weight_and_by_length(data):
    """Seed 1, head 2, the row of "box": the larger weight and the larger weighted vector fall on different words."""
    h, i = data["start"]["head"], data["start"]["row"]
    w, s = data["heads"][h]["weights"][i], data["heads"][h]["shares"][i]
    assert int(np.argmax(w)) != int(np.argmax(s))
    assert data["text"]["numbers"][-1] == "Largest weight: stood; largest weighted vector: a"


def test_a_row_past_the_sentence_is_refused():
    with pytest.raises(ParamError, match="option 'row' must name one of the 6 words"):
        compute(parse("weight-norms", {"sentence": "the cat sat on the mat", "row": 6}))
