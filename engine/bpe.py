"""Byte-pair encoding (Sennrich et al. 2016): merges learned on a text, each joining the most
frequent adjacent pair of symbols into one, and the tokens a text becomes under them.

As GPT-2's byte-level BPE does (Radford et al. 2019), the text is first split into words, each with
the space before it, and no merge crosses a word's edge. The base symbols are characters rather
than bytes: the series' text has a small closed set of characters, and bytes would only cut its
few non-ASCII ones into pieces that cannot be shown.
"""
from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

# GPT-2's pre-split with the standard library's classes: English contractions, letters, digits and
# other symbols, each run with the one space before it, and whitespace left over. Every character
# falls in some alternative, so the words joined give the text back.
RE_WORD = re.compile(r"'(?:s|t|re|ve|m|ll|d)| ?[^\W\d_]+| ?\d+| ?(?:[^\s\w]|_)+|\s+(?!\S)|\s+")


@dataclass(frozen=True)
class Merges:
    """Merges in the order learned, and the text's length in tokens after each number of them."""
    pairs: tuple[tuple[str, str], ...]  # (left, right): the k-th merge joins left + right
    lengths: tuple[int, ...]  # lengths[k]: tokens after the first k merges; lengths[0] is the characters


def words(text: str) -> list[str]:
    """The text split as GPT-2 splits it before merging."""
    return RE_WORD.findall(text)


def _pairs(symbols: tuple[str, ...]) -> Counter:
    return Counter(zip(symbols, symbols[1:]))


def _merge(symbols: tuple[str, ...], pair: tuple[str, str]) -> tuple[str, ...]:
    """Every non-overlapping occurrence of the pair joined, from the left ('aaa' with (a, a): 'aa', 'a')."""
    out, i, left, right = [], 0, pair[0], pair[1]
    while i < len(symbols):
        if i + 1 < len(symbols) and symbols[i] == left and symbols[i + 1] == right:
            out.append(left + right)
            i += 2
        else:
            out.append(symbols[i])
            i += 1
    return tuple(out)


def learn_merges(text: str, n_merges: int) -> Merges:
    """Up to n_merges merges (fewer when no adjacent pair is left). Each joins the pair with the
    highest count over the text; a tie goes to the pair that sorts first by its left symbol, then
    its right, in code-point order. Counts are kept per distinct word and updated only in the words
    the merge touches, so a merge costs the words it changes rather than a pass over the text."""
    freq = Counter(words(text))
    vocab = [tuple(word) for word in freq]  # each distinct word as its current symbols
    weight = list(freq.values())
    counts: Counter = Counter()
    where: dict[tuple[str, str], set[int]] = {}  # pair -> the distinct words holding it
    for w, symbols in enumerate(vocab):
        for pair, n in _pairs(symbols).items():
            counts[pair] += n * weight[w]
            where.setdefault(pair, set()).add(w)
    pairs, lengths = [], [len(text)]
    while len(pairs) < n_merges and counts:
        best = min(counts.items(), key=lambda item: (-item[1], item[0]))[0]
        length = lengths[-1]
        for w in sorted(where[best]):
            old, f = vocab[w], weight[w]
            new = _merge(old, best)
            before, after = _pairs(old), _pairs(new)
            for pair, n in before.items():
                counts[pair] -= n * f
                if not counts[pair]:
                    del counts[pair]
                if pair not in after:
                    where[pair].discard(w)
            for pair, n in after.items():
                counts[pair] += n * f
                where.setdefault(pair, set()).add(w)
            vocab[w] = new
            length -= (len(old) - len(new)) * f
        del where[best]
        pairs.append(best)
        lengths.append(length)
    return Merges(tuple(pairs), tuple(lengths))


def apply_merges(text: str, pairs) -> list[str]:
    """The text as tokens under the merges: in each word, the earliest-learned pair present is
    joined, again and again, which gives each word the symbols learning left it with."""
    rank = {tuple(pair): k for k, pair in enumerate(pairs)}
    done: dict[str, tuple[str, ...]] = {}
    tokens: list[str] = []
    for word in words(text):
        if word not in done:
            symbols = tuple(word)
            while len(symbols) > 1:
                best = min(zip(symbols, symbols[1:]), key=lambda pair: rank.get(pair, len(rank)))
                if best not in rank:
                    break
                symbols = _merge(symbols, best)
            done[word] = symbols
        tokens.extend(done[word])
    return tokens
