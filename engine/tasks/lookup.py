"""The key-value lookup of chapter 9: one head learns to find the pair whose key matches a question.

An example holds four pairs of letters (key -> value, keys distinct, values distinct)
and a question, one of the keys. Each pair sits at one position as 16 numbers, a one-hot
key letter followed by a one-hot value letter; the question is its letter's one-hot in
the key half. Query and key matrices map 16 numbers to 4 (128 trained numbers). The
value matrix is fixed to copy the value letter, so the question's output is a
distribution over letters and the only way to answer is to weight the right pair.
"""
from dataclasses import dataclass

import numpy as np

from engine.attention import attention_backward, attention_forward
from engine.train import SGD, SGDConfig, Training

LETTERS = "ABCDEFGH"


@dataclass(frozen=True)
class LookupConfig:
    n_letters: int = 8       # letters A..H
    n_pairs: int = 4         # key -> value pairs per example
    d_k: int = 4             # query/key width: 16 -> 4
    batch_size: int = 16     # fresh examples per step
    lr: float = 0.2          # default step size: loss under 0.1 after about 70 steps
    momentum: float = 0.9    # fraction of the previous step carried over
    init_scale: float = 0.1  # std of the random start; small, so the first guesses are near even


@dataclass(frozen=True)
class LookupBatch:
    x: np.ndarray        # (B, P+1, 2L) pairs, then the question last
    answer: np.ndarray   # (B,) index of the value letter to name
    correct: np.ndarray  # (B,) which pair holds the answer


def sample_batch(rng, config):
    """A batch of examples: distinct keys, distinct values, a question drawn from the keys."""
    B, P, L = config.batch_size, config.n_pairs, config.n_letters
    keys = np.argsort(rng.random((B, L)), axis=1)[:, :P]  # (B, P)
    values = np.argsort(rng.random((B, L)), axis=1)[:, :P]  # (B, P)
    correct = rng.integers(0, P, B)  # (B,)
    rows = np.arange(B)
    x = np.zeros((B, P + 1, 2 * L))  # (B, P+1, 2L)
    x[rows[:, None], np.arange(P), keys] = 1.0
    x[rows[:, None], np.arange(P), L + values] = 1.0
    x[rows, P, keys[rows, correct]] = 1.0
    return LookupBatch(x, values[rows, correct], correct)


def fixed_values(config):
    """The value matrix: copies the value letter, ignores the key letter. Not trained."""
    L = config.n_letters
    wv = np.zeros((1, 2 * L, L))  # (1, 2L, L)
    wv[0, L:, :] = np.eye(L)
    return wv


def question_mask(config):
    """The question reads only the pairs; pair rows (unused) read only themselves."""
    P = config.n_pairs
    m = np.eye(P + 1, dtype=bool)  # (P+1, P+1)
    m[P, :P] = True
    m[P, P] = False
    return m


def loss_and_grads(params, batch, config):
    """-log of the weight the question's output puts on the right letter, and its gradients."""
    wv = fixed_values(config)
    out, cache = attention_forward(batch.x, params["wq"], params["wk"], wv, mask=question_mask(config))  # (B, P+1, L)
    B = len(batch.answer)
    p = out[np.arange(B), -1, batch.answer]  # (B,) probability of the answer
    dout = np.zeros_like(out)  # (B, P+1, L)
    dout[np.arange(B), -1, batch.answer] = -1.0 / (B * p)
    grads = attention_backward(dout, cache, x_grad=False)
    return float(-np.log(p).mean()), {"wq": grads["wq"], "wk": grads["wk"]}


def lookup_training(seed=0, steps=300, lr=None, checkpoint_every=0, config=LookupConfig()):
    """A seeded run of gradient descent with momentum on fresh batches (step size `lr`, default
    config.lr): the same seed gives the same start and the same batches, whatever the step size."""
    c = config
    rng = np.random.default_rng(seed)
    params = {"wq": rng.normal(0.0, c.init_scale, (1, 2 * c.n_letters, c.d_k)),
              "wk": rng.normal(0.0, c.init_scale, (1, 2 * c.n_letters, c.d_k))}  # 128 numbers
    batches = np.random.default_rng([seed, 1])  # drawn in step order: Training steps in order

    def step_fn(views, step):
        return loss_and_grads(views, sample_batch(batches, c), c)

    sgd = SGD(sum(p.size for p in params.values()), SGDConfig(lr=c.lr if lr is None else lr, momentum=c.momentum))
    return Training(step_fn, params, sgd, steps, checkpoint_every)


def grid(params, config=LookupConfig()):
    """Scaled score of question letter (rows) against key letter (columns), L x L."""
    L, K = config.n_letters, config.d_k
    return params["wq"][0, :L] @ params["wk"][0, :L].T / np.sqrt(K)  # (L, L)
