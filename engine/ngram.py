"""Counting models of characters: interpolated Kneser-Ney n-grams, the yardstick a model that
writes has to beat (Kneser and Ney 1995; the interpolated form and its discount as Chen and
Goodman 1999 give them).

An n-gram model guesses the next character from the n - 1 before it by counting, in the training
text, what followed those characters. Kneser-Ney takes a fixed discount D off every count and hands
the mass it frees to the model one character shorter, weighted so the probabilities sum to one.
The shorter models count differently: not how often a string occurred, but after how many different
characters it occurred (its continuation count), since they are only asked when the longer context
was rare. The shortest is interpolated with an even guess, so no character has probability zero.

Tokens are integer ids below V; an n-gram is the integer sum(t_i * V^(n-1-i)), so every table is
a sorted array looked up with searchsorted: linear in the text for counting, n log n for sorting.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class _Level:
    """One order's table: the k-grams seen, each one's count (raw at the top order, continuation
    below), and per history (its first k - 1 tokens) the total of those counts and how many
    different tokens followed it."""
    grams: np.ndarray      # (G,) sorted k-gram codes
    counts: np.ndarray     # (G,) their counts
    histories: np.ndarray  # (H,) sorted codes of the k-1 tokens before
    totals: np.ndarray     # (H,) sum of counts over the token after
    followers: np.ndarray  # (H,) number of different tokens after
    discount: float


def _codes(tokens: np.ndarray, k: int, V: int) -> np.ndarray:
    """The code of every k-gram of tokens, in order: (len - k + 1,)."""
    codes = np.zeros(len(tokens) - k + 1, dtype=np.int64)
    for i in range(k):
        codes = codes * V + tokens[i:len(tokens) - k + 1 + i]
    return codes


def _discount(counts: np.ndarray) -> float:
    """Chen and Goodman's estimate n1 / (n1 + 2 n2) from how many grams were counted once and twice;
    0.5 where a tiny text has none of either."""
    n1, n2 = int(np.sum(counts == 1)), int(np.sum(counts == 2))
    return n1 / (n1 + 2 * n2) if n1 else 0.5


def _level(grams: np.ndarray, counts: np.ndarray, V: int) -> _Level:
    histories, first, followers = np.unique(grams // V, return_index=True, return_counts=True)
    totals = np.add.reduceat(counts, first) if len(counts) else counts
    return _Level(grams, counts, histories, totals.astype(np.float64), followers.astype(np.float64),
                  _discount(counts))


def _find(table: np.ndarray, values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For every value, where it sits in `table` (sorted) and whether it is there: one search,
    read by as many of the table's columns as a caller needs."""
    if not len(table):
        return np.zeros(len(values), dtype=np.intp), np.zeros(len(values), bool)
    at = np.minimum(np.searchsorted(table, values), len(table) - 1)
    return at, table[at] == values


def _lookup(table: np.ndarray, values: np.ndarray, found_in: np.ndarray) -> np.ndarray:
    """found_in[i] where table[i] == value, else 0, for every value (table sorted)."""
    at, hit = _find(table, values)
    return np.where(hit, found_in[at] if len(table) else 0, 0)


@dataclass(frozen=True)
class NGram:
    """An interpolated Kneser-Ney model of order n over V tokens: levels[k - 1] is order k."""
    n: int
    V: int
    levels: tuple

    @classmethod
    def fit(cls, tokens, n: int, V: int) -> "NGram":
        """Count tokens (ids below V) for every order up to n."""
        if V ** n >= 2 ** 63:
            raise ValueError(f"strings of {n} tokens over {V} do not fit the 64-bit codes the tables use")
        tokens = np.asarray(tokens, dtype=np.int64)
        levels = []
        for k in range(1, n + 1):
            grams, counts = np.unique(_codes(tokens, k, V), return_counts=True)
            if k < n:  # continuation count: how many different tokens came before the k-gram
                longer = np.unique(_codes(tokens, k + 1, V))
                grams, counts = np.unique(longer % V ** k, return_counts=True)
            levels.append(_level(grams, counts.astype(np.float64), V))
        return cls(n, V, tuple(levels))

    def probabilities(self, before, nxt: np.ndarray) -> np.ndarray:
        """P(nxt[i] | before[i]) for every i: before (N, n - 1) token ids, -1 where the text had
        not begun (a shorter context), nxt (N,)."""
        before, nxt = np.asarray(before, dtype=np.int64), np.asarray(nxt, dtype=np.int64)
        p = np.full(len(nxt), 1.0 / self.V)  # order 0: the even guess
        history = np.zeros(len(nxt), dtype=np.int64)
        known = np.ones(len(nxt), bool)  # the context this long exists
        for k, level in enumerate(self.levels, start=1):
            if k > 1:
                token = before[:, self.n - k]  # the token k - 1 places back
                known &= token >= 0
                history = history + np.maximum(token, 0) * self.V ** (k - 2)
            at, hit = _find(level.histories, history)
            seen = known & hit
            total = np.where(seen, level.totals[at] if len(level.histories) else 1.0, 1.0)
            count = _lookup(level.grams, history * self.V + nxt, level.counts)
            followers = np.where(seen, level.followers[at] if len(level.histories) else 0.0, 0.0)
            kept = np.maximum(count - level.discount, 0.0) + level.discount * followers * p
            p = np.where(seen, kept / total, p)
        return p

    @property
    def entries(self) -> int:
        """How many different strings of n tokens the model keeps a count for: its table's size."""
        return len(self.levels[-1].grams)

    def unseen_contexts(self, tokens) -> float:
        """The share of tokens (after the first n - 1) whose n - 1 tokens before never occurred
        together in training: where the model has nothing of its own to say and asks a shorter one."""
        tokens = np.asarray(tokens, dtype=np.int64)
        if self.n == 1:
            return 0.0
        histories = _codes(tokens, self.n - 1, self.V)[:-1]  # the context of each token from the n-th on
        return float(np.mean(_lookup(self.levels[-1].histories, histories, self.levels[-1].totals) == 0))

    def loss(self, tokens) -> float:
        """Mean -ln P of every token after the first, each read with up to n - 1 tokens before it
        (fewer at the start): nats per token, as the writing model's held-out loss is measured."""
        tokens = np.asarray(tokens, dtype=np.int64)
        padded = np.concatenate([np.full(self.n - 1, -1, dtype=np.int64), tokens])
        before = np.stack([padded[i:i + len(tokens)] for i in range(self.n - 1)], axis=1) if self.n > 1 \
            else np.zeros((len(tokens), 0), dtype=np.int64)  # (N, n - 1) the tokens before each
        return float(-np.log(self.probabilities(before[1:], tokens[1:])).mean())
