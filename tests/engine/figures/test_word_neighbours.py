import pytest

from engine.figures import ParamError, compute, facts, parse
from engine.tasks.corpus import cosine_matrix, word_space


@pytest.fixture(scope="module")
def data():
    return compute(parse("word-neighbours"))


def test_facts_from_the_full_vectors(data):
    f = facts(parse("word-neighbours"))
    assert f["vector_length"] == data["vector_length"] == 148
    assert f["tired_nearest"] == "sleepy"
    assert f["wide_nearest"] == "busy"
    assert f["wide_second"] == "hungry"  # an animal-describer: the prose says the vectors do not part them
    assert f["wide_busy"] > f["wide_hungry"] > f["tired_wide"]
    assert {f["cat_first"], f["cat_second"]} == {"horse", "dog"}
    assert f["street_top3"] == "river, road, park"
    assert f["tired_sleepy"] > f["tired_wide"] > 0


def test_rankings_are_sorted_cosines(data):
    space = word_space()
    cos = cosine_matrix(space.vectors)
    for i, ranking in enumerate(data["rankings"]):
        assert len(ranking) == 15 and data["words"][i] not in [w for w, _ in ranking]
        sims = [s for _, s in ranking]
        assert sims == sorted(sims, reverse=True)
        for w, s in ranking:
            assert s == pytest.approx(cos[i, space.words.index(w)])


def test_start_word():
    d = compute(parse("word-neighbours", {"word": "cat"}))
    assert d["words"][d["start"]] == "cat"


def test_unknown_word():
    with pytest.raises(ParamError, match="must be one of"):
        compute(parse("word-neighbours", {"word": "zebra"}))


def test_text_state_per_word(data):
    states = data["text"]["states"]
    i = data["words"].index("cat")
    assert states[i]["numbers"] == ["Nearest to “cat”: " + ", ".join(f"{w} {s:.2f}" for w, s in data["rankings"][i])]
    assert data["text"]["numbers"] == states[data["start"]]["numbers"]
    assert "tired" in data["schema"]["word"]["choices"] and len(data["schema"]["word"]["choices"]) == 16


def test_similarity_labels_print_by_the_part(data):
    """The view labels a bar by text.parts.similarity; the key numbers print each similarity the same way."""
    from engine.figures.fmt import fill

    part = data["text"]["parts"]["similarity"]
    for i in (data["start"], data["words"].index("cat")):
        ranking = data["rankings"][i]
        labels = [fill(part, {"v": s}) for _, s in ranking]
        assert labels == [f"{s:.2f}".replace("-0.00", "0.00") for _, s in ranking]
        assert data["text"]["states"][i]["numbers"][0].endswith(
            ", ".join(f"{w} {label}" for (w, _), label in zip(ranking, labels)))
