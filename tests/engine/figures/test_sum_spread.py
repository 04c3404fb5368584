"""sum-spread: the sums are the running totals of the drawn terms, their spread is measured from them
and grows like √n times one term's, and the histogram counts every sum once."""
from __future__ import annotations

import math

import numpy as np
import pytest

from engine.figures import ParamError, compute, facts, parse
from engine.figures.sum_spread import MAX_N, draw_terms


@pytest.mark.parametrize("term", ["coin", "uniform"])
def test_measured_spread_is_the_sums_and_follows_root_n(term):
    p = parse("sum-spread", {"term": term})
    data = compute(p)
    sums = np.cumsum(draw_terms(p), axis=1)  # recomputed here from the same draws
    assert data["std"] == pytest.approx(sums.std(axis=0).tolist(), abs=1e-4)
    sigma = 1.0 if term == "coin" else 1 / math.sqrt(3)  # a coin: ±1; even on [-1, 1]: variance 1/3
    assert data["sigma"] == pytest.approx(sigma)
    assert data["predicted"] == pytest.approx([math.sqrt(n) * sigma for n in range(1, MAX_N + 1)], abs=1e-4)
    ratio = np.array(data["std"]) / np.array(data["predicted"])
    assert np.all(np.abs(ratio - 1) < 0.1)  # 2,000 runs measure the spread to a few percent at every n
    assert data["std"][63] > 7 * data["std"][0]  # 64 terms spread about 8 times as wide as one


@pytest.mark.parametrize("term", ["coin", "uniform"])
def test_histograms_hold_every_sum_in_the_right_bar(term):
    p = parse("sum-spread", {"term": term, "runs": 300})
    data = compute(p)
    sums = np.cumsum(draw_terms(p), axis=1)
    w = data["bin"]
    for n in (1, 2, 7, 64):
        counts, first = data["counts"][n - 1], data["first"][n - 1]
        assert sum(counts) == 300
        centres = first + w * np.arange(len(counts))
        for k, c in enumerate(counts):
            inside = np.sum(np.abs(sums[:, n - 1] - centres[k]) < w / 2 + 1e-9) if term == "coin" else \
                np.sum((sums[:, n - 1] >= centres[k] - w / 2 - 1e-9) & (sums[:, n - 1] < centres[k] + w / 2 - 1e-9))
            assert inside == c, (n, k)
        if term == "coin":  # n flips sum to n, n - 2, ...: every bar a value of n's parity
            assert all(round(c) % 2 == n % 2 for c in centres)


def test_states_are_one_per_n_and_the_text_opens_at_the_option():
    data = compute(parse("sum-spread", {"n": 9}))
    assert len(data["text"]["states"]) == MAX_N and data["start"] == 8
    assert data["text"]["numbers"][0] == (f"n = 9: standard deviation of the 2,000 sums {data['std'][8]:.2f}; "
                                          f"√9 × 1.00 = 3.00")


def test_facts_work_the_example_and_two_coins_by_hand():
    f = facts(parse("sum-spread", {"example": [2, 4, 9]}))
    ex = f["example"]
    assert ex["mean"] == 5 and ex["deviations"] == [-3, -1, 4] and ex["squares"] == [9, 1, 16]
    assert ex["variance"] == pytest.approx(26 / 3) and ex["std"] == pytest.approx(math.sqrt(26 / 3))
    assert f["coin"]["variance"] == 1 and sorted(f["coin"]["two_sums"]) == [-2, 0, 0, 2]
    assert f["coin"]["two_variance"] == 2  # 1 + 1: the variances of independent terms add
    assert f["at"]["64"]["sqrt"] == 8 and f["at"]["64"]["std"] == pytest.approx(8, rel=0.1)


def test_another_seed_draws_again_and_bad_options_are_refused():
    assert compute(parse("sum-spread", {"seed": 1}))["std"] != compute(parse("sum-spread"))["std"]
    with pytest.raises(ParamError, match="'n' must lie between"):
        parse("sum-spread", {"n": 65})
    with pytest.raises(ParamError, match="must be one of coin, uniform"):
        parse("sum-spread", {"term": "dice"})
