"""word-map: the corpus's 16 words as points, and a probe that names the words nearest to it.

The vectors are the ones `engine/tasks/corpus.py` counts (context counts, PPMI, PCA to two
dimensions). The probe moves on a grid over the map, and the model lists the nearest words
at every grid point, so dragging it only looks answers up: the view measures no distances.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..tasks.corpus import CORPUS, word_space
from .params import ParamError, field


@dataclass(frozen=True)
class Params:
    probe: tuple[float, ...] = field((-1.5, -1.0), lo=-10.0, hi=10.0, length=(2, 2))  # where the probe starts (near the animals)
    steps: int = field(25, lo=5, hi=61)  # grid points along each axis that the probe can stop at
    nearest: int = field(3, lo=1, hi=6)  # how many nearest words the probe names
    margin: float = field(0.4, lo=0.0, hi=2.0)  # space around the outermost words, in map units


def _index(axis: np.ndarray, value: float) -> int:
    return int(np.argmin(np.abs(axis - value)))


def compute(p: Params) -> dict:
    space = word_space()
    if p.nearest > len(space.words):
        raise ParamError("nearest", f"option 'nearest' must be at most {len(space.words)}, not {p.nearest}")
    lo = space.coords.min(axis=0) - p.margin  # (2,)
    hi = space.coords.max(axis=0) + p.margin  # (2,)
    xs = np.round(np.linspace(lo[0], hi[0], p.steps), 4)  # (S,) rounded as embedded
    ys = np.round(np.linspace(lo[1], hi[1], p.steps), 4)  # (S,)
    index = {w: i for i, w in enumerate(space.words)}
    nearest, distance = [], []  # row-major over (y, x): cell = iy * S + ix
    for y in ys:
        for x in xs:
            found = space.nearest_on_map((x, y), p.nearest)
            nearest.append([index[w] for w, _ in found])
            distance.append([round(d, 4) for _, d in found])
    start = [_index(xs, p.probe[0]), _index(ys, p.probe[1])]

    def map_nearest(word):
        return space.nearest_on_map(space.coords[index[word]], 2)[1][0]  # [0] is the word itself

    return {
        "words": list(space.words),
        "groups": list(space.groups),
        "coords": np.round(space.coords, 4).tolist(),  # (W, 2)
        "explained": space.explained.tolist(),
        "grid": {"xs": xs.tolist(), "ys": ys.tolist(),
                 "nearest": nearest, "distance": distance},
        "start": start,
        "facts": {
            "n_sentences": len(CORPUS),
            "n_words": len(space.words),
            "vector_length": int(space.vectors.shape[1]),
            "negative_entries": int((space.vectors < 0).sum()),
            "zero_share": float((space.vectors == 0).mean()),
            "explained_x": float(space.explained[0]),
            "explained_y": float(space.explained[1]),
            "explained_both": float(space.explained.sum()),
            "map_nearest_animal": map_nearest("animal"),
            "map_nearest_bird": map_nearest("bird"),
            "map_nearest_tired": map_nearest("tired"),
        },
    }
