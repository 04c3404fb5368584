"""Scaled dot-product attention as forward/backward pairs of pure functions.

Each ``op_forward(...)`` returns ``(out, cache)`` and each ``op_backward(dout, cache)``
returns the gradients, so training code can chain them by hand without autograd.
"""
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class SoftmaxCache:
    """What softmax_backward needs: the output alone determines the Jacobian."""
    y: np.ndarray


def softmax_forward(x):
    """Softmax along the last axis; subtracting the row max keeps exp from overflowing."""
    z = x - x.max(axis=-1, keepdims=True)  # (..., n)
    e = np.exp(z)  # (..., n)
    y = e / e.sum(axis=-1, keepdims=True)  # (..., n)
    return y, SoftmaxCache(y)


def softmax_backward(dy, cache):
    """dx = y * (dy - <dy, y>): the Jacobian-vector product without forming the Jacobian."""
    y = cache.y
    dx = y * (dy - (dy * y).sum(axis=-1, keepdims=True))  # (..., n)
    return dx
