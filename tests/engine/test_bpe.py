"""Byte-pair merges: learned on a tiny text worked through by hand, and what they do to a text."""
from __future__ import annotations

from collections import Counter

from engine.bpe import apply_merges, learn_merges, words
from engine.tasks.corpus import CORPUS

# "hug hugs bug" splits into "hug", " hugs", " bug". By hand: u+g is in all three words (3); then
# h+ug is in two (2); then every pair is seen once, and ties go to the pair first in code-point
# order (left symbol, then right): " "+"b", " "+"hug" (" " sorts before " b"), " b"+"ug"
# ("b" before "h"), " hug"+"s". Each word is then one token, and no pair is left.
HUGS = "hug hugs bug"
HUG_MERGES = (("u", "g"), ("h", "ug"), (" ", "b"), (" ", "hug"), (" b", "ug"), (" hug", "s"))
HUG_LENGTHS = (12, 9, 7, 6, 5, 4, 3)

TEXT = "\n".join(CORPUS) + "\n"


def test_merges_worked_by_hand():
    merges = learn_merges(HUGS, 10)
    assert merges.pairs == HUG_MERGES  # six, not ten: no pair is left after them
    assert merges.lengths == HUG_LENGTHS
    assert apply_merges(HUGS, merges.pairs) == ["hug", " hugs", " bug"]
    assert apply_merges(HUGS, merges.pairs[:2]) == ["hug", " ", "hug", "s", " ", "b", "ug"]


def test_a_pair_overlapping_itself_is_merged_from_the_left():
    """'aaa' holds a+a twice, but only one can be joined: 'aa' then 'a'."""
    merges = learn_merges("aaa", 5)
    assert merges.pairs == (("a", "a"), ("aa", "a"))
    assert merges.lengths == (3, 2, 1)
    assert apply_merges("aaa", merges.pairs[:1]) == ["aa", "a"]


def test_words_split_as_gpt2_splits_them():
    assert words("It's the end.\nNext  two_3") == ["It", "'s", " the", " end", ".", "\n", "Next", " ", " two",
                                                   "_", "3"]


def test_tokens_join_to_the_text():
    merges = learn_merges(TEXT, 150)
    assert "".join(apply_merges(TEXT, merges.pairs)) == TEXT
    assert "".join(words(TEXT)) == TEXT


def test_lengths_fall_with_each_merge_and_match_the_tokens():
    merges = learn_merges(TEXT, 150)
    assert len(merges.pairs) == 150 and len(merges.lengths) == 151
    assert merges.lengths[0] == len(TEXT)
    assert all(a > b for a, b in zip(merges.lengths, merges.lengths[1:]))
    for k in (0, 1, 17, 100, 150):
        assert len(apply_merges(TEXT, merges.pairs[:k])) == merges.lengths[k]


def test_no_merge_crosses_a_word():
    merges = learn_merges(TEXT, 150)
    assert all(len(words(left + right)) == 1 for left, right in merges.pairs)


def test_deterministic():
    assert learn_merges(TEXT, 100) == learn_merges(TEXT, 100)


def _recounted(text: str, n_merges: int) -> tuple:
    """The merges found the slow way: every pair counted afresh over every word before each merge."""
    split = [list(word) for word in words(text)]
    pairs = []
    for _ in range(n_merges):
        counts = Counter(pair for symbols in split for pair in zip(symbols, symbols[1:]))
        if not counts:
            break
        best = min(counts.items(), key=lambda item: (-item[1], item[0]))[0]
        for symbols in split:
            i = 0
            while i + 1 < len(symbols):
                if (symbols[i], symbols[i + 1]) == best:
                    symbols[i:i + 2] = [symbols[i] + symbols[i + 1]]
                i += 1
        pairs.append(best)
    return tuple(pairs)


def test_counts_kept_up_to_date_give_the_merges_recounting_gives():
    assert learn_merges(TEXT, 150).pairs == _recounted(TEXT, 150)
