"""exp-log: exponentials, shares and the loss at every stop of the right answer's score, computed
here from the scores, and the text and facts that say them."""
from __future__ import annotations

import math

import numpy as np
import pytest

from engine.figures import compute, module, parse

NAME = "exp-log"


@pytest.fixture(scope="module")
def data():
    return compute(parse(NAME))


def test_every_stop_is_exp_then_shares_then_minus_log(data):
    k = data["answer"]
    for i, a in enumerate(data["stops"]):
        scores = [a if j == k else v for j, v in enumerate(data["scores"])]
        e = [math.exp(v) for v in scores]
        assert data["exps"][i] == pytest.approx(e) and min(data["exps"][i]) > 0  # every one positive
        assert data["shares"][i] == pytest.approx([v / sum(e) for v in e])
        assert sum(data["shares"][i]) == pytest.approx(1)
        assert data["loss"][i] == pytest.approx(-math.log(e[k] / sum(e)))
        assert data["bits"][i] == pytest.approx(data["loss"][i] / math.log(2))


def test_a_difference_of_scores_is_a_ratio_of_shares(data):
    for i, a in enumerate(data["stops"]):
        w = data["shares"][i]
        assert w[0] / w[1] == pytest.approx(math.exp(a - data["scores"][1]))


def test_the_loss_falls_as_the_right_score_rises_and_is_zero_at_share_one(data):
    assert np.all(np.diff(data["loss"]) < 0)
    curve = data["curve"]
    assert curve["p"][-1] == 1 and curve["loss"][-1] == 0
    assert np.all(np.diff(curve["loss"]) < 0)


def test_the_opening_state_is_the_option_and_the_text_says_it(data):
    i = data["start"]
    assert data["stops"][i] == 2.0
    lines = data["text"]["numbers"]
    assert lines == data["text"]["states"][i]["numbers"]
    assert lines[0] == "Scores: cat 2.0, sat 1.0, mat 0.0"
    assert lines[3] == "cat's share ÷ sat's = e^(2.0 − 1.0) = 7.389 ÷ 2.718 = 2.718"
    nats = -math.log(math.exp(2) / (math.exp(2) + math.exp(1) + 1))
    assert lines[4] == f"Loss −ln p(cat) = {nats:.3f} nats = {nats / math.log(2):.3f} bits"


def test_facts(data):
    facts = module(NAME).facts(parse(NAME), data)
    assert facts["ratio"] == pytest.approx(math.e) and facts["difference"] == 1
    assert facts["ln2"] == pytest.approx(math.log(2))
    assert facts["even_loss"] == pytest.approx(math.log(3))
    assert facts["lowest_loss"] > facts["loss"] > 0 and 0 < facts["lowest_share"] < facts["lowest_exp"] < 0.1


def test_another_right_answer():
    other = compute(parse(NAME, {"scores": [1, 3.5], "labels": ["a", "b"], "answer": 1}))
    assert other["stops"][other["start"]] == 3.5
    assert other["loss"][other["start"]] == pytest.approx(-math.log(math.exp(3.5) / (math.e + math.exp(3.5))))
