"""word-map: the corpus's 16 words as points, and a probe that names the words nearest to it.

The vectors are the ones `engine/tasks/corpus.py` counts (context counts, PPMI, rows scaled to
length 1, PCA to two dimensions). The probe moves on a grid over the map, and the model lists the nearest words
at every grid point, so dragging it only looks answers up: the view measures no distances.
Text: a line per grid cell (625 at the default 25 steps) would repeat the data's words and
distances, so the text has one template, filled for the cell on screen, iy * len(xs) + ix (the
probe at (xs[ix], ys[iy])), from `text.scope` (SCOPE below: x, y, the words grid.nearest[cell]
names, their distances; read by engine/figures/fmt.py `scope_at`; "{distance.0:2}" is item 0 to 2
decimals, `fill`). Its line comes before `text.fixed` (the map
positions) in the key numbers, and is the probe's valuetext. `parts.near` is the template of an
item of the readout list, filled from {word, v}. Distances are embedded rounded to the decimals
shown, so no number is rounded twice.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..tasks.corpus import CORPUS, word_space
from .fmt import fill_all, fixed, scope_at
from .params import ParamError, field

GROUPS = ("animal", "place", "describing")  # the shapes on the map, in the legend's order
DECIMALS = 2  # distances are embedded and printed with 2 decimals


@dataclass(frozen=True)
class Params:
    probe: tuple[float, ...] = field((-0.3, -0.55), lo=-10.0, hi=10.0, length=(2, 2),
                                     doc="where the probe starts (near the animals)")
    steps: int = field(25, lo=5, hi=61, doc="grid points along each axis that the probe can stop at")
    nearest: int = field(3, lo=1, hi=6, doc="how many nearest words the probe names")
    margin: float = field(0.1, lo=0.0, hi=2.0, doc="space around the outermost words, in map units")

    def __post_init__(self):
        words = len(word_space().words)
        if self.nearest > words:
            raise ParamError("nearest", f"option 'nearest' must be at most {words}, not {self.nearest}")


EXAMPLE = {"steps": 5, "nearest": 2, "probe": [1, 1]}
BROKEN = ({"nearest": 20}, "nearest")  # options that break a rule of Params' own, and the option it names


def _index(axis: np.ndarray, value: float) -> int:
    return int(np.argmin(np.abs(axis - value)))


def compute(p: Params) -> dict:
    space = word_space()
    lo = space.coords.min(axis=0) - p.margin  # (2,)
    hi = space.coords.max(axis=0) + p.margin  # (2,)
    xs = np.round(np.linspace(lo[0], hi[0], p.steps), 4)  # (S,) rounded as embedded
    ys = np.round(np.linspace(lo[1], hi[1], p.steps), 4)  # (S,)
    coords = np.round(space.coords, 4)  # (W, 2) as embedded: distances are measured from these
    nearest, distance = [], []  # row-major over (y, x): cell = iy * S + ix
    for y in ys:
        for x in xs:
            d = np.linalg.norm(coords - (x, y), axis=1)  # (W,)
            order = np.argsort(d, kind="stable")[:p.nearest]
            nearest.append([int(j) for j in order])
            distance.append([round(float(d[j]), DECIMALS) for j in order])
    return {
        "words": list(space.words),
        "groups": list(space.groups),
        "coords": coords.tolist(),  # (W, 2)
        "explained": space.explained.tolist(),
        "vector_length": int(space.vectors.shape[1]),  # numbers per word before the squeeze to two
        "grid": {"xs": xs.tolist(), "ys": ys.tolist(),
                 "nearest": nearest, "distance": distance},
        "start": [_index(xs, p.probe[0]), _index(ys, p.probe[1])],
    }


def probe(data: dict, cell: int):
    """The probe's point at grid cell `cell` and the (word, distance) pairs the model lists there."""
    xs, ys = data["grid"]["xs"], data["grid"]["ys"]
    iy, ix = divmod(cell, len(xs))
    found = [(data["words"][i], d) for i, d in zip(data["grid"]["nearest"][cell], data["grid"]["distance"][cell])]
    return (xs[ix], ys[iy]), found


def start_cell(data: dict) -> int:
    ix, iy = data["start"]
    return iy * len(data["grid"]["xs"]) + ix


SCOPE = {  # the values the template names with the probe at grid cell i = iy * len(xs) + ix
    "index": [["iy", "grid.ys"], ["ix", "grid.xs"]],
    "values": {"x": "grid.xs[ix]", "y": "grid.ys[iy]", "near": "words[grid.nearest[i]]",
               "distance": "grid.distance[i]"},
}


def template(nearest: int) -> str:
    """The probe's line, with a slot for each of the `nearest` words and its distance."""
    return (f"Probe at ({{x:{DECIMALS}}}, {{y:{DECIMALS}}}), nearest: "
            + ", ".join(f"{{near.{k}}} {{distance.{k}:{DECIMALS}}}" for k in range(nearest)))


def text(p: Params, data: dict) -> dict:
    lines = [template(len(data["grid"]["nearest"][0]))]
    fixed_lines = ["Map positions: " + ", ".join(f"{w} ({fixed(x)}, {fixed(y)})"
                                                 for w, (x, y) in zip(data["words"], data["coords"]))]
    groups = {g: [w for w, h in zip(data["words"], data["groups"]) if h == g] for g in GROUPS}
    (px, py), found = probe(data, start_cell(data))
    return {
        "alt": (f"Scatter plot of {len(data['words'])} words squeezed from {data['vector_length']} numbers "
                f"to two. Animals ({', '.join(groups['animal'])}), places ({', '.join(groups['place'])}) and "
                f"describing words ({', '.join(groups['describing'])}) are marked with different shapes. "
                f"A probe at ({fixed(px)}, {fixed(py)}) is nearest to " + ", ".join(w for w, _ in found) + "."),
        "numbers": fill_all(lines, scope_at(SCOPE, data, start_cell(data))) + fixed_lines,
        "templates": lines,
        "scope": SCOPE,
        "fixed": fixed_lines,
        "parts": {"near": f"{{word}} (distance {{v:{DECIMALS}}})"},
    }


def state_count(data: dict) -> int:
    """How many states the view steps through: one per grid cell."""
    return len(data["grid"]["xs"]) * len(data["grid"]["ys"])


def opening_state(p: Params, data: dict) -> int:
    """The state the view opens in: the cell nearest the probe."""
    return start_cell(data)


def facts(p: Params, data: dict) -> dict:
    space = word_space()
    animal = space.words.index("animal")
    return {
        "n_sentences": len(CORPUS),
        "n_words": len(space.words),
        "vector_length": data["vector_length"],
        "zero_share": float((space.vectors == 0).mean()),
        # Where the zeros come from: pairs never seen, or PMI below zero clipped (few).
        "unseen_zero_share": float((space.counts == 0).sum() / (space.vectors == 0).sum()),
        "clipped": int(((space.counts > 0) & (space.vectors == 0)).sum()),
        "seen_pairs": int((space.counts > 0).sum()),
        "empty_columns": int((space.vectors == 0).all(axis=0).sum()),
        "explained_x": float(space.explained[0]),
        "explained_y": float(space.explained[1]),
        "explained_both": float(space.explained.sum()),
        "map_nearest_animal": space.nearest_on_map(space.coords[animal], 2)[1][0],  # [0] is the word itself
    }
