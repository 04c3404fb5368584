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
from engine.train import SGD, SGDConfig, flatten, pack

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
    return float(-np.log(p).mean()), {"wq": grads["wq"], "wk": grads["wk"]}, cache.weights[:, 0, -1, :-1]


class LookupTrainer:
    """Step-by-step training for play/pause in the browser; reset() returns to the same start."""

    def __init__(self, seed=0, config=LookupConfig()):
        self.seed = seed
        self.config = config
        self.reset()

    def reset(self, lr=None):
        """Same starting weights and the same sequence of batches; optionally a new step size."""
        c = self.config
        rng = np.random.default_rng(self.seed)
        self._flat, self.params = pack({
            "wq": rng.normal(0.0, c.init_scale, (1, 2 * c.n_letters, c.d_k)),
            "wk": rng.normal(0.0, c.init_scale, (1, 2 * c.n_letters, c.d_k)),
        })  # 128 numbers in one vector, with named views
        self.lr = c.lr if lr is None else lr
        self._sgd = SGD(self._flat.size, SGDConfig(lr=self.lr, momentum=c.momentum))
        self._batches = np.random.default_rng([self.seed, 1])
        self.losses = []
        self.last_weights = None

    @property
    def n_trained(self):
        return self._flat.size

    def step(self, n=1):
        """n steps of gradient descent with momentum on fresh batches; returns their losses."""
        new = []
        for _ in range(n):
            batch = sample_batch(self._batches, self.config)
            loss, grads, weights = loss_and_grads(self.params, batch, self.config)
            self._sgd.step(self._flat, flatten(grads, self.params))
            self.losses.append(loss)
            new.append(loss)
            self.last_weights = weights
        return new

    def grid(self):
        """Scaled score of question letter (rows) against key letter (columns), L x L."""
        L, K = self.config.n_letters, self.config.d_k
        return self.params["wq"][0, :L] @ self.params["wk"][0, :L].T / np.sqrt(K)  # (L, L)

    def state(self):
        """JSON-able snapshot for the figure: losses so far and the query-key grid."""
        return {"step": len(self.losses), "lr": self.lr, "losses": list(map(float, self.losses)),
                "grid": self.grid().tolist(), "letters": LETTERS[:self.config.n_letters]}
