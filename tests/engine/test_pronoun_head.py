import numpy as np
import pytest

from engine.tasks import pronoun_head as head


@pytest.mark.parametrize("last, target", [("tired", head.ANIMAL), ("wide", head.STREET)])
def test_it_finds_the_right_word(last, target):
    h = head.head(last)
    w = h["weights"][head.IT]
    assert int(np.argmax(w)) == target and f"{w[target]:.0%}" == "75%"


def test_output_of_it_with_tired_and_wide():
    assert np.round(head.head("tired")["out"][head.IT], 2).tolist() == [0.76, 0.02]
    assert np.round(head.head("wide")["out"][head.IT], 2).tolist() == [0.02, 0.76]


def test_only_describing_words_ask_anything():
    h = head.head("tired")
    flat = [i for i in range(11) if i not in (head.IT, 10)]
    assert np.allclose(h["weights"][flat], 1 / 11)
    assert np.argmax(h["weights"][10]) == head.ANIMAL and h["weights"][10, head.ANIMAL] > 0.98


def test_bad_last_word():
    with pytest.raises(ValueError, match="last word"):
        head.words("sleepy")
