"""attention-matrix: every row of the hand-set head at once, A = softmax(QKᵀ/√d_k), and one row's output.

Row i of the grid is word i's query against every key (the columns); its output is row i of AV.
All rows are computed, so pointing at a row only chooses what the view shows: text states are
indexed by row; `fixed` holds the column sums (which, unlike the row sums, need not be 1);
`parts.cell` is the template of one weight in the grid.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..tasks import winograd
from .fmt import fixed, pairs
from .params import field


@dataclass(frozen=True)
class Params:
    last: str = field("tired", choices=winograd.LAST_WORDS, doc="the sentence's last word")
    row: int = field(winograd.IT, lo=0, hi=len(winograd.SENTENCE), doc="the row selected first (\"it\")")


EXAMPLE = {"last": "wide", "row": 2}


def compute(p: Params) -> dict:
    r = winograd.run(p.last)
    a = r["weights"]  # (T, T) row i: how word i's query spreads over the keys
    return {
        "words": list(r["words"]),
        "d_k": r["keys"].shape[1],
        "queries": r["queries"].tolist(),  # (T, d_k) the rows of Q
        "keys": r["keys"].tolist(),  # (T, d_k) the rows of K
        "values": r["values"].tolist(),  # (T, d_v) the rows of V
        "weights": a.tolist(),  # (T, T) A
        "outputs": r["outputs"].tolist(),  # (T, d_v) AV
        "row_sums": a.sum(axis=1).tolist(),  # (T,) each 1
        "column_sums": a.sum(axis=0).tolist(),  # (T,) how much attention each word receives
        "start": p.row,
    }


def _pair(v) -> str:
    return f"({fixed(v[0])}, {fixed(v[1])})"


def _state(data: dict, i: int) -> dict:
    word, w = data["words"][i], data["weights"][i]
    top = int(np.argmax(w))
    return {
        "numbers": [f"Row {i + 1}, the query of “{word}”: " + pairs(data["words"], w),
                    f"Output of “{word}” (row {i + 1} of AV): {_pair(data['outputs'][i])}"],
        "label": (f"Attention matrix; row {i + 1}, “{word}”, selected: its largest weight, "
                  f"{fixed(w[top])}, is on “{data['words'][top]}”, and its output is {_pair(data['outputs'][i])}"),
    }


def text(p: Params, data: dict) -> dict:
    n = len(data["words"])
    states = [_state(data, i) for i in range(n)]
    sums = data["column_sums"]
    top = int(np.argmax(sums))
    return {
        "alt": (f"An {n} by {n} grid of attention weights for “{' '.join(data['words'])}”: one row per word's "
                "query, one column per word's key, each row adding up to 1. Most rows are nearly even; "
                f"the row of “it” puts {fixed(data['weights'][winograd.IT][top])} on “{data['words'][top]}”, "
                f"and the column of “{data['words'][top]}” adds up to {fixed(sums[top])}."),
        "numbers": states[opening_state(p, data)]["numbers"] + ["Column sums: " + pairs(data["words"], sums)],
        "states": states,
        "fixed": ["Column sums: " + pairs(data["words"], sums)],
        "parts": {"cell": "{v:2}"},
    }


def state_count(data: dict) -> int:
    """How many states the view steps through: one per row."""
    return len(data["words"])


def opening_state(p: Params, data: dict) -> int:
    """The state the view opens in: the option's row."""
    return data["start"]


def facts(p: Params, data: dict) -> dict:
    sums = np.array(data["column_sums"])
    top = int(sums.argmax())
    others = np.delete(sums, top)
    it = winograd.IT
    return {
        "size": len(data["words"]),
        "d_k": data["d_k"],
        "d_v": len(data["values"][0]),
        "top_column_word": data["words"][top],
        "top_column_sum": float(sums[top]),
        "other_column_min": float(others.min()),
        "other_column_max": float(others.max()),
        "column_total": float(sums.sum()),
        "it_output": data["outputs"][it],
        "last_word_weight": float(max(data["weights"][-1])),  # the describing word's own row, sharp
        "flattest_row_word": data["words"][int(np.argmin(np.max(data["weights"], axis=1)))],
    }
