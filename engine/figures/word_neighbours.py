"""word-neighbours: every other word ranked by the cosine similarity of the full 148-number vectors.

The vectors are the PPMI vectors of `engine/tasks/corpus.py`. The ranking of every word is
part of the data, so picking a word in the view only switches lists.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..tasks.corpus import cosine_matrix, word_space
from .params import ParamError, field


@dataclass(frozen=True)
class Params:
    word: str = field("tired")  # the word picked first


def compute(p: Params) -> dict:
    space = word_space()
    if p.word not in space.words:
        raise ParamError("word", f"option 'word' must be one of {', '.join(space.words)}, not {p.word!r}")
    n = len(space.words)
    cos = cosine_matrix(space.vectors)  # (W, W)
    rankings = [[[w, s] for w, s in space.neighbours(word, n - 1)] for word in space.words]  # (W, W-1) best first

    def top(word, k=1):
        return [w for w, _ in space.neighbours(word, k)]

    def sim(a, b):
        return float(cos[space.words.index(a), space.words.index(b)])

    return {
        "words": list(space.words),
        "groups": list(space.groups),
        "rankings": rankings,
        "start": space.words.index(p.word),
        "facts": {
            "vector_length": int(space.vectors.shape[1]),
            "tired_nearest": top("tired")[0],
            "tired_sleepy": sim("tired", "sleepy"),
            "tired_second": top("tired", 2)[1],
            "tired_wide": sim("tired", "wide"),
            "wide_nearest": top("wide")[0],
            "wide_busy": sim("wide", "busy"),
            "cat_first": top("cat", 2)[0],
            "cat_second": top("cat", 2)[1],
            "cat_dog": sim("cat", "dog"),
            "cat_horse": sim("cat", "horse"),
            "street_top3": ", ".join(top("street", 3)),
            "animal_nearest": top("animal")[0],
        },
    }
