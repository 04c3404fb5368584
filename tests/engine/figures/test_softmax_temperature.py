import math

import pytest

from engine.figures import ParamError, compute, facts, parse


def test_weights_are_softmax_of_scores_over_temperature():
    data = compute(parse("softmax-temperature"))
    for t, w in zip(data["temperatures"], data["weights"]):
        exps = [math.exp(s / t - max(data["scores"]) / t) for s in data["scores"]]
        assert w == pytest.approx([e / sum(exps) for e in exps], rel=1e-12)
    assert data["temperatures"][data["start"]] == pytest.approx(1.0)


def test_low_temperature_picks_the_top_and_high_spreads_out():
    f = facts(parse("softmax-temperature"))
    assert f["top_weight_at_min"] > 0.9999
    assert f["top_weight_at_1"] == pytest.approx(math.exp(2) / sum(math.exp(s) for s in (2, 1, 0.5, -1)))
    assert 0.25 < f["top_weight_at_max"] < f["top_weight_at_1"]


def test_grid_includes_the_requested_start():
    data = compute(parse("softmax-temperature", {"temperature": 3.3}))
    assert data["temperatures"][data["start"]] == pytest.approx(3.3)


@pytest.mark.parametrize("raw, words", [
    ({"labels": ["a", "b"]}, "one label per score"),
])
def test_inconsistent_options(raw, words):
    with pytest.raises(ParamError, match=words):
        compute(parse("softmax-temperature", raw))


def test_text_state_per_temperature():
    data = compute(parse("softmax-temperature"))
    states = data["text"]["states"]
    assert len(states) == len(data["temperatures"])
    i = len(states) // 3
    w = data["weights"][i]
    assert states[i]["numbers"][1] == f"Temperature {data['temperatures'][i]:.2f}: " + ", ".join(
        f"{label} {x:.2f}" for label, x in zip(data["labels"], w))


def test_labels_and_slider_text_print_by_the_parts():
    """The view's score and weight labels, the slider's valuetext and its readout are the model's parts;
    each state's key numbers print the weights as the bars' labels do."""
    from engine.figures.fmt import fill

    data = compute(parse("softmax-temperature"))
    parts = data["text"]["parts"]
    i = data["start"]
    t, w = data["temperatures"][i], data["weights"][i]
    assert fill(parts["temperature"], {"v": t}) == "temperature 1.00"
    assert fill(parts["readout"], {"v": data["temperatures"][0]}) == f"T = {data['temperatures'][0]:.2f}"
    assert [fill(parts["score"], {"v": s}) for s in data["scores"]] == ["2.0", "1.0", "0.5", "-1.0"]
    labels = [fill(parts["weight"], {"v": x}) for x in w]
    assert labels == [f"{x:.2f}" for x in w]
    assert data["text"]["states"][i]["numbers"][1] == (
        f"Temperature {t:.2f}: " + ", ".join(f"{word} {x}" for word, x in zip(data["labels"], labels)))
