"""word-neighbours: every other word ranked by the cosine similarity of the full 148-number vectors.

The vectors are the PPMI vectors of `engine/tasks/corpus.py`. The ranking of every word is
part of the data, so picking a word in the view only switches lists.
Text states are indexed like `words` (and `rankings`): state i is the ranking of words[i].
`text.parts.similarity` is the template of a similarity bar's label.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..tasks.corpus import TARGETS, cosine_matrix, word_space
from .fmt import fill
from .params import field

SHOWN = 5  # neighbours per panel of the static figure
PARTS = {"similarity": "{v:2}"}  # shipped as text.parts: the view labels its bars by it


@dataclass(frozen=True)
class Params:
    word: str = field("tired", choices=[w for w, _ in TARGETS], doc="the word picked first")


EXAMPLE = {"word": "river"}


def compute(p: Params) -> dict:
    space = word_space()
    n = len(space.words)
    return {
        "words": list(space.words),
        "groups": list(space.groups),
        "vector_length": int(space.vectors.shape[1]),  # numbers per word the similarities compare
        "rankings": [[[w, s] for w, s in space.neighbours(word, n - 1)] for word in space.words],  # (W, W-1) best first
        "start": space.words.index(p.word),
    }


def panels(data) -> list:
    """The static figure's four words, the picked one first, each with its ranking."""
    first = data["words"][data["start"]]
    picks = [first] + [w for w in ("tired", "wide", "cat", "street") if w != first]
    return [(w, data["rankings"][data["words"].index(w)]) for w in picks[:4]]


def similarity(s: float) -> str:
    """A cosine similarity as a bar's label prints it (the fallback's too)."""
    return fill(PARTS["similarity"], {"v": s})


def text(p: Params, data: dict) -> dict:
    states = [{"numbers": [f"Nearest to “{word}”: " + ", ".join(f"{w} {similarity(s)}" for w, s in r)]}
              for word, r in zip(data["words"], data["rankings"])]
    return {
        "alt": ("Bar charts of cosine similarity of the full word vectors: " + "; ".join(
            f"nearest to “{word}” are " + ", ".join(f"{w} ({similarity(s)})" for w, s in ranking[:3])
            for word, ranking in panels(data)) + "."),
        "numbers": states[opening_state(p, data)]["numbers"],
        "states": states,
        "parts": PARTS,
    }


def state_count(data: dict) -> int:
    """How many states the view steps through: one per word."""
    return len(data["words"])


def opening_state(p: Params, data: dict) -> int:
    """The state the view opens in: the option's word."""
    return data["start"]


def facts(p: Params, data: dict) -> dict:
    space = word_space()
    cos = cosine_matrix(space.vectors)  # (W, W)

    def top(word, k=1):
        return [w for w, _ in space.neighbours(word, k)]

    def sim(a, b):
        return float(cos[space.words.index(a), space.words.index(b)])

    return {
        "vector_length": data["vector_length"],
        "tired_nearest": top("tired")[0],
        "tired_sleepy": sim("tired", "sleepy"),
        "tired_second": top("tired", 2)[1],
        "tired_wide": sim("tired", "wide"),
        "wide_nearest": top("wide")[0],
        "wide_busy": sim("wide", "busy"),
        "wide_second": top("wide", 2)[1],  # hungry: the vectors do not part place- from animal-describers
        "wide_hungry": sim("wide", "hungry"),
        "cat_first": top("cat", 2)[0],
        "cat_second": top("cat", 2)[1],
        "cat_dog": sim("cat", "dog"),
        "cat_horse": sim("cat", "horse"),
        "street_top3": ", ".join(top("street", 3)),
        "animal_nearest": top("animal")[0],
    }
