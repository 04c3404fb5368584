"""softmax_backward(dweights, weights): the gradient with respect to the scores, graded against
central finite differences of the loss L(s) = Σ dweights ⊙ softmax(s), not against a formula."""
from __future__ import annotations

import numpy as np

from .cases import Trial, Verdict, close, describe, judge, rng, softmax

FUNCTION = "softmax_backward"
PASSED = "All cases pass: your gradient matches finite differences of the loss to within 10⁻⁶."
H = 1e-6


def numeric(dweights, scores):
    """dL/ds by central differences, one score at a time: no formula involved."""
    grad = np.zeros_like(scores)
    for idx in np.ndindex(scores.shape):
        e = np.zeros_like(scores)
        e[idx] = H
        grad[idx] = ((dweights * softmax(scores + e)).sum() - (dweights * softmax(scores - e)).sum()) / (2 * H)
    return grad


def cases():
    r = rng(2)
    yield r.normal(size=4), r.normal(size=4)
    yield r.normal(size=(3, 5)), r.normal(size=(3, 5))
    yield r.normal(size=(2, 2, 3)), 4 * r.normal(size=(2, 2, 3))


def trials() -> list[Trial]:
    out = []
    for dweights, scores in cases():
        weights = softmax(scores)
        out.append(Trial((dweights, weights), {}, numeric(dweights, scores),
                         describe(dweights=dweights, weights=weights), (dweights, weights)))
    return out


def verdict(ts, got) -> Verdict | None:
    # Finite differences are good to about 1e-9 here; the tolerance leaves room, not room for a wrong term.
    return judge(ts, got, diagnose, rtol=1e-5, atol=1e-6)


def diagnose(got, inputs) -> str:
    dweights, weights = inputs
    if close(got, weights * dweights):
        return ("The Σ term is missing: the weights share one total, so raising one score lowers every other "
                "weight. Subtract each row's sum of dweights ⊙ weights: "
                "weights * (dweights − (dweights * weights).sum(axis=-1, keepdims=True)).")
    if weights.ndim > 1 and close(got, weights * (dweights - (dweights * weights).sum(axis=0, keepdims=True))):
        return ("The sum runs over the wrong axis: each row of scores has its own softmax, so sum dweights ⊙ weights "
                "over the last axis (axis=-1, keepdims=True).")
    if close(got, weights * (dweights - (dweights * weights).sum())):
        return "The sum runs over the whole array: sum over the last axis only (axis=-1, keepdims=True), one total per row."
    if close(got, dweights * (weights - weights ** 2)):
        return ("That is only the diagonal of the softmax Jacobian: every weight depends on every score in its row, "
                "so include the Σ dweights ⊙ weights term.")
    return "The gradient differs from finite differences of the loss on this case."
