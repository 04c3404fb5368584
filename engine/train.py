"""Losses, optimisers and the one training loop: seeded, stepped one update at a time, with checkpoints.

Parameters live in one flat float64 buffer with named views into it, so an optimiser
updates every weight with a handful of vector operations per step.
"""
import math
from dataclasses import dataclass, field

import numpy as np


# ---- cross-entropy -----------------------------------------------------------------

@dataclass(frozen=True)
class CrossEntropyCache:
    probs: np.ndarray     # (A, C, Z) softmax of the logits, classes in the middle
    at_target: np.ndarray  # (A, Z) flat index of each row's target entry in probs
    rows: np.ndarray      # (A, Z) 1 for rows that count, 0 for padding
    count: float          # number of rows that count
    shape: tuple          # shape of the logits as given


def cross_entropy_forward(logits, targets, valid=None, axis=-1):
    """Mean of -log softmax(logits)[target] over the rows that count.

    Classes lie along ``axis`` (default last); ``targets`` (integers in range, padding rows
    included) has the logits' shape without that axis, and ``valid`` (optional) broadcasts
    to it. With the class axis first, every reduction is a whole-array operation, which
    numpy does much faster than reducing many short rows.
    """
    logits = np.asarray(logits)
    if not np.issubdtype(logits.dtype, np.floating):
        logits = logits.astype(np.float64)
    shape = logits.shape
    axis = axis % len(shape)
    A, C = math.prod(shape[:axis]), shape[axis]
    Z = math.prod(shape[axis + 1:])
    z = logits.reshape(A, C, Z)  # (A, C, Z)
    z = z - z.max(axis=1, keepdims=True)  # (A, C, Z) largest logit of each row is 0
    e = np.exp(z)  # (A, C, Z)
    total = e.sum(axis=1)  # (A, Z)
    at_target = (np.arange(A)[:, None] * C + np.asarray(targets).reshape(A, Z)) * Z + np.arange(Z)  # (A, Z)
    nll = np.log(total) - z.ravel()[at_target]  # (A, Z)
    rows = np.ones((A, Z), logits.dtype)  # (A, Z)
    if valid is not None:
        rows.reshape(np.shape(targets))[...] = valid
        nll *= rows
    count = max(float(rows.sum()), 1.0)
    e /= total[:, None, :]  # (A, C, Z) probabilities
    return float(nll.sum()) / count, CrossEntropyCache(e, at_target, rows, count, shape)


def cross_entropy_backward(dloss, cache):
    """dLoss/dlogits = (softmax - one_hot(target)) / count, zero on rows that do not count."""
    w = cache.rows * (dloss / cache.count)  # (A, Z)
    dlogits = cache.probs * w[:, None, :]  # (A, C, Z)
    dlogits.ravel()[cache.at_target] -= w
    return dlogits.reshape(cache.shape)


# ---- flat parameters ---------------------------------------------------------------

def pack(arrays, dtype=np.float64):
    """Copy named arrays into one flat buffer; return it and named views into it."""
    names = list(arrays)
    sizes = [np.size(arrays[n]) for n in names]
    flat = np.empty(sum(sizes), dtype=dtype)  # (P,)
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


@dataclass(frozen=True)
class WarmupCosine:
    """A step-size schedule: the multiplier of Adam's step size at step t (1-based), rising linearly
    over `warmup` steps, then falling along half a cosine to `final` at step `steps` (Loshchilov and
    Hutter 2017's decay without restarts; the warm-up as in Goyal et al. 2017). warmup 0 and final 1: constant."""
    warmup: int = 0
    steps: int = 1
    final: float = 1.0

    def __call__(self, t: int) -> float:
        rise = min(1.0, t / self.warmup) if self.warmup else 1.0
        return rise * (self.final + (1.0 - self.final) * 0.5 * (1.0 + math.cos(math.pi * min(t - 1, self.steps) / self.steps)))


CONSTANT = WarmupCosine()


class Adam:
    """Adam (Kingma & Ba 2015) on a flat parameter vector, updated in place: 11 numpy calls a step
    writing into buffers allocated once (each call's fixed cost dominates in wasm), and the same
    arithmetic, operation for operation, as the paper's update written with temporaries. The step
    size is config.lr times schedule(t). `decay` (P,), if given, is each weight's decoupled weight
    decay (AdamW, Loshchilov and Hutter 2019): before the update a weight shrinks by step size x rate."""

    def __init__(self, size, config=AdamConfig(), dtype=np.float64, schedule=CONSTANT, decay=None):
        self.config, self.schedule = config, schedule
        self.decay = None if decay is None else np.asarray(decay, dtype)  # (P,)
        self.moments = np.zeros((2, size), dtype)  # (2, P) running mean, running squared mean
        self.m, self.v = self.moments  # (P,) views
        self.rates = np.array([[1.0 - config.beta1], [1.0 - config.beta2]], dtype)  # (2, 1)
        self.moves = np.empty((2, size), dtype)  # (2, P) what each moment moves by
        self.denom = np.empty(size, dtype)  # (P,)
        self.update = np.empty(size, dtype)  # (P,)
        self.t = 0

    def step(self, params, grad):
        c = self.config
        self.t += 1
        lr = c.lr * self.schedule(self.t)
        if self.decay is not None:
            np.multiply(params, self.decay, out=self.update)
            self.update *= lr
            params -= self.update  # (P,) AdamW's shrink, from the weights before the step
        g, g2 = self.moves
        np.copyto(g, grad)
        np.multiply(grad, grad, out=g2)  # (P,)
        self.moves -= self.moments
        self.moves *= self.rates  # (2, P) (1 - beta) * (target - moment)
        self.moments += self.moves  # (2, P)
        np.divide(self.v, 1.0 - c.beta2 ** self.t, out=self.denom)
        np.sqrt(self.denom, out=self.denom)  # (P,) bias-corrected, as in the paper
        self.denom += c.eps
        np.multiply(self.m, lr / (1.0 - c.beta1 ** self.t), out=self.update)
        self.update /= self.denom  # (P,)
        params -= self.update


@dataclass(frozen=True)
class SGDConfig:
    lr: float = 0.1        # step size
    momentum: float = 0.9  # fraction of the previous step carried into the next


class SGD:
    """Gradient descent with (heavy-ball) momentum on a flat parameter vector, in place."""

    def __init__(self, size, config=SGDConfig(), dtype=np.float64):
        self.config = config
        self.velocity = np.zeros(size, dtype)  # (P,)

    def step(self, params, grad):
        self.velocity *= self.config.momentum
        self.velocity += grad  # (P,)
        params -= self.config.lr * self.velocity  # (P,)


# ---- the loop ----------------------------------------------------------------------

class FusedStep:
    """A ``loss_and_grads`` for Training written as one forward and one backward over buffers that
    ``_bind(views)`` allocates the first time it meets a run's packed views; ``backward`` leaves the
    gradient in ``self.grad``, one flat vector in the packed order."""
    views = None

    def __call__(self, views, step):
        if views is not self.views:
            self._bind(views)
        loss = self.forward(step)
        self.backward(step)
        return loss, self.grad


@dataclass
class TrainResult:
    losses: list = field(default_factory=list)       # one float per step done
    checkpoints: list = field(default_factory=list)  # dicts name -> array copy
    checkpoint_steps: list = field(default_factory=list)  # step count of each checkpoint
    params: dict = field(default_factory=dict)       # the weights after the last step done


class Training:
    """A run advanced one step at a time, so a caller can stop between steps: the browser's
    worker interleaves slices of steps with its messages (a cancel, another figure's request).

    ``loss_and_grads(views, step) -> (loss, grads)`` must give the same numbers for the same step
    (seeded by step, or drawing from a seeded generator in step order); grads is a dict
    like params, or already one flat vector in params' order (no copy needed). ``params`` is a
    dict of arrays (copied into one ``dtype`` buffer, never modified); ``optimizer.step(flat,
    grad)`` updates that buffer in place. Checkpoints are taken at the start and every
    ``checkpoint_every`` steps.
    """

    def __init__(self, loss_and_grads, params, optimizer, steps, checkpoint_every=0, dtype=np.float64):
        self.names = list(params)
        self.flat, self.views = pack(params, dtype)
        self.loss_and_grads, self.optimizer = loss_and_grads, optimizer
        self.steps, self.checkpoint_every = steps, checkpoint_every
        self.result = TrainResult()
        if checkpoint_every:
            self._save(0)

    @property
    def done_steps(self) -> int:
        return len(self.result.losses)

    @property
    def done(self) -> bool:
        return self.done_steps >= self.steps

    def _save(self, step):
        self.result.checkpoints.append({n: self.views[n].copy() for n in self.names})
        self.result.checkpoint_steps.append(step)

    def step(self) -> None:
        """One update; its loss (the batch's, before the update) joins result.losses."""
        step = self.done_steps
        loss, grads = self.loss_and_grads(self.views, step)
        self.optimizer.step(self.flat, grads if isinstance(grads, np.ndarray) else flatten(grads, self.names))
        self.result.losses.append(loss)
        if self.checkpoint_every and (step + 1) % self.checkpoint_every == 0:
            self._save(step + 1)

    def run(self) -> TrainResult:
        """Step to the end (the build's runs; the browser's worker steps a run in slices instead)."""
        while not self.done:
            self.step()
        return self.finish()

    def finish(self) -> TrainResult:
        """The result so far, with the weights after the last step done."""
        self.result.params = {n: self.views[n].copy() for n in self.names}
        return self.result


def adam_training(loss_and_grads, params, lr, steps, checkpoint_every=0, dtype=np.float64,
                  schedule=CONSTANT, weight_decay=0.0) -> Training:
    """A `Training` of every weight in `params` with Adam at step size `lr` (times `schedule`): how
    chapters 9, 13 and 14's models learn, whether the build trains them to the end or the browser's
    Retrain in slices. `weight_decay` shrinks the matrices (arrays of two or more axes), not the
    gains and biases, as nanoGPT groups them."""
    dtype = np.dtype(dtype)
    decay = np.concatenate([np.full(np.size(p), weight_decay if np.ndim(p) >= 2 else 0.0)
                            for p in params.values()]) if weight_decay else None  # (P,)
    optimizer = Adam(sum(np.size(p) for p in params.values()), AdamConfig(lr=lr), dtype, schedule, decay)
    return Training(loss_and_grads, params, optimizer, steps, checkpoint_every, dtype)


def to_the_end(run):
    """A run `(training, finish)` stepped to its last step: what its finish() makes of the result."""
    training, finish = run
    training.run()
    return finish()
