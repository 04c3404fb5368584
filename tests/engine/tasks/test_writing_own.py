"""Fine-tuning on the reader's own text (engine/tasks/writing_own.py): what it refuses, in one line
naming why, and how the text is split."""
from __future__ import annotations

import dataclasses
import re

import pytest

from engine.tasks import writing, writing_own
from engine.tasks.writing import Corpus, end_cut
from engine.vocabulary import vocabulary

from .test_writing import TEXT

MODEL = writing.Shipped(TEXT, writing.WritingConfig(), 0, vocabulary(TEXT), {}, {})  # only its characters are read
SENTENCE = "Later it guesses the next letter. "


@pytest.mark.parametrize("text, reason", [
    ("A model reads.", "has 14 characters: fine-tuning needs at least 1,000"),
    (SENTENCE * 600, "has 20,400 characters: the page fine-tunes on at most 20,000"),
    (SENTENCE * 40 + "Ünïcode, “quoted”, 4 + 4", "does not know “Ü”, “ï”, ““”, “q”, “”” and 2 more: it learned only the 26"),
    (SENTENCE * 40 + "\x07", "does not know U+0007: it learned only"),
])
def test_a_text_the_model_cannot_learn_from_is_refused_naming_why(text, reason):
    with pytest.raises(ValueError, match=re.escape(reason)) as err:
        writing_own.read_text(text.encode(), MODEL)
    assert "\n" not in str(err.value)


def test_markup_and_line_breaks_are_text_and_text_that_is_not_utf8_is_refused():
    page = (SENTENCE + "<b>&amp;</b>\r\n") * 40
    assert writing_own.read_text(page.encode(), dataclasses.replace(MODEL, vocab=vocabulary(page))) \
        == page.replace("\r\n", "\n")
    with pytest.raises(ValueError, match="could not be read as text"):
        writing_own.read_text(b"\xff" * 2000, MODEL)


def test_the_texts_end_is_held_out_from_a_word_break_and_read_with_the_models_characters():
    text = SENTENCE * 40  # 1,360 characters, one paragraph
    cut = end_cut(text)
    assert text[cut - 1] == " " and len(text) - cut == pytest.approx(writing.END_SHARE * len(text), abs=14)
    corpus = Corpus.of(text, 0, vocab=MODEL.vocab)
    assert corpus.vocab == MODEL.vocab
    assert MODEL.vocab.decode(corpus.train) + MODEL.vocab.decode(corpus.held_out) == text
    assert end_cut("x" * 1000) == 900  # no break near: the exact place


def test_a_fine_tuning_recipe_keeps_the_models_sizes_and_is_its_own_fixed_point():
    for own in (True, False):
        config = writing_own.recipe(writing.SHIPPED, 150, own)
        assert (config.d_model, config.layers, config.context, config.dropout) == (
            writing.SHIPPED.d_model, writing.SHIPPED.layers, writing.SHIPPED.context, writing.SHIPPED.dropout)
        assert config.held_out_every == (0 if own else writing.SHIPPED.held_out_every)
        assert writing_own.tuned(config) and not writing_own.tuned(writing.SHIPPED)


def test_curly_quotes_and_long_dashes_are_read_as_the_plain_ones_the_model_knows():
    model = dataclasses.replace(MODEL, vocab=vocabulary(TEXT + "'\"–"))
    assert writing_own.read_text(("“It’s” — " + SENTENCE * 40).encode(), model).startswith("\"It's\" – Later")
    with pytest.raises(ValueError, match="does not know “’”"):
        writing_own.read_text(("It’s " + SENTENCE * 40).encode(), MODEL)  # no plain apostrophe to read it as
