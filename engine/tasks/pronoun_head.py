"""The hand-set attention head of the pronoun sentence (chapters 1, 3 and 5).

"the animal didn't cross the street because it was too tired" (or "... too wide"): one
head, set by hand, whose query for "it" finds "animal" after "tired" and "street" after
"wide". Each word is described by six numbers:

    animal     how much the word names an animal
    place      how much it names a place
    desc-anim  how much it describes animals (tired)
    desc-place how much it describes places (wide)
    extra 1/2  two leftover numbers standing for everything else about the word

An earlier layer is assumed to have copied part of the describing word at the end into
"it": with copy c, "it" carries c of desc-anim (tired) or of desc-place (wide).

Queries, keys and values have two numbers. The query matrix sends desc-anim to the right
and desc-place up, scaled by a strength; the key matrix sends animal to the right and place
up; the value matrix reads out (animal, place). Scores are divided by √2, as in every head.
The leftover numbers are small and fixed so that, at the defaults (copy 0.5, strength 5),
"it" puts 75% on the right word and gathers an output of about (0.76, 0.02).
"""
from __future__ import annotations

import math

import numpy as np

from engine.attention import softmax_forward

FEATURES = ("animal", "place", "describes animals", "describes places", "extra 1", "extra 2")
LAST_WORDS = ("tired", "wide")
IT = 7  # position of "it"
ANIMAL, STREET = 1, 5  # positions of the two candidates

COPY = 0.5  # default: half of the describing word has been copied into "it"
STRENGTH = 5.0  # default strength of the query matrix
KEY_LENGTH = 2.0  # length of the keys of "animal" and "street"

# The two leftover numbers of each word (tired and wide share theirs); animal and street have none.
_EXTRAS = {
    "the": (0.3, 0.7), "animal": (0.0, 0.0), "didn't": (0.5, 0.1), "cross": (0.0, -0.5),
    "street": (0.0, 0.0), "because": (1.0, -0.2), "it": (-0.1, 0.9), "was": (-0.3, 0.3),
    "too": (0.4, 0.5), "tired": (0.8, 0.6), "wide": (0.8, 0.6),
}


def words(last: str = "tired") -> list[str]:
    """The eleven words of the sentence ending in `last` ("tired" or "wide")."""
    if last not in LAST_WORDS:
        raise ValueError(f"the last word must be one of {LAST_WORDS}, not {last!r}")
    return ["the", "animal", "didn't", "cross", "the", "street", "because", "it", "was", "too", last]


def describe(last: str = "tired", copy: float = COPY) -> np.ndarray:
    """The six numbers of every word, with `copy` of the last word's description copied into "it"."""
    ws = words(last)
    x = np.zeros((len(ws), len(FEATURES)))  # (T, 6)
    for i, w in enumerate(ws):
        x[i, 4:] = _EXTRAS[w]
    x[ANIMAL, 0] = 1.0
    x[STREET, 1] = 1.0
    desc = 2 if last == "tired" else 3
    x[len(ws) - 1, desc] = 1.0
    x[IT, desc] = copy
    return x


def query_matrix(strength: float = STRENGTH) -> np.ndarray:
    """W_Q: describes animals -> right, describes places -> up, both times `strength`."""
    wq = np.zeros((len(FEATURES), 2))  # (6, 2)
    wq[2, 0] = strength
    wq[3, 1] = strength
    return wq


def key_matrix() -> np.ndarray:
    """W_K: animal -> right, place -> up (length 2); the leftovers give short keys near the middle."""
    wk = np.zeros((len(FEATURES), 2))  # (6, 2)
    wk[0, 0] = KEY_LENGTH
    wk[1, 1] = KEY_LENGTH
    wk[4] = (0.2, 0.1)
    wk[5] = (0.0, 0.1)
    return wk


def value_matrix() -> np.ndarray:
    """W_V: reads out (animal, place); the leftovers add small corrections that mostly cancel."""
    wv = np.zeros((len(FEATURES), 2))  # (6, 2)
    wv[0, 0] = 1.0
    wv[1, 1] = 1.0
    wv[4] = (0.3, -0.3)
    wv[5] = (-0.3, 0.3)
    return wv


def keys(last: str = "tired") -> np.ndarray:
    """Every word's two-number key (the key matrix does not depend on copy or strength)."""
    return describe(last, COPY) @ key_matrix()  # (T, 2)


def weights_for_queries(queries: np.ndarray, k: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Raw scores q·k and softmax(q·k / √2) for each query (rows) against keys k."""
    scores = np.asarray(queries, dtype=float) @ k.T  # (N, T)
    weights, _ = softmax_forward(scores / math.sqrt(k.shape[1]))  # (N, T)
    return scores, weights


def head(last: str = "tired", copy: float = COPY, strength: float = STRENGTH) -> dict:
    """The whole head on the sentence: queries, keys, values, scores, weights and outputs."""
    x = describe(last, copy)  # (T, 6)
    q = x @ query_matrix(strength)  # (T, 2)
    k = x @ key_matrix()  # (T, 2)
    v = x @ value_matrix()  # (T, 2)
    scores, weights = weights_for_queries(q, k)  # (T, T) each
    return {"words": words(last), "x": x, "q": q, "k": k, "v": v,
            "scores": scores, "weights": weights, "out": weights @ v}  # out: (T, 2)
