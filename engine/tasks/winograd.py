"""A hand-set attention head for "The animal didn't cross the street because it was too tired/wide".

Every word is described by six numbers, chosen by hand rather than learned:

    animal, place, describes animals, describes places, other 1, other 2

The last two are leftovers for everything else a word might be. The head has two-number
queries, keys and values (one head, K = V = 2), so everything can be drawn:

- queries: "describes animals" -> point right, "describes places" -> point up, times a
  strength; the leftovers give the other words short queries, so their rows stay nearly flat;
- keys: "animal" -> right, "place" -> up; the leftovers give the other words short keys
  near the middle;
- values: how much a word is an animal and how much a place (with a little of each for the
  words that describe them, and small leftovers that mostly cancel).

An earlier layer is assumed to have copied part of the describing word at the end into "it"
(``copied``), so with "tired" the query of "it" points right, at "animal", and with "wide"
it points up, at "street". Chapter 1 shows where "it" looks; later chapters take the head apart.
"""
from __future__ import annotations

import numpy as np

from ..attention import attention_forward

FEATURES = ("animal", "place", "describes animals", "describes places", "other 1", "other 2")
LAST_WORDS = ("tired", "wide")
SENTENCE = ("The", "animal", "didn't", "cross", "the", "street", "because", "it", "was", "too")  # then the last word
IT = SENTENCE.index("it")  # 7: the word whose attention chapter 1 follows

# Six numbers per word (by its lower-case form, so both "the" share one row).
WORD_VECTORS = {
    "the":     (0.0, 0.0, 0.0, 0.0, -0.4, -0.3),
    "animal":  (1.0, 0.0, 0.0, 0.0, 0.0, 0.0),
    "didn't":  (0.0, 0.0, 0.0, 0.0, 0.2, -0.5),
    "cross":   (0.0, 0.0, 0.0, 0.0, -0.3, 0.3),
    "street":  (0.0, 1.0, 0.0, 0.0, 0.0, 0.0),
    "because": (0.0, 0.0, 0.0, 0.0, 0.4, 0.1),
    "it":      (0.0, 0.0, 0.0, 0.0, 0.0, 0.0),  # a pronoun says nothing by itself
    "was":     (0.0, 0.0, 0.0, 0.0, -0.2, 0.4),
    "too":     (0.0, 0.0, 0.0, 0.0, 0.3, -0.2),
    "tired":   (0.0, 0.0, 1.0, 0.0, -0.1, 0.2),
    "wide":    (0.0, 0.0, 0.0, 1.0, -0.1, 0.2),
}

COPIED = 0.6  # share of the last word's "describes ..." numbers already copied into "it"
STRENGTH = 5.0  # scale of the query matrix: larger makes attention more decisive
KEY_LENGTH = 1.6  # length of the keys of "animal" (right) and "street" (up)
LEFTOVER_KEY = 0.5  # how far the leftover numbers move a key: short keys near the middle
LEFTOVER_QUERY = 0.1  # the same for queries (before the strength)
DESCRIBER_VALUE = 0.3  # a describing word's value carries a little of what it describes
LEFTOVER_VALUE = 0.1  # small values from the leftovers


def words(last: str) -> tuple[str, ...]:
    """The eleven words of the sentence ending in `last`."""
    if last not in LAST_WORDS:
        raise ValueError(f"the last word must be one of {', '.join(LAST_WORDS)}, not {last!r}")
    return SENTENCE + (last,)


def embeddings(last: str, copied: float = COPIED) -> np.ndarray:
    """(11, 6) six numbers per word, with `copied` of the last word's describing part added to "it"."""
    ws = words(last)
    x = np.array([WORD_VECTORS[w.lower()] for w in ws])  # (T, 6)
    x[IT, 2:4] += copied * x[-1, 2:4]  # what an earlier layer has moved into "it"
    return x


def matrices(strength: float = STRENGTH) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The head's query, key and value matrices, each (1, 6, 2) (one head)."""
    wq = np.zeros((6, 2))  # (6, 2)
    wq[2] = (1.0, 0.0)  # describes animals -> look right
    wq[3] = (0.0, 1.0)  # describes places -> look up
    wq[4] = (0.0, LEFTOVER_QUERY)
    wq[5] = (LEFTOVER_QUERY, 0.0)
    wq *= strength
    wk = np.zeros((6, 2))  # (6, 2)
    wk[0] = (KEY_LENGTH, 0.0)  # an animal offers "right"
    wk[1] = (0.0, KEY_LENGTH)  # a place offers "up"
    wk[4] = (LEFTOVER_KEY, 0.0)
    wk[5] = (0.0, LEFTOVER_KEY)
    wv = np.zeros((6, 2))  # (6, 2) value = (animal, place)
    wv[0] = (1.0, 0.0)
    wv[1] = (0.0, 1.0)
    wv[2] = (DESCRIBER_VALUE, 0.0)
    wv[3] = (0.0, DESCRIBER_VALUE)
    wv[4] = (LEFTOVER_VALUE, 0.0)
    wv[5] = (0.0, LEFTOVER_VALUE)
    return wq[None], wk[None], wv[None]


def run(last: str, copied: float = COPIED, strength: float = STRENGTH, causal: bool = False) -> dict:
    """The head on the sentence ending in `last`: inputs, queries, keys, values, weights, outputs."""
    x = embeddings(last, copied)  # (T, 6)
    wq, wk, wv = matrices(strength)
    out, cache = attention_forward(x, wq, wk, wv, causal=causal)  # (T, 2)
    return {
        "words": words(last),
        "x": x,
        "queries": x @ wq[0],  # (T, 2) before the division by sqrt(2)
        "keys": x @ wk[0],  # (T, 2)
        "values": x @ wv[0],  # (T, 2)
        "weights": cache.weights[0],  # (T, T) row i: where word i looks
        "outputs": out,  # (T, 2)
    }
