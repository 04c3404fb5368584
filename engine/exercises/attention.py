"""attention(q, k, v, causal=False): softmax(q kᵀ / √d_k, masked) v."""
from __future__ import annotations

import math

import numpy as np

from .cases import Trial, Verdict, close, describe, judge, rng, softmax

FUNCTION = "attention"
PASSED = ("All cases pass: scaled by √d_k, softmax over the keys, the mask on the scores, stable for "
          "large scores, with d_v ≠ d_k and batched inputs.")


def reference(q, k, v, causal=False, scale=True, axis=-1, mask_after=False):
    """The engine's attention, and the mistakes the grader recognises as variants of it."""
    s = q @ np.swapaxes(k, -1, -2) / (math.sqrt(q.shape[-1]) if scale else 1.0)  # (..., T, S)
    allowed = np.tril(np.ones(s.shape[-2:], dtype=bool)) if causal else np.ones(s.shape[-2:], dtype=bool)
    if causal and not mask_after:
        s = np.where(allowed, s, -np.inf)
    w = softmax(s, axis=axis)
    if causal and mask_after:
        w = np.where(allowed, w, 0.0)  # shares zeroed after the softmax: rows no longer sum to 1
    return w @ v


def cases():
    r = rng(1)
    yield r.normal(size=(3, 4)), r.normal(size=(5, 4)), r.normal(size=(5, 2)), False  # d_v != d_k, S != T
    yield r.normal(size=(4, 3)), r.normal(size=(4, 3)), r.normal(size=(4, 3)), True
    yield r.normal(size=(2, 4, 8)), r.normal(size=(2, 4, 8)), r.normal(size=(2, 4, 3)), True  # batched
    yield 30 * r.normal(size=(3, 16)), 30 * r.normal(size=(3, 16)), r.normal(size=(3, 2)), False  # large scores


MISTAKES = (
    ({"scale": False}, "The scores are not divided by √d_k: divide q kᵀ by the square root of the key width, "
                       "q.shape[-1]."),
    ({"axis": -2}, "The softmax runs over the queries instead of the keys: each query's row of scores (the last "
                   "axis) must sum to 1."),
    ({"mask_after": True}, "The mask is applied after the softmax: set blocked scores to −∞ before it, so the "
                           "allowed weights still sum to 1."),
    ({"causal": False}, "With causal=True a position must not read later positions: set the scores above the "
                        "diagonal to −∞ before the softmax."),
    ({"causal": True}, "With causal=False every position reads every key: apply the mask only when causal is True."),
)


OVERFLOW = ("The result has inf or nan: for large scores the exponentials overflow. Subtract each row's maximum "
            "score before exp (a blocked −∞ score then gives exp(−∞) = 0).")


def trials() -> list[Trial]:
    return [Trial((q, k, v), {"causal": causal}, reference(q, k, v, causal),
                  describe(q=q, k=k, v=v, causal=np.bool_(causal)), (q, k, v, causal)) for q, k, v, causal in cases()]


def verdict(ts, got) -> Verdict | None:
    return judge(ts, got, diagnose, OVERFLOW)


def diagnose(got, inputs) -> str:
    q, k, v, causal = inputs
    for change, message in MISTAKES:
        if close(got, reference(q, k, v, **{"causal": causal, **change})):
            return message
    return "The result differs from softmax(q kᵀ / √d_k) v on this case."
