import math

import pytest

from engine.figures import ParamError, compute, facts, parse
from engine.figures.soft_lookup import bigrams, shared_bigrams


def test_cat_has_four_letter_pairs_with_start_and_end():
    assert bigrams("cat") == ["^c", "ca", "at", "t$"]
    assert facts(parse("soft-lookup"))["query_pairs"] == 4


def test_scores_count_shared_letter_pairs():
    assert facts(parse("soft-lookup"))["scores"] == {"cat": 4, "coat": 3, "cow": 1, "dog": 0, "hat": 2}
    assert shared_bigrams("cat", "coat") == ["^c", "at", "t$"]
    assert shared_bigrams("cat", "hat") == ["at", "t$"]
    # a pair repeated in the key counts only as often as the query has it
    assert shared_bigrams("cat", "catcat") == ["^c", "ca", "at", "t$"]  # not ca, at twice


def test_soft_weights_are_the_softmax_of_the_scores():
    data = compute(parse("soft-lookup"))
    total = sum(math.exp(e["score"]) for e in data["entries"])
    for e in data["entries"]:
        assert e["soft"] == pytest.approx(math.exp(e["score"]) / total, rel=1e-12)
    f = facts(parse("soft-lookup"))
    assert f["exp_sum"] == pytest.approx(total)
    top = max(data["entries"], key=lambda e: e["soft"])
    assert top["key"] == "cat" and top["soft"] == pytest.approx(0.6364, abs=5e-5)
    assert f["soft"]["coat"] == pytest.approx(0.2341, abs=5e-5)
    assert f["soft_elsewhere"] == pytest.approx(1 - top["soft"])


def test_hard_lookup_is_all_or_nothing():
    data = compute(parse("soft-lookup"))
    assert [e["hard"] for e in data["entries"]] == [1, 0, 0, 0, 0]
    assert data["text"]["states"][data["modes"].index("hard")]["label"].startswith("Result: the value of cat ")
    missing = compute(parse("soft-lookup", {"query": "bat"}))
    assert all(e["hard"] == 0 for e in missing["entries"])
    assert missing["text"]["states"][0]["label"] == "Result: nothing, since no key is exactly bat."
    assert facts(parse("soft-lookup", {"query": "bat"}))["scores"]["hat"] == 2  # at, t$


@pytest.mark.parametrize("raw, option, words", [
    ({"query": "Cat"}, "query", "lower-case letters"),
    ({"keys": ["cat", "do g"]}, "keys", "lower-case letters"),
    ({"keys": ["cat", "cat"], "values": ["a", "b"]}, "keys", "must not repeat"),
    ({"values": ["a", "b"]}, "values", "one value per key"),
    ({"mode": "fuzzy"}, "mode", "one of hard, soft"),
    ({"keys": ["cat"]}, "keys", "2 to 8 items"),
])
def test_bad_options(raw, option, words):
    with pytest.raises(ParamError, match=words) as err:
        compute(parse("soft-lookup", raw))
    assert err.value.option == option


def test_text_states_per_mode_and_details_per_key():
    data = compute(parse("soft-lookup"))
    text = data["text"]
    assert data["modes"] == ["hard", "soft"] and data["schema"]["mode"]["choices"] == ["hard", "soft"]
    assert [s["numbers"] for s in text["states"]] == [[], []] and text["fixed"] == text["numbers"]
    assert text["states"][1]["label"] == ("Result: a blend of every value, 0.64 of cat, 0.23 of coat, "
                                          "0.09 of hat, 0.03 of cow, 0.01 of dog.")
    assert text["numbers"][2] == "Soft lookup weights: " + ", ".join(
        f"{e['key']} {e['soft']:.2f}" for e in data["entries"])
    hat = data["entries"][4]
    assert text["details"][4] == (f"hat shares 2 of the 4 letter pairs of cat (at, t$): score 2, "
                                  f"weight {hat['soft']:.2f} in the soft lookup, 0 in the hard one.")


def test_weight_labels_print_by_the_modes_parts():
    """The view labels a weight by text.parts[mode]: whole in the hard mode, two decimals in the soft; the
    key numbers and the sentences print weights the same way."""
    from engine.figures.fmt import fill

    data = compute(parse("soft-lookup"))
    parts = data["text"]["parts"]
    assert set(parts) == set(data["modes"])
    entries = data["entries"]
    assert [fill(parts["hard"], {"v": e["hard"]}) for e in entries] == ["1", "0", "0", "0", "0"]
    soft = [fill(parts["soft"], {"v": e["soft"]}) for e in entries]
    assert soft == [f"{e['soft']:.2f}" for e in entries]
    numbers = data["text"]["numbers"]
    assert numbers[1] == "Hard lookup weights: cat 1, coat 0, cow 0, dog 0, hat 0"
    assert numbers[2] == "Soft lookup weights: " + ", ".join(f"{e['key']} {w}" for e, w in zip(entries, soft))
    assert f"weight {soft[1]} in the soft lookup, 0 in the hard one" in data["text"]["details"][1]
