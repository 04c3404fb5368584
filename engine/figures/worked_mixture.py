"""worked-mixture: one attention head for one position, worked by hand, and a second head beside it.

The position is "bank" in "the fisherman repaired his net beside the bank", cut down to three
positions with invented two-number queries, keys and values. Every intermediate number of the
calculation is returned (each product of the dot products, the exponentials, their total, each
weighted value), so the view prints the arithmetic without doing any of it.
Text states are indexed like `heads`: state h has no key numbers of its own (both heads' lines are
in `text.fixed`, whichever is shown) and its "label" is the aria-label of head h's plot.
`text.worked[h]` is head h's arithmetic as the view prints it, already formatted: lines of pieces,
each a string or [string, class] (a class "sup" is an exponent), and `points`, the label at each
value of the plot. Two heads of a few lines each weigh little, so the view formats nothing.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ..attention import softmax_forward
from .fmt import fixed
from .params import ParamError, field

R2 = math.sqrt(2.0)

Vectors = tuple[tuple[float, ...], ...]


@dataclass(frozen=True)
class Params:
    labels: tuple[str, ...] = field(("fisherman", "net", "bank"), length=(2, 6), doc="the positions bank can read")
    # Head 1: the query at bank points along the first axis, where fisherman's key is longest.
    query1: tuple[float, ...] = field((R2, 0.0), lo=-10, hi=10, length=(1, 4), doc="head 1's query at bank")
    keys1: Vectors = field(((2.0, 0.0), (1.0, 1.0), (0.0, 1.0)), lo=-10, hi=10, length=(1, 6), doc="head 1's keys, one per label")
    values1: Vectors = field(((2.0, 0.0), (0.0, 2.0), (1.0, 1.0)), lo=-10, hi=10, length=(1, 6), doc="head 1's values, one per label")
    # Head 2 has its own query and keys, chosen so that fisherman and net swap scores;
    # its values are the same as head 1's, so the two outputs differ only through the weights.
    query2: tuple[float, ...] = field((0.0, R2), lo=-10, hi=10, length=(1, 4), doc="head 2's query at bank")
    keys2: Vectors = field(((1.0, 1.0), (0.0, 2.0), (1.0, 0.0)), lo=-10, hi=10, length=(1, 6), doc="head 2's keys, one per label")
    values2: Vectors = field(((2.0, 0.0), (0.0, 2.0), (1.0, 1.0)), lo=-10, hi=10, length=(1, 6), doc="head 2's values, one per label")
    head: int = field(1, lo=1, hi=2, doc="the head the figure shows first")

    def __post_init__(self):
        if len(set(self.labels)) != len(self.labels):
            raise ParamError("labels", f"option 'labels' must not repeat a word: {list(self.labels)}")
        for h in (1, 2):
            _check_head(self, h)


EXAMPLE = {"head": 2}
BROKEN = ({"labels": ["a", "a", "b"]}, "labels")  # options that break a rule of Params' own, and the option it names


def _check_head(p: Params, h: int) -> None:
    n, q = len(p.labels), getattr(p, f"query{h}")
    keys, values = getattr(p, f"keys{h}"), getattr(p, f"values{h}")
    for name, rows in ((f"keys{h}", keys), (f"values{h}", values)):
        if len(rows) != n:
            raise ParamError(name, f"option '{name}' needs one vector per label ({n}), not {len(rows)}")
    for i, k in enumerate(keys):
        if len(k) != len(q):
            raise ParamError(f"keys{h}", f"option 'keys{h}[{i}]' must have as many numbers as 'query{h}' ({len(q)}), not {len(k)}")
    for i, v in enumerate(values):
        if len(v) != len(values[0]):
            raise ParamError(f"values{h}", f"option 'values{h}[{i}]' must have {len(values[0])} numbers like the first value, not {len(v)}")


def _head(labels, query, keys, values) -> dict:
    q = np.asarray(query, dtype=float)  # (d,)
    k = np.asarray(keys, dtype=float)  # (n, d)
    v = np.asarray(values, dtype=float)  # (n, dv)
    d = q.shape[0]
    root_d = math.sqrt(d)
    products = k * q[None, :]  # (n, d) the terms of each dot product q . k_j
    dots = products.sum(axis=1)  # (n,)
    scores = dots / root_d  # (n,)
    exps = np.exp(scores)  # (n,) scores stay small here (|q|, |k| <= 10, d <= 4): no overflow
    total = float(exps.sum())
    weights, _ = softmax_forward(scores)  # (n,)
    weighted = weights[:, None] * v  # (n, dv) each value scaled by its weight
    output = weighted.sum(axis=0)  # (dv,) the mixture: the head's output at this position
    return {
        "query": q.tolist(),
        "keys": k.tolist(),
        "values": v.tolist(),
        "d": d,
        "root_d": root_d,
        "products": products.tolist(),
        "dots": dots.tolist(),
        "scores": scores.tolist(),
        "exps": exps.tolist(),
        "exp_sum": total,
        "weights": weights.tolist(),
        "weighted": weighted.tolist(),
        "output": output.tolist(),
        "top": labels[int(np.argmax(weights))],
    }


def compute(p: Params) -> dict:
    heads = []
    for h in (1, 2):
        heads.append(_head(p.labels, getattr(p, f"query{h}"), getattr(p, f"keys{h}"), getattr(p, f"values{h}")))
    return {"labels": list(p.labels), "heads": heads, "start": p.head - 1}


def _given(x: float) -> str:
    """A given number (query, key, value) as written when whole, else to 4 decimals like the computed ones."""
    return str(int(x)) if float(x).is_integer() else fixed(x, 4)


def _num(x: float) -> str:
    """A computed number, to 4 decimals."""
    return fixed(x, 4)


def _vec(v, f=_num) -> str:
    return "(" + ", ".join(f(x) for x in v) + ")"


def _joined(items, sep=" + ") -> list:
    """Pieces of each item in turn, with `sep` between items."""
    out = []
    for i, pieces in enumerate(items):
        out += ([sep] if i else []) + pieces
    return out


def worked(labels, head: dict, h: int) -> dict:
    """Head h's arithmetic, step by step, as lines of pieces (see the module docstring)."""
    word = [[w, "wm-word"] for w in labels]
    root = _num(head["root_d"])
    scores = [_joined([[[_given(q), "wm-q"], " × ", [_given(k), "wm-k"]] for q, k in zip(head["query"], key)])
              + [" = " + " + ".join(map(_num, products)) + " = " + _num(dot), f"; ÷ {root} = ", [_num(s), "wm-s"]]
              for key, products, dot, s in zip(head["keys"], head["products"], head["dots"], head["scores"])]
    total = _num(head["exp_sum"])
    outputs = [[f"number {t + 1}: "] + _joined([[[_num(w), "wm-w"], " × ", [_given(v[t]), "wm-v"]]
                                               for w, v in zip(head["weights"], head["values"])])
               + [" = " + " + ".join(_num(row[t]) for row in head["weighted"]) + " = ", [_num(o), "wm-w"]]
               for t, o in enumerate(head["output"])]
    return {
        "lead": [f"Head {h + 1}, at ", word[-1], ": query ", [_vec(head["query"], _given), "wm-q"], f", d = {head['d']}."],
        "given": [[w, ": key ", [_vec(k, _given), "wm-k"], ", value ", [_vec(v, _given), "wm-v"]]
                  for w, k, v in zip(word, head["keys"], head["values"])],
        "steps": [
            {"title": [f"Scores: the raw score query · key, term by term, then the scaled score ÷ √{head['d']} = {root}"],
             "lines": [[w, ": "] + line for w, line in zip(word, scores)]},
            {"title": ["Exponentials, e to the power of each scaled score"],
             "lines": [[w, ": e", [_num(s), "sup"], " = " + _num(e)] for w, s, e in zip(word, head["scores"], head["exps"])]
             + [["total: " + " + ".join(map(_num, head["exps"])) + " = ", [total, "wm-s"]]]},
            {"title": ["Weights, each exponential ÷ the total"],
             "lines": [[w, f": {_num(e)} ÷ {total} = ", [_num(x), "wm-w"]]
                       for w, e, x in zip(word, head["exps"], head["weights"])]},
            {"title": ["Output, the weighted sum of the values, one number at a time"], "lines": outputs},
        ],
        "result": [f"Output of head {h + 1}: ", [_vec(head["output"]), "wm-w"], ". Every sum uses the unrounded numbers."],
        "points": [f"{w} {fixed(x)}" for w, x in zip(labels, head["weights"])],
    }


def text(p: Params, data: dict) -> dict:
    labels, heads = data["labels"], data["heads"]
    lines, parts = [], []
    for h, head in enumerate(heads, start=1):
        scores = ", ".join(f"{w} {fixed(s, 4)}" for w, s in zip(labels, head["scores"]))
        weights = ", ".join(f"{w} {fixed(x, 4)}" for w, x in zip(labels, head["weights"]))
        lines += [f"Head {h} scaled scores: {scores}", f"Head {h} weights: {weights}", f"Head {h} output: {_vec(head['output'])}"]
        parts.append(f"Head {h} scaled scores {scores}; weights {weights}; output {_vec(head['output'])}.")
    states = []
    for h, head in enumerate(heads):
        other = heads[len(heads) - 1 - h]
        states.append({"numbers": [], "label": (
            f"Values and output of head {h + 1} as points: "
            + ", ".join(f"value of {w} at {_vec(v, _given)}" for w, v in zip(labels, head["values"]))
            + f"; output at {_vec(head['output'])}; the other head's output at {_vec(other['output'])}.")})
    return {
        "alt": ("Bar chart of the attention weights of two heads at bank, and a plot of the three values "
                "with each head's output between them. " + " ".join(parts)),
        "numbers": lines,
        "states": states,
        "fixed": lines,
        "worked": [worked(labels, head, h) for h, head in enumerate(heads)],
    }


def state_count(data: dict) -> int:
    """How many states the view steps through: one per head."""
    return len(data["heads"])


def opening_state(p: Params, data: dict) -> int:
    """The state the view opens in: the option's head."""
    return data["start"]


def facts(p: Params, data: dict) -> dict:
    labels, heads = data["labels"], data["heads"]
    out = {}
    for h, head in enumerate(heads, start=1):
        out[f"head{h}"] = {
            "score": dict(zip(labels, head["scores"])),
            "dot": dict(zip(labels, head["dots"])),
            "exp": dict(zip(labels, head["exps"])),
            "exp_sum": head["exp_sum"],
            "weight": dict(zip(labels, head["weights"])),
            "output": head["output"],
            "top": head["top"],
        }
    out["root_d"] = heads[0]["root_d"]
    out["d"] = heads[0]["d"]
    # With equal weights the mixture would be the plain average of head 1's values.
    out["even_output"] = np.mean(np.asarray(heads[0]["values"], dtype=float), axis=0).tolist()  # (dv,)
    return out
