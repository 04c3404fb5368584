"""matrix-product: QKᵀ as every query's dot product with every key, and the transpose that lines the keys up.

Q has one row per query and K one row per key, both `width` numbers wide, filled with whole numbers
from -3 to 3 drawn with `seed`. The product QKᵀ has a cell for every (query, key) pair: row i of Q
times column j of Kᵀ, which is row j of K turned on its side.
Precomputed states: state i * keys + j of text.states holds the key numbers of the product's cell
(i, j), so picking a cell needs no Python; "New numbers" asks the worker for another seed.
`text.parts` are the templates of the short texts the view places: the note under the drawing with
K as stored (`stored`) and as Kᵀ (`transposed`), filled from {v}, the key's number.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .params import ParamError, field

LIVE = True  # "New numbers" asks the worker for matrices the page has no data for

LOW, HIGH = -3, 3  # the entries are whole numbers in this range
PARTS = {
    "stored": "K as stored: one key per row, so key {v} is row {v}. Transpose it and that row becomes column {v}.",
    "transposed": "Kᵀ: the rows of K turned into columns, so key {v} stands in column {v}, above the product's column {v}.",
}


@dataclass(frozen=True)
class Params:
    queries: int = field(2, lo=1, hi=4, doc="rows of Q: how many queries")
    keys: int = field(4, lo=1, hi=5, doc="rows of K (columns of Kᵀ and of the product)")
    width: int = field(3, lo=1, hi=4, doc="numbers in each query and key (d_k)")
    seed: int = field(2, lo=0, hi=2**31 - 1, doc="draws the whole numbers of Q and K")
    row: int = field(0, lo=0, hi=3, doc="the row (query) of the product's cell picked first, counted from 0")
    col: int = field(0, lo=0, hi=4, doc="the column (key) of the product's cell picked first, counted from 0")
    transposed: bool = field(True, doc="K drawn as Kᵀ (columns) at first, else as stored (rows)")

    def __post_init__(self):
        if self.row >= self.queries:
            raise ParamError("row", f"option 'row' must be below queries ({self.queries}), not {self.row}")
        if self.col >= self.keys:
            raise ParamError("col", f"option 'col' must be below keys ({self.keys}), not {self.col}")


EXAMPLE = {"queries": 3, "keys": 2, "width": 4, "seed": 5, "row": 2, "col": 1, "transposed": False}
BROKEN = ({"queries": 2, "row": 3}, "row")  # options that break a rule of Params' own, and the option it names


def compute(p: Params) -> dict:
    rng = np.random.default_rng(p.seed)
    q = rng.integers(LOW, HIGH + 1, (p.queries, p.width))  # (n_q, d)
    k = rng.integers(LOW, HIGH + 1, (p.keys, p.width))  # (n_k, d)
    products = q[:, None, :] * k[None, :, :]  # (n_q, n_k, d) the terms of every cell's dot product
    scores = q @ k.T  # (n_q, n_k) each cell the sum of its terms
    return {
        "q": q.tolist(),
        "k": k.tolist(),
        "kt": k.T.tolist(),  # (d, n_k): Kᵀ, the same numbers with rows and columns swapped
        "products": products.tolist(),
        "scores": scores.tolist(),
        "start": {"row": p.row, "col": p.col},
        "transposed": p.transposed,
    }


def _vector(v) -> str:
    return "(" + ", ".join(str(x) for x in v) + ")"


def cell_line(data: dict, i: int, j: int) -> str:
    """The product's cell (i, j) as a sum of products, with the row and the column it comes from."""
    terms = " + ".join(f"({a})({b})" for a, b in zip(data["q"][i], data["k"][j]))
    return (f"Row {i + 1} of Q · column {j + 1} of Kᵀ (query {i + 1} · key {j + 1}): "
            f"{terms} = {data['scores'][i][j]}")


def text(p: Params, data: dict) -> dict:
    n_q, n_k = len(data["q"]), len(data["k"])
    states = [{"numbers": [cell_line(data, i, j)],
               "label": f"Cell row {i + 1}, column {j + 1}: {data['scores'][i][j]}"}
              for i in range(n_q) for j in range(n_k)]
    fixed_lines = [
        "Q, one row per query: " + ", ".join(_vector(r) for r in data["q"]),
        "K, one row per key: " + ", ".join(_vector(r) for r in data["k"]),
        "QKᵀ, row by row: " + ", ".join(_vector(r) for r in data["scores"]),
    ]
    index = opening_state(p, data)
    width = len(data["q"][0])
    return {
        "alt": (f"The product QKᵀ drawn as a grid: Q ({n_q} queries of {width} numbers) on the left, Kᵀ "
                f"({n_k} keys as columns) above, and their product, {n_q} by {n_k}, where each row meets each "
                f"column. {states[index]['numbers'][0]}."),
        "numbers": states[index]["numbers"] + fixed_lines,
        "states": states,
        "fixed": fixed_lines,
        "parts": PARTS,
        "legend": "Left: Q, a row per query. Top: K transposed, a column per key. Each cell of the product is its row times its column.",
    }


def state_count(data: dict) -> int:
    """How many states the view steps through: one per cell of QKᵀ."""
    return len(data["q"]) * len(data["k"])


def opening_state(p: Params, data: dict) -> int:
    """The state the view opens in: the options' cell, row * len(k) + column."""
    return data["start"]["row"] * len(data["k"]) + data["start"]["col"]


def facts(p: Params, data: dict) -> dict:
    i, j = data["start"]["row"], data["start"]["col"]
    q, k = np.array(data["q"]), np.array(data["k"])
    return {
        "queries": len(q), "keys": len(k), "width": q.shape[1],
        "cell": {"row": i + 1, "col": j + 1, "query": q[i].tolist(), "key": k[j].tolist(),
                 "products": (q[i] * k[j]).tolist(), "score": int(q[i] @ k[j])},
        "cells": len(q) * len(k),  # dot products in one matrix product
        "multiplications": len(q) * len(k) * q.shape[1],
    }
