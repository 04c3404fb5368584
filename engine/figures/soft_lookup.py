"""soft-lookup: a hard and a soft lookup of one query word against a few keys.

A key's score is the number of letter pairs (bigrams) it shares with the query, counting a
start mark "^" and an end mark "$", so "cat" has ^c, ca, at, t$. A hard lookup gives all
the weight to the key equal to the query (none if there is none); a soft lookup gives
softmax(scores). Both modes are in the data, so switching between them needs no Python.
"""
from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

import numpy as np

from ..attention import softmax_forward
from .params import ParamError, field

START, END = "^", "$"
MODES = ("hard", "soft")
WORD = re.compile(r"[a-z]{1,12}")


@dataclass(frozen=True)
class Params:
    query: str = field("cat")  # the word looked up
    keys: tuple[str, ...] = field(("cat", "coat", "cow", "dog", "hat"), length=(2, 8))  # the entries, in order
    values: tuple[str, ...] = field((  # what each entry holds, one per key
        "a small animal that purrs",
        "a warm thing to wear outside",
        "a farm animal that gives milk",
        "an animal that barks",
        "something worn on the head",
    ), length=(2, 8))
    mode: str = field("hard")  # the mode the figure opens in: "hard" or "soft"


def bigrams(word: str) -> list[str]:
    """The letter pairs of word, with start and end marks: cat -> ^c, ca, at, t$."""
    marked = START + word + END
    return [marked[i:i + 2] for i in range(len(marked) - 1)]


def shared_bigrams(query: str, key: str) -> list[str]:
    """The key's letter pairs that the query also has (each pair counted as often as both have it)."""
    left = Counter(bigrams(query))
    out = []
    for pair in bigrams(key):
        if left[pair] > 0:
            left[pair] -= 1
            out.append(pair)
    return out


def _check(p: Params) -> None:
    for name, word in [("query", p.query), *((f"keys[{i}]", k) for i, k in enumerate(p.keys))]:
        if not WORD.fullmatch(word):
            raise ParamError(name.split("[")[0], f"option '{name}' must be 1 to 12 lower-case letters a-z, not {word!r}")
    if len(set(p.keys)) != len(p.keys):
        raise ParamError("keys", "option 'keys' must not repeat a key (a dictionary has one entry per word)")
    if len(p.values) != len(p.keys):
        raise ParamError("values", f"option 'values' needs one value per key ({len(p.keys)}), not {len(p.values)}")
    if p.mode not in MODES:
        raise ParamError("mode", f"option 'mode' must be 'hard' or 'soft', not {p.mode!r}")


def compute(p: Params) -> dict:
    _check(p)
    shared = [shared_bigrams(p.query, k) for k in p.keys]
    scores = np.array([len(s) for s in shared], dtype=float)  # (n,) letter pairs in common
    soft, _ = softmax_forward(scores)  # (n,)
    hard = np.array([1.0 if k == p.query else 0.0 for k in p.keys])  # (n,) all or nothing
    match = p.query if p.query in p.keys else None
    entries = [{
        "key": k, "bigrams": bigrams(k), "shared": s, "score": int(sc),
        "hard": float(h), "soft": float(w), "value": v,
    } for k, s, sc, h, w, v in zip(p.keys, shared, scores, hard, soft, p.values)]
    top = int(np.argmax(soft))
    return {
        "query": p.query,
        "query_bigrams": bigrams(p.query),
        "entries": entries,
        "mode": p.mode,
        "facts": {
            "scores": {k: int(s) for k, s in zip(p.keys, scores)},
            "soft": {k: float(w) for k, w in zip(p.keys, soft)},
            "query_pairs": len(bigrams(p.query)),
            "hard_match": match,
            "top_key": p.keys[top],
            "top_soft": float(soft[top]),
            "soft_elsewhere": float(1.0 - soft[top]),
            "exp_sum": float(np.exp(scores).sum()),
        },
    }
