"""softmax(x): softmax over the last axis, stable for large inputs."""
from __future__ import annotations

import numpy as np

from .cases import Trial, Verdict, close, describe, judge, rng, softmax as reference

FUNCTION = "softmax"
PASSED = "All cases pass: every row sums to 1, over the last axis, even for scores in the thousands."


def cases():
    r = rng(0)
    yield np.array([1.0, 2.0, 3.0])
    yield r.normal(size=(3, 4))
    yield r.normal(size=(2, 3, 5))
    yield np.array([1000.0, 1001.0, 1002.0])  # exp overflows unless the maximum is subtracted
    yield np.array([[-1000.0, -1000.0], [5.0, -5.0]])  # exp underflows to 0 for the first row, unshifted


OVERFLOW = ("The exponentials overflow (or underflow to 0/0) for large scores: subtract each row's maximum "
            "before exp; softmax does not change when every score moves by the same amount.")


def trials() -> list[Trial]:
    return [Trial((x,), {}, reference(x), describe(x=x), x) for x in cases()]


def verdict(ts, got) -> Verdict | None:
    return judge(ts, got, diagnose, OVERFLOW)


def diagnose(got, x) -> str:
    if x.ndim > 1 and close(got, reference(x, axis=0)):
        return ("The softmax runs over the wrong axis: each row, along the last axis (axis=-1), must sum to 1. "
                "Pass axis=-1 and keepdims=True to the max and the sum.")
    if x.ndim > 1 and np.allclose(got.sum(), 1.0):
        return "The whole array sums to 1, but each row should: sum over the last axis only (axis=-1, keepdims=True)."
    if not np.allclose(got.sum(axis=-1), 1.0):
        return "Each row should sum to 1: divide each exponential by its row's total."
    return "Rows sum to 1 but the values differ from softmax: each entry should be exp(x) divided by the row's total of exp(x)."
