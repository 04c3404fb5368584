"""Losses, optimisers and a seeded training loop with checkpoints and a progress callback.

Parameters live in one flat float64 buffer with named views into it, so an optimiser
updates every weight with a handful of vector operations per step.
"""
from dataclasses import dataclass, field

import numpy as np


# ---- cross-entropy -----------------------------------------------------------------

@dataclass(frozen=True)
class CrossEntropyCache:
    probs: np.ndarray    # (..., C) softmax of the logits
    targets: np.ndarray  # (...) integer class per row
    rows: np.ndarray     # (...) 1.0 for rows that count, 0.0 for padding
    count: float         # number of rows that count


def cross_entropy_forward(logits, targets, valid=None):
    """Mean of -log p(target) over the rows that count; -inf logits mark impossible classes."""
    logits = np.asarray(logits, dtype=np.float64)
    targets = np.asarray(targets)
    rows = np.ones(targets.shape) if valid is None else np.asarray(valid, dtype=np.float64)  # (...)
    count = max(float(rows.sum()), 1.0)
    z = logits - logits.max(axis=-1, keepdims=True)  # (..., C)
    e = np.exp(z)  # (..., C)
    total = e.sum(axis=-1)  # (...)
    z_target = np.take_along_axis(z, np.where(rows > 0, targets, 0)[..., None], axis=-1)[..., 0]  # (...)
    nll = np.where(rows > 0, np.log(total) - z_target, 0.0)  # (...)
    probs = e / total[..., None]  # (..., C)
    return float(nll.sum() / count), CrossEntropyCache(probs, targets, rows, count)


def cross_entropy_backward(dloss, cache):
    """dLoss/dlogits = (softmax - one_hot(target)) / rows, zero on rows that do not count."""
    dlogits = cache.probs.copy()  # (..., C)
    t = np.where(cache.rows > 0, cache.targets, 0)[..., None]  # (..., 1)
    np.put_along_axis(dlogits, t, np.take_along_axis(dlogits, t, axis=-1) - 1.0, axis=-1)
    dlogits *= (dloss / cache.count) * cache.rows[..., None]  # (..., C)
    return dlogits


# ---- flat parameters ---------------------------------------------------------------

def pack(arrays):
    """Copy named arrays into one flat float64 buffer; return it and named views into it."""
    names = list(arrays)
    sizes = [np.size(arrays[n]) for n in names]
    flat = np.empty(sum(sizes))  # (P,)
    views, start = {}, 0
    for n, s in zip(names, sizes):
        views[n] = flat[start:start + s].reshape(np.shape(arrays[n]))
        views[n][...] = arrays[n]
        start += s
    return flat, views


def flatten(grads, names):
    """Gradients in the same order as the packed parameters, as one vector."""
    return np.concatenate([np.ravel(grads[n]) for n in names])  # (P,)


def to_json(arrays):
    """Named arrays as nested lists of floats, ready for json.dumps."""
    return {n: np.asarray(a, dtype=np.float64).tolist() for n, a in arrays.items()}


# ---- optimisers --------------------------------------------------------------------

@dataclass(frozen=True)
class AdamConfig:
    lr: float = 0.01      # step size
    beta1: float = 0.9    # decay of the running gradient mean
    beta2: float = 0.999  # decay of the running squared-gradient mean
    eps: float = 1e-8     # keeps the division finite where a gradient has been zero


class Adam:
    """Adam (Kingma & Ba 2015) on a flat parameter vector, updated in place."""

    def __init__(self, size, config=AdamConfig()):
        self.config = config
        self.m = np.zeros(size)  # (P,)
        self.v = np.zeros(size)  # (P,)
        self.t = 0

    def step(self, params, grad):
        c = self.config
        self.t += 1
        self.m += (1.0 - c.beta1) * (grad - self.m)  # (P,)
        self.v += (1.0 - c.beta2) * (grad * grad - self.v)  # (P,)
        lr_t = c.lr * np.sqrt(1.0 - c.beta2 ** self.t) / (1.0 - c.beta1 ** self.t)
        params -= lr_t * self.m / (np.sqrt(self.v) + c.eps)  # (P,)


@dataclass(frozen=True)
class SGDConfig:
    lr: float = 0.1        # step size
    momentum: float = 0.9  # fraction of the previous step carried into the next


class SGD:
    """Gradient descent with (heavy-ball) momentum on a flat parameter vector, in place."""

    def __init__(self, size, config=SGDConfig()):
        self.config = config
        self.velocity = np.zeros(size)  # (P,)

    def step(self, params, grad):
        self.velocity *= self.config.momentum
        self.velocity += grad  # (P,)
        params -= self.config.lr * self.velocity  # (P,)


# ---- the loop ----------------------------------------------------------------------

class TrainingCancelled(Exception):
    """Raise from a progress callback to stop training; the run keeps what it has so far."""


@dataclass(frozen=True)
class Progress:
    step: int     # steps done so far, 1-based
    steps: int    # steps planned
    loss: float   # loss of the batch of this step, before the update


@dataclass
class TrainResult:
    losses: list = field(default_factory=list)       # one float per step done
    checkpoints: list = field(default_factory=list)  # dicts name -> array copy
    checkpoint_steps: list = field(default_factory=list)  # step count of each checkpoint
    params: dict = field(default_factory=dict)       # the weights after the last step done
    cancelled: bool = False


def train(loss_and_grads, params, optimizer, steps, checkpoint_every=0, callback=None):
    """Run ``steps`` updates; ``loss_and_grads(views, step) -> (loss, grads)`` must be seeded by step.

    ``params`` is a dict of arrays (copied, never modified). Checkpoints are taken at the
    start and every ``checkpoint_every`` steps. ``callback(Progress)`` runs after each
    step; returning False or raising TrainingCancelled stops the run early.
    """
    names = list(params)
    flat, views = pack(params)
    result = TrainResult()

    def save(step):
        result.checkpoints.append({n: views[n].copy() for n in names})
        result.checkpoint_steps.append(step)

    if checkpoint_every:
        save(0)
    for step in range(steps):
        loss, grads = loss_and_grads(views, step)
        optimizer.step(flat, flatten(grads, names))
        result.losses.append(loss)
        if checkpoint_every and (step + 1) % checkpoint_every == 0:
            save(step + 1)
        if callback is not None:
            try:
                keep_going = callback(Progress(step + 1, steps, loss))
            except TrainingCancelled:
                keep_going = False
            if keep_going is False:
                result.cancelled = step + 1 < steps
                break
    result.params = {n: views[n].copy() for n in names}
    return result
