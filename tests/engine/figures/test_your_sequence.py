"""your-sequence: the reader's letters through chapter 13's trained model; where the induction head
looks, what the model guesses and how sure it is, and a reason in reader words for bad input."""
from __future__ import annotations

import numpy as np
import pytest

from engine.decoder import decoder_forward
from engine.figures import ParamError, compute, parse
from engine.figures.your_sequence import MAX_LETTERS, copies
from engine.tasks.induction import InductionConfig, trained

NAME = "your-sequence"
CONFIG = InductionConfig()


@pytest.fixture(scope="module")
def data():
    return compute(parse(NAME))


def test_copies_are_the_positions_after_earlier_copies():
    # ▸ A B A B: for the second A (3), B at 2 follows the earlier A; for the second B (4), A at 3 follows the earlier B
    assert copies([16, 0, 1, 0, 1]) == [[], [], [], [2], [3]]
    assert copies([16, 0, 0]) == [[], [], [2]]  # a doubled letter: its own position follows the earlier copy


def test_the_default_sequence_is_copied_from_after_its_earlier_copy(data):
    assert data["tokens"] == ["▸"] + list(data["sequence"]) and data["start"] == len(data["sequence"])
    k = data["start"]
    assert data["copies"][k], "the default sequence repeats its last letter"
    row = data["heads"][data["head"]][k]
    assert sum(row[j] for j in data["copies"][k]) > 0.5  # the induction head reads the letter after the copy
    top = data["guesses"][k][0]
    assert top[0] == data["tokens"][data["copies"][k][-1]]  # and the model predicts that letter
    assert top[1] > 0.5


def test_guesses_are_the_models_probabilities(data):
    run = trained(0)
    letters = data["letters"]
    tokens = np.array([[CONFIG.bos] + [letters.index(c) for c in data["sequence"]]])
    logits, _ = decoder_forward(run.params, tokens)
    p = np.exp(logits - logits.max(axis=0))
    p /= p.sum(axis=0)  # (N, T)
    for i, guesses in enumerate(data["guesses"]):
        best = np.argsort(-p[:, i])[:len(guesses)]
        assert [g[0] for g in guesses] == [(letters + "▸")[t] for t in best]
        assert [g[1] for g in guesses] == pytest.approx(p[best, i], abs=1e-4)
        assert [g[1] for g in guesses] == sorted((g[1] for g in guesses), reverse=True)
    for head in data["heads"]:
        assert [len(r) for r in head] == list(range(1, len(data["tokens"]) + 1))


def test_key_numbers_say_where_it_copies_from_and_how_sure_it_is(data):
    text = data["text"]
    k = data["start"]
    assert len(text["states"]) == len(data["tokens"])
    assert text["numbers"] == text["states"][k]["numbers"] + text["fixed"]
    guess, where = text["states"][k]["numbers"]
    top = data["guesses"][k][0]
    assert f"next letter {top[0]} with probability {top[2]}" in guess
    assert f"head {data['head'] + 1} reads position" in where and "after earlier copies of N" in where
    first = text["states"][1]["numbers"][1]  # the first letter has no earlier copy
    assert "no earlier copy" in first


def test_spaces_and_lower_case_are_read_as_letters():
    out = compute(parse(NAME, {"sequence": " kc fn\tak c "}))
    assert out["sequence"] == "KCFNAKC"
    assert out["tokens"] == ["▸", *"KCFNAKC"]


@pytest.mark.parametrize("sequence, reason", [
    ("", "Type at least one letter from A to P."),
    ("   ", "Type at least one letter from A to P."),
    ("ABZ", "“Z” is not one of the model's letters: it knows only A to P."),
    ("A1", "“1” is not one of the model's letters: it knows only A to P."),
    ("<b>", "“<” is not one of the model's letters: it knows only A to P."),
    ("A" * (MAX_LETTERS + 1), f"The model reads at most {MAX_LETTERS} letters; this has {MAX_LETTERS + 1}."),
    ("A " * 10_000, f"The model reads at most {MAX_LETTERS} letters."),
])
def test_a_sequence_the_model_cannot_read_gets_one_reason_in_reader_words(sequence, reason):
    with pytest.raises(ParamError) as err:
        compute(parse(NAME, {"sequence": sequence}))
    assert str(err.value) == reason and err.value.option == "sequence"
