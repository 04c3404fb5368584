import numpy as np
import pytest

from engine.attention import softmax_forward
from engine.figures import ParamError, compute, facts, parse
from engine.tasks import winograd


def test_it_puts_about_three_quarters_on_animal_or_street():
    data, f = compute(parse("winograd-head")), facts(parse("winograd-head"))
    tired, wide = data["modes"]["tired"], data["modes"]["wide"]
    assert tired["words"][tired["top"]] == "animal" and wide["words"][wide["top"]] == "street"
    assert f["tired_animal_weight"] == pytest.approx(0.75, abs=0.005)
    assert f["wide_street_weight"] == pytest.approx(0.75, abs=0.005)
    # The rest is spread thinly: no other word gets even a twentieth (street with tired, animal with wide too).
    assert f["largest_other_weight"] < 0.05
    assert tired["weights"][tired["words"].index("street")] < 0.05 and wide["weights"][wide["words"].index("animal")] < 0.05


def test_six_numbers_per_word_and_weights_from_the_engine():
    data = compute(parse("winograd-head"))
    assert facts(parse("winograd-head"))["numbers_per_word"] == len(data["features"]) == 6
    for last in ("tired", "wide"):
        mode = data["modes"][last]
        assert len(mode["words"]) == 11 and mode["words"][-1] == last
        assert all(len(v) == 6 for v in mode["vectors"])
        assert sum(mode["weights"]) == pytest.approx(1.0)
        # Recompute the row of "it" by hand: softmax(q . k / sqrt(2)).
        x = np.array(mode["vectors"])
        wq, wk, _ = winograd.matrices()
        q, k = x @ wq[0], x @ wk[0]
        expected, _ = softmax_forward(q[winograd.IT] @ k.T / np.sqrt(2))
        np.testing.assert_allclose(mode["weights"], expected, rtol=1e-12)


def test_nothing_copied_means_it_looks_everywhere_alike():
    mode = compute(parse("winograd-head", {"copied": 0.0}))["modes"]["tired"]
    np.testing.assert_allclose(mode["weights"], 1 / 11)


def test_the_head_as_later_chapters_describe_it():
    # Query strength 8: animal gets about 96%; strength 1: about 17%, others about 8% each.
    strong = facts(parse("winograd-head", {"strength": 8}))["tired_animal_weight"]
    weak = compute(parse("winograd-head", {"strength": 1}))["modes"]["tired"]["weights"]
    assert strong == pytest.approx(0.96, abs=0.005)
    assert weak[1] == pytest.approx(0.17, abs=0.005)
    assert max(w for i, w in enumerate(weak) if i != 1) < 0.1
    r = winograd.run("tired")
    np.testing.assert_allclose(r["outputs"][winograd.IT], (0.76, 0.02), atol=0.005)
    assert r["weights"][-1].max() > 0.95  # "tired" itself looks sharply at "animal"


@pytest.mark.parametrize("raw, words", [
    ({"last": "sleepy"}, "must be one of tired, wide"),
    ({"copied": 1.5}, "between"),
    ({"strength": "big"}, "must be a number"),
])
def test_bad_options(raw, words):
    with pytest.raises(ParamError, match=words):
        compute(parse("winograd-head", raw))


def test_text_states_follow_the_last_word():
    data = compute(parse("winograd-head", {"last": "wide"}))
    text = data["text"]
    assert [s["label"] for s in text["states"]] == [
        "With “tired”, “it” puts 75% of its attention on “animal”",
        "With “wide”, “it” puts 75% of its attention on “street”"]
    wide = data["modes"]["wide"]
    line = text["states"][1]["numbers"][0]
    assert line.startswith("Last word “wide”, attention from “it”: The ")
    assert line.endswith(", ".join(f"{w} {x:.2f}" for w, x in zip(wide["words"], wide["weights"]))[-40:])
    assert text["numbers"] == text["states"][1]["numbers"]
    assert data["schema"]["last"]["choices"] == ["tired", "wide"]
    assert text["states"][1]["bars"] == [f"{round(100 * x)}%" for x in wide["weights"]]
    from engine.figures.fmt import fill
    assert fill(text["parts"]["cell"], {"v": wide["vectors"][1][0]}) == f"{wide['vectors'][1][0]:.1f}"
