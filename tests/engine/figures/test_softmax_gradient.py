"""softmax-gradient: the formula A ⊙ (G − Σ G ⊙ A) agrees with central differences, and so does the
engine's softmax_backward, on ordinary and on large scores."""
from __future__ import annotations

import numpy as np
import pytest

from engine.figures import compute, facts, parse


@pytest.mark.parametrize("scores, upstream", [
    ((2, 1, 0, -1), (1, 0, 0, 0)),
    ((5, 5, -5, 0), (-5, 5, 2, 0.5)),
    ((0.5, -0.5), (3, -3)),
])
def test_formula_and_finite_differences_agree(scores, upstream):
    d = compute(parse("softmax-gradient", {"scores": list(scores), "upstream": list(upstream), "labels": list("abcd"[:len(scores)])}))
    a, g = np.array(d["weights"]), np.array(d["upstream"])
    np.testing.assert_allclose(d["formula"], a * (g - (g * a).sum()), atol=1e-15)
    assert d["largest_difference"] < 1e-8
    assert abs(sum(d["formula"])) < 1e-12  # adding a constant to every score changes nothing


def test_a_wrong_formula_would_be_caught():
    """The check has teeth: leaving out the Σ G ⊙ A term is off by far more than the tolerance."""
    d = compute(parse("softmax-gradient"))
    wrong = np.array(d["weights"]) * np.array(d["upstream"])
    assert np.max(np.abs(wrong - np.array(d["numeric"]))) > 0.1


def test_facts():
    f = facts(parse("softmax-gradient"))
    assert f["largest_difference"] < 1e-8 and f["h"] == 1e-5
    # Chapter 9: the gap is within the check's own error, both of whose orders lie far above eps.
    assert f["truncation"] == pytest.approx(1e-10) and f["rounding"] == pytest.approx(2.22e-11, rel=1e-3)
    assert f["eps"] * 1e4 < f["largest_difference"] < max(f["truncation"], f["rounding"])


def test_the_nudge_example_matches_the_slopes():
    """Chapter 9's worked example: raising the first score by 0.01 moves each weight by about its slope
    times 0.01, its own up by w(1 - w), every other down by w_i w_0; the changes add up to zero."""
    d = compute(parse("softmax-gradient"))
    n = facts(parse("softmax-gradient"))["nudge"]
    w = np.array(d["weights"])
    assert n["by"] == 0.01
    np.testing.assert_allclose(n["slopes"], [w[0] * (1 - w[0])] + list(-w[1:] * w[0]), rtol=1e-12)
    np.testing.assert_allclose(n["change"], n["predicted"], atol=1e-4)
    assert n["change"][0] > 0 and all(c < 0 for c in n["change"][1:]) and abs(sum(n["change"])) < 1e-12
    # with G = (1, 0, 0, 0) the loss is the first weight, so the gradient is the row of slopes
    assert d["upstream"] == [1.0, 0.0, 0.0, 0.0]
    np.testing.assert_allclose(d["formula"], n["slopes"], atol=1e-15)
    assert d["mean_upstream"] == w[0]
