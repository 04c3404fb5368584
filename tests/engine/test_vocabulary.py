"""Characters as tokens: rare ones pooled into the placeholder, ids and text back and forth."""
from __future__ import annotations

import numpy as np
import pytest

from engine.vocabulary import PLACEHOLDER, vocabulary


def test_rare_characters_become_the_placeholder():
    vocab = vocabulary("abab a a\n×", min_count=2)
    assert vocab.characters == PLACEHOLDER + " ab"  # "\n" and "×" are seen once
    assert vocab.placeholder == 0
    assert vocab.encode("ba×\n").tolist() == [3, 2, 0, 0]
    assert vocab.decode(np.array([2, 1, 0])) == "a " + PLACEHOLDER
    assert vocab.unknown("a×b\n×") == "×\n"


def test_without_rare_characters_there_is_no_placeholder_and_unknown_ones_are_refused():
    vocab = vocabulary("hello", min_count=1)
    assert vocab.characters == "ehlo" and vocab.placeholder is None
    assert vocab.decode(vocab.encode("hole")) == "hole"
    assert vocabulary("bread banana") == vocabulary("banana bread") and len(vocab) == 4
    with pytest.raises(ValueError, match="not in the vocabulary: 'x' 'y'"):
        vocab.encode("hexy")
