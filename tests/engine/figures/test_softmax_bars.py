import math

import pytest

from engine.figures import ParamError, compute, facts, parse


def test_exponentials_total_and_weights_follow_the_two_steps():
    data = compute(parse("softmax-bars"))
    exps = [math.exp(s) for s in data["scores"]]
    assert data["exps"] == pytest.approx(exps, rel=1e-12)
    assert data["exp_sum"] == pytest.approx(sum(exps), rel=1e-12)
    assert data["weights"] == pytest.approx([e / sum(exps) for e in exps], rel=1e-12)
    assert sum(data["weights"]) == pytest.approx(1.0, abs=1e-12)


def test_default_facts_the_chapter_quotes():
    data, f = compute(parse("softmax-bars")), facts(parse("softmax-bars"))
    assert f["score"] == {"animal": 3.0, "cross": 0.0, "street": 1.0, "because": 0.0, "tired": 0.0}
    assert f["exp"]["animal"] == pytest.approx(20.0855, abs=5e-5)
    assert f["exp"]["street"] == pytest.approx(2.7183, abs=5e-5)
    assert f["exp"]["cross"] == 1.0  # e to the 0 is exactly 1
    assert f["exp_sum"] == pytest.approx(25.8038, abs=5e-5)
    assert f["weight"]["animal"] == pytest.approx(0.7784, abs=5e-5)
    assert f["weight"]["street"] == pytest.approx(0.1053, abs=5e-5)
    assert f["weight"]["tired"] == pytest.approx(0.0388, abs=5e-5)
    assert max(zip(data["weights"], data["labels"]))[1] == "animal"
    # A gap of 3 points buys a weight ratio of e^3, about 20; one point buys e, about 2.7.
    assert f["top_gap"] == 3.0
    assert f["top_ratio"] == pytest.approx(math.exp(3), rel=1e-12)
    assert f["weight"]["street"] / f["weight"]["tired"] == pytest.approx(f["e"], rel=1e-12)
    assert f["even_share"] == 0.2


def test_adding_a_constant_changes_the_exponentials_but_not_the_weights():
    base = compute(parse("softmax-bars"))
    shifted = compute(parse("softmax-bars", {"scores": [s + 2 for s in base["scores"]]}))
    assert shifted["exps"] == pytest.approx([e * math.exp(2) for e in base["exps"]], rel=1e-12)
    assert shifted["weights"] == pytest.approx(base["weights"], rel=1e-12)


def test_equal_scores_share_evenly_and_extremes_do_not_overflow():
    even = compute(parse("softmax-bars", {"scores": [1.5] * 5}))
    assert even["weights"] == pytest.approx([0.2] * 5)
    extreme = compute(parse("softmax-bars", {"scores": [10, -10], "labels": ["a", "b"]}))
    assert math.isfinite(extreme["exp_sum"]) and extreme["weights"][0] == pytest.approx(1.0, abs=1e-8)


@pytest.mark.parametrize("raw, words", [
    ({"labels": ["a", "b"]}, "one label per score"),
    ({"scores": [11, 0, 0, 0, 0]}, "between -10 and 10"),
    ({"scores": [1], "labels": ["a"]}, "2 to 8 items"),
    ({"temperature": 2}, "unknown option"),
])
def test_bad_options(raw, words):
    with pytest.raises(ParamError, match=words):
        compute(parse("softmax-bars", raw))


def test_text_lines_labels_and_total():
    data = compute(parse("softmax-bars", {"scores": [8, -2], "labels": ["animal", "cross"]}))
    text = data["text"]
    assert text["numbers"][0] == "Scores: animal 8.0, cross -2.0"
    assert text["exps"] == ["2981", "0.14"]  # no decimals past 1000
    assert text["exp_sum"] == "2981"
    assert text["total"].startswith("Total of the exponentials: 2981 + 0.14 = 2981. ")
    assert text["numbers"][2] == f"Weights: animal {data['weights'][0]:.2f}, cross 0.00"
    assert data["schema"]["scores"]["step"] == 0.5 and data["schema"]["scores"]["hi"] == 10


def test_bar_labels_print_by_the_parts():
    """A score bar's label and valuetext (parts.score, one decimal) and a weight bar's label (parts.weight,
    two) are the model's templates; the key numbers print scores and weights by the same parts."""
    from engine.figures.fmt import fill

    data = compute(parse("softmax-bars", {"scores": [2.5, -0.5, 0.0], "labels": ["a", "b", "c"]}))
    parts = data["text"]["parts"]
    scores = [fill(parts["score"], {"v": s}) for s in data["scores"]]
    weights = [fill(parts["weight"], {"v": w}) for w in data["weights"]]
    assert scores == ["2.5", "-0.5", "0.0"]
    assert weights == [f"{w:.2f}" for w in data["weights"]]
    assert data["text"]["numbers"][0] == "Scores: a 2.5, b -0.5, c 0.0"
    assert data["text"]["numbers"][2] == "Weights: " + ", ".join(f"{x} {w}" for x, w in zip("abc", weights))
    assert fill(parts["weight"], {"v": 0.125}) == "0.13"  # a tie rounds away from zero, as toFixed does
