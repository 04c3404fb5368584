"""sum-spread: add up n independent random terms, many times over, and watch the spread of the sums grow as √n.

`runs` rows of MAX_N random terms are drawn once with `seed` (coin flips, -1 or +1, or numbers spread
evenly between -1 and 1); the sum of the first n terms of every row is one sum of n terms, so every
n from 1 to MAX_N reuses the same runs, each adding one more term. For each n the model measures the
standard deviation of the sums and sets it beside √n times one term's standard deviation.
Precomputed states: state n - 1 of text.states (and of `counts`, `std`, `mean`, `predicted`) is n
terms, the slider's stop n - 1, so the slider needs no Python; another kind of term or a new draw asks
the worker. `text.parts` name the kinds of term for the menu and give the slider's value text (`n`).
The histogram of n's sums has its bars `bin` wide, bar k centred at first[n - 1] + k * bin
with counts[n - 1][k] sums: for coin flips one bar per value a sum can take (n, n - 2, ...), for the
even spread bins on a fixed grid.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .fmt import fixed, rounded
from .params import field

LIVE = True  # another kind of term, or a new draw, asks the worker

MAX_N = 64  # the slider's last stop: the most terms in a sum
REACH = 4  # the axis spans ±REACH standard deviations of the widest sum
TERMS = {  # kind -> (what a reader reads, one term's standard deviation)
    "coin": ("a coin flip, -1 or +1", 1.0),
    "uniform": ("a number spread evenly between -1 and 1", 1.0 / math.sqrt(3.0)),
}
PARTS = {"coin": "coin flips, -1 or +1", "uniform": "even spread from -1 to 1",  # the term menu
         "n": "n = {v}"}  # the slider's value text
BINS = 32  # bins of the even spread's histogram across the axis


@dataclass(frozen=True)
class Params:
    n: int = field(16, lo=1, hi=MAX_N, doc="the number of terms shown first")
    term: str = field("coin", choices=tuple(TERMS), doc="what one term is")
    runs: int = field(2000, lo=100, hi=5000, doc="sums drawn for every n")
    seed: int = field(0, lo=0, hi=2**31 - 1, doc="the random seed of the draws")
    # The prose's worked example of a mean and a variance: a few numbers, nothing to do with the draws.
    example: tuple[float, ...] = field((1.0, 3.0, 5.0, 7.0), lo=-100, hi=100, length=(2, 8),
                                        doc="the numbers of the worked example of a mean and a variance")


EXAMPLE = {"n": 40, "term": "uniform", "runs": 500, "seed": 3}


def draw_terms(p: Params) -> np.ndarray:
    """(runs, MAX_N) independent terms, one row per run."""
    rng = np.random.default_rng(p.seed)
    if p.term == "coin":
        return rng.choice(np.array([-1.0, 1.0]), size=(p.runs, MAX_N))
    return rng.uniform(-1.0, 1.0, size=(p.runs, MAX_N))


def _histogram(sums: np.ndarray, term: str, width: float) -> tuple[float, list[int]]:
    """The bars of one n's sums: the centre of the first bar, and the count of every bar from there,
    each `width` wide, from the lowest sum to the highest (so no sum is left out)."""
    if term == "coin":  # a sum of n flips is one of n, n - 2, ..., -n: one bar per value
        lo, hi = sums.min(), sums.max()
        counts = np.bincount(np.rint((sums - lo) / 2).astype(int), minlength=int(round((hi - lo) / 2)) + 1)
        return float(lo), counts.tolist()
    k = np.floor(sums / width).astype(int)  # (runs,) bar k holds [k w, (k + 1) w)
    counts = np.bincount(k - k.min())
    return float((k.min() + 0.5) * width), counts.tolist()


def compute(p: Params) -> dict:
    sigma = TERMS[p.term][1]
    sums = np.cumsum(draw_terms(p), axis=1)  # (runs, MAX_N): column n - 1 holds the sums of n terms
    ns = np.arange(1, MAX_N + 1)
    std = sums.std(axis=0)  # (MAX_N,) the root of the mean squared distance from the mean
    reach = REACH * math.sqrt(MAX_N) * sigma  # the axis runs from -reach to reach (wider if a sum falls beyond)
    width = 2.0 if p.term == "coin" else 2 * reach / BINS
    bars = [_histogram(sums[:, n - 1], p.term, width) for n in ns]
    return {
        "ns": ns.tolist(),
        "term": p.term,
        "sigma": sigma,  # one term's standard deviation, exactly
        "runs": p.runs,
        "std": rounded(std, 4),
        "mean": rounded(sums.mean(axis=0), 4),
        "predicted": rounded(np.sqrt(ns) * sigma, 4),
        "reach": reach,
        "bin": width,
        "first": rounded([b[0] for b in bars], 4),  # bar k of n's histogram is centred at first[n - 1] + k * bin
        "counts": [b[1] for b in bars],
        "start": p.n - 1,
    }


def _line(data: dict, i: int) -> str:
    n = data["ns"][i]
    return (f"n = {n}: standard deviation of the {data['runs']:,} sums {fixed(data['std'][i])}; "
            f"√{n} × {fixed(data['sigma'])} = {fixed(data['predicted'][i])}")


def text(p: Params, data: dict) -> dict:
    states = [{"numbers": [_line(data, i)],
               "label": (f"spread {fixed(data['std'][i])}; √{data['ns'][i]} × {fixed(data['sigma'])} = "
                         f"{fixed(data['predicted'][i])}")}
              for i in range(len(data["ns"]))]
    what, sigma = TERMS[data["term"]]
    fixed_lines = [f"One term: {what}; its standard deviation is {fixed(sigma)}",
                   f"The same {data['runs']:,} runs for every n, each adding one more term"]
    i, last = opening_state(p, data), len(data["ns"]) - 1
    return {
        "alt": (f"A histogram of {data['runs']:,} sums of n random terms, each {what}. The sums spread out as n grows: "
                f"their standard deviation is {fixed(data['std'][0])} for one term, {fixed(data['std'][i])} for "
                f"{data['ns'][i]} and {fixed(data['std'][last])} for {data['ns'][last]}, close to √n × {fixed(sigma)}."),
        "numbers": states[i]["numbers"] + fixed_lines,
        "states": states,
        "fixed": fixed_lines,
        "parts": PARTS,
        "legend": ("Bars: how many sums fell in each range. Orange bracket: the measured standard deviation "
                   "either side of the mean; blue marks: √n times one term's."),
    }


def state_count(data: dict) -> int:
    """How many states the view steps through: one per n."""
    return len(data["ns"])


def opening_state(p: Params, data: dict) -> int:
    """The state the view opens in: the option's n."""
    return data["start"]


def facts(p: Params, data: dict) -> dict:
    x = np.asarray(p.example, dtype=float)
    mean = float(x.mean())
    deviations = x - mean
    squares = deviations ** 2
    # Two fair coins, every outcome listed: the variances of independent terms add.
    pairs = np.array([(a, b) for a in (-1, 1) for b in (-1, 1)], dtype=float)  # (4, 2) equally likely
    two = pairs.sum(axis=1)  # (4,)
    at = {str(n): {"n": n, "std": data["std"][n - 1], "sqrt": math.sqrt(n)}
          for n in (16, MAX_N)}
    return {
        "example": {"values": x.tolist(), "sum": float(x.sum()), "mean": mean,
                    "deviations": deviations.tolist(), "squares": squares.tolist(),
                    "squares_sum": float(squares.sum()), "variance": float(squares.mean()),
                    "std": float(math.sqrt(squares.mean()))},
        "coin": {"variance": float(np.mean(np.array([-1.0, 1.0]) ** 2)), "two_sums": two.tolist(),
                 "two_variance": float(np.mean((two - two.mean()) ** 2))},
        "at": at,
        "runs": data["runs"],
        "most": MAX_N,
    }
