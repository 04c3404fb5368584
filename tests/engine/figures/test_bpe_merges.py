"""bpe-merges: engine/bpe.py's merges on the series' own prose, stepped through at the slider's stops,
and the facts chapter 14 quotes (engine/bpe.py's own tests hold the hand-checked text)."""
from __future__ import annotations

import pytest

from engine.bpe import apply_merges, learn_merges
from engine.figures import ParamError, compute, facts, parse
from engine.figures.bpe_merges import SPACE, shown, stops
from engine.given import SERIES
from engine.tasks.writing import WritingConfig

NAME = "bpe-merges"


@pytest.fixture(scope="module")
def prose(series_given) -> str:
    return series_given[SERIES].decode()


@pytest.fixture(scope="module")
def data(prose, series_given):
    return compute(parse(NAME), series_given)


def test_the_merges_are_the_engines_on_the_series_prose(prose, data):
    learned = learn_merges(prose, 500)
    assert data["merges"] == [f"{shown(a)} + {shown(b)} → {shown(a + b)}" for a, b in learned.pairs]
    assert data["lengths"] == list(learned.lengths)
    assert data["characters"] == len(prose) == data["lengths"][0]
    assert data["base"] == len(set(prose))


def test_stops_grow_from_none_to_every_merge_learned():
    assert stops(500) == [0, 1, 2, 3, 4, 5, 6, 8, 10, 15, 20, 30, 40, 50, 60, 80, 100, 150, 200, 300, 400, 500]
    assert stops(120) == [0, 1, 2, 3, 4, 5, 6, 8, 10, 15, 20, 30, 40, 50, 60, 80, 100, 120]
    assert stops(4) == [0, 1, 2, 3, 4]
    assert stops(2000)[-5:] == [600, 800, 1000, 1500, 2000]


def test_each_stop_cuts_the_sentence_as_its_merges_do(prose, data):
    sentence = data["sentence"]
    counts = []
    learned = learn_merges(prose, 500)
    for k, tokens in zip(data["stops"], data["tokens"]):
        raw = apply_merges(sentence, learned.pairs[:k])
        assert tokens == [shown(t) for t in raw]
        assert "".join(tokens) == sentence.replace(" ", SPACE)
        counts.append(len(tokens))
    assert counts[0] == len(sentence)
    assert counts == sorted(counts, reverse=True) and counts[-1] < counts[0] / 2


def test_text_states_give_each_stops_numbers(data, series_given):
    states = data["text"]["states"]
    assert len(states) == len(data["stops"]) and data["start"] == len(states) - 1
    last = states[-1]["numbers"]
    assert last + data["text"]["fixed"] == data["text"]["numbers"]
    tokens = data["tokens"][-1]  # the prose decides which merges are learned: read them, not a count typed here
    assert last[0] == (f"After 500 merges, the sentence's {len(data['params']['sentence'])} characters are "
                       f"{len(tokens)} tokens ({' | '.join(tokens)})")
    assert last[1] == "500 merges: the whole text is {:,} tokens, {:.2f} characters each; vocabulary {}".format(
        data["lengths"][500], data["characters"] / data["lengths"][500], data["base"] + 500)
    assert last[2].startswith("Latest merges, newest first: " + data["merges"][499] + ", " + data["merges"][498])
    assert states[0]["numbers"][2] == data["text"]["parts"]["none"]
    assert states[1]["numbers"][2] == "Latest merges, newest first: · + t → ·t"
    assert all(s["label"] == s["numbers"][1] for s in states)
    opened = compute(parse(NAME, {"start": 30}), series_given)
    assert opened["text"]["numbers"] == states[data["stops"].index(30)]["numbers"] + data["text"]["fixed"]


def test_facts_for_the_chapter(prose, data, series_given):
    f = facts(parse(NAME), data, series_given)
    assert (f["characters"], f["base"], f["merges"]) == (len(prose), len(set(prose)), 500)
    assert f["vocabulary"] == f["base"] + 500
    assert f["tokens"] == data["lengths"][500] and f["ratio"] == pytest.approx(len(prose) / f["tokens"])
    k = f["halving"]
    assert 2 * data["lengths"][k] <= len(prose) < 2 * data["lengths"][k - 1]
    first = learn_merges(prose, 5).pairs
    assert f["first_merges"] == ", ".join(shown(a + b) for a, b in first)
    assert first[0] == (" ", "t")  # a space joins the word after it: the commonest pair of the prose
    assert f["context_characters"] == pytest.approx(WritingConfig().context * f["ratio"])
    # the default sentence is the series' own, and 500 merges leave a capitalised word at its start in
    # letters while the common words after it are one token each
    assert f["sentence"] in prose
    assert f["sentence_split"].startswith("K | e | y | s | ·and | ·values")
    assert f["sentence_tokens"] < f["sentence_characters"] / 2.5
    assert f["gpt2"] == {"base": 256, "vocabulary": 50_257} and f["gpt_merges"] == 40_000  # as the papers give them


def test_fewer_merges_learn_fewer(data, series_given):
    small = compute(parse(NAME, {"merges": 120, "start": 30}), series_given)
    assert small["merges"] == data["merges"][:120] and small["stops"][-1] == 120
    assert small["text"]["states"][small["start"]]["label"].startswith("30 merges")


@pytest.mark.parametrize("options, message", [
    ({"start": 7}, "option 'start' must be one of the slider's stops up to 500 merges"),
    ({"merges": 100, "start": 150}, "option 'start' must be one of the slider's stops up to 100 merges"),
    ({"sentence": "two\nlines"}, "option 'sentence' must be one line of printable text"),
    ({"sentence": "x" * 121}, "option 'sentence' has 121 characters"),
])
def test_bad_options_name_the_option(options, message):
    with pytest.raises(ParamError, match=message):
        parse(NAME, options)


def test_a_character_the_series_never_uses_is_refused(series_given):
    with pytest.raises(ParamError, match="characters the series' text never uses: 'é'"):
        compute(parse(NAME, {"sentence": "A café."}), series_given)
