"""Interpolated Kneser-Ney counting models (engine/ngram.py): by hand on a tiny text, and on any text a
distribution over the next token for every context, seen, unseen or cut short by the text's start."""
import math

import numpy as np
import pytest

from engine.ngram import NGram

A, B = 0, 1


def test_pairs_by_hand():
    # "abab": pairs ab twice, ba once. Discount for pairs: one counted once, one twice: 1 / (1 + 2 * 1) = 1/3.
    # Single characters by continuation: a after one kind (b), b after one kind (a); discount 1 / (1 + 0) = 1,
    # so each is 1/2 of the even guess's mass: (max(1 - 1, 0) + 1 * 2 * 1/2) / 2 = 1/2.
    model = NGram.fit([A, B, A, B], 2, 2)
    p = model.probabilities([[A], [A], [B], [B]], [A, B, A, B])
    # after a (seen twice, always b): b (2 - 1/3 + 1/3 * 1 * 1/2) / 2 = 11/12, a (0 + 1/6) / 2 = 1/12
    # after b (seen once, then a): a (1 - 1/3 + 1/6) / 1 = 5/6, b 1/6
    assert p == pytest.approx([1 / 12, 11 / 12, 5 / 6, 1 / 6])
    assert model.loss([A, B, A]) == pytest.approx(-(math.log(11 / 12) + math.log(5 / 6)) / 2)


def test_a_context_never_seen_or_cut_short_asks_the_shorter_model():
    model = NGram.fit([A, B, A, B], 2, 3)  # token 2 never occurs
    shorter = NGram.fit([A, B, A, B], 1, 3)  # not the same as the pair model's lower order: that one counts kinds
    unseen = model.probabilities([[2], [2], [2]], [A, B, 2])
    start = model.probabilities([[-1], [-1], [-1]], [A, B, 2])
    assert unseen == pytest.approx(start) and unseen.sum() == pytest.approx(1.0)
    assert unseen[2] > 0  # never seen, still possible
    assert shorter.probabilities(np.zeros((3, 0), int), [A, B, 2]).sum() == pytest.approx(1.0)


@pytest.mark.parametrize("n", [1, 2, 3, 5])
def test_every_context_gets_a_distribution(n):
    rng = np.random.default_rng(n)
    V = 5
    model = NGram.fit(rng.integers(0, V - 1, 400), n, V)  # the last token never occurs
    for _ in range(40):
        context = rng.integers(0, V, n - 1)
        context[:rng.integers(0, n)] = -1  # the text began this many tokens back
        p = model.probabilities(np.tile(context, (V, 1)), np.arange(V))
        assert p.sum() == pytest.approx(1.0, abs=1e-12) and (p > 0).all()


def test_longer_counts_fit_a_repetitive_text_better():
    text = np.array([A, A, B] * 50)
    losses = [NGram.fit(text[:120], n, 2).loss(text[120:]) for n in (1, 2, 3)]
    assert losses[0] > losses[1] > losses[2]


def test_a_table_entry_per_string_seen_and_the_share_of_contexts_never_seen():
    model = NGram.fit([A, B, A, B, B], 3, 2)  # aba, bab, abb
    assert model.entries == 3
    # in "abbba" the contexts of its 3rd to 5th tokens: ab (seen), bb (never seen before a third), bb
    assert model.unseen_contexts([A, B, B, B, A]) == pytest.approx(2 / 3)
