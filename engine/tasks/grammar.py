"""The two-head model of chapter 9: one attention layer learns where to look on a toy grammar.

Sentences follow ``det [adj] noun verb prep det [adj] noun`` ("the old dog slept under a
box"), 6 to 8 words, so no word class sits at a fixed position. Each word enters as a
one-hot word followed by a one-hot position. From each word's attention output two
linear readouts name a word (a softmax over the vocabulary). Naming the word, not its
position, is what makes looking necessary: a word's identity reaches its output only
through the value of that word, while positions could be inferred from the sentence's shape.
The two targets:

- attached: determiner/adjective -> its noun, verb -> its subject, preposition -> its
  noun, each noun -> the verb;
- previous: the word just before; the first word has none and names itself.
"""
from dataclasses import dataclass

import numpy as np

from engine.attention import attention_backward, attention_forward
from engine.train import (
    Adam,
    AdamConfig,
    cross_entropy_backward,
    cross_entropy_forward,
    to_json,
    train,
)

DETS = ("the", "a")
ADJS = ("old", "big", "small", "red", "lazy")
NOUNS = ("cat", "dog", "bird", "fox", "mat", "box", "bed", "tree")
VERBS = ("sat", "slept", "ran", "stood", "hid", "waited")
PREPS = ("on", "under", "near", "behind", "by")
VOCAB = DETS + ADJS + NOUNS + VERBS + PREPS
WORD_INDEX = {w: i for i, w in enumerate(VOCAB)}

# The eight slots of the grammar, which may be empty, and each slot's attached slot.
SLOTS = ("det1", "adj1", "noun1", "verb", "prep", "det2", "adj2", "noun2")
SLOT_POOLS = (DETS, ADJS, NOUNS, VERBS, PREPS, DETS, ADJS, NOUNS)
OPTIONAL_SLOTS = (1, 6)
ATTACHED_SLOT = np.array([2, 2, 3, 2, 7, 7, 7, 3])  # det1,adj1->noun1; noun1->verb; verb->noun1; prep,det2,adj2->noun2; noun2->verb
MAX_LEN = len(SLOTS)
TARGETS = ("attached", "previous")


@dataclass(frozen=True)
class GrammarConfig:
    n_heads: int = 2            # two questions per word, two heads
    d_k: int = 6                # query/key width
    d_v: int = 6                # value width
    steps: int = 400            # Adam steps
    batch_size: int = 32        # sentences per step
    checkpoint_every: int = 20  # save the weights this often (plus the start)
    lr: float = 0.03            # Adam step size
    init_scale: float = 0.3     # std of the random starting weights
    adj_prob: float = 0.5       # chance of an adjective in each half


@dataclass(frozen=True)
class Sentences:
    """A batch of sentences as padded index arrays, with both targets per word."""
    words: np.ndarray    # (N, T) word index, -1 past the end
    lengths: np.ndarray  # (N,) words per sentence
    targets: np.ndarray  # (N, T, 2) position of the attached and of the previous word

    @property
    def valid(self):
        return self.words >= 0  # (N, T)

    @property
    def target_words(self):
        """The words the readouts must name: the word found at each target position."""
        return np.take_along_axis(self.words[:, :, None], self.targets.reshape(len(self.words), -1, 1), axis=1).reshape(self.targets.shape)  # (N, T, 2)

    def take(self, idx):
        return Sentences(self.words[idx], self.lengths[idx], self.targets[idx])

    def text(self, i):
        return " ".join(VOCAB[w] for w in self.words[i, :self.lengths[i]])


def sample_sentences(rng, n, adj_prob=0.5):
    """n random sentences of the grammar, fully vectorised."""
    slot_words = np.stack([rng.integers(0, len(pool), n) for pool in SLOT_POOLS], axis=1)  # (N, 8)
    offsets = np.cumsum((0,) + tuple(len(p) for p in SLOT_POOLS[:-1]))  # (8,)
    offsets[5] = offsets[0]  # the second det and adj draw from the same words as the first
    offsets[6] = offsets[1]
    offsets[7] = offsets[2]
    slot_words = slot_words + offsets  # (N, 8) indices into VOCAB
    present = np.ones((n, MAX_LEN), dtype=bool)  # (N, 8)
    for s in OPTIONAL_SLOTS:
        present[:, s] = rng.random(n) < adj_prob
    return _from_slots(slot_words, present)


def _from_slots(slot_words, present):
    """Compact filled slots to the left and work out each word's two target positions."""
    n = slot_words.shape[0]
    pos = np.cumsum(present, axis=1) - 1  # (N, 8) position of each slot if present
    lengths = present.sum(axis=1)  # (N,)
    rows = np.nonzero(present)[0]
    words = np.full((n, MAX_LEN), -1)  # (N, T)
    words[rows, pos[present]] = slot_words[present]
    attached = np.zeros((n, MAX_LEN), dtype=np.int64)  # (N, T)
    attached[rows, pos[present]] = pos[:, ATTACHED_SLOT][present]
    previous = np.maximum(np.arange(MAX_LEN) - 1, 0)  # (T,) the first word names itself
    previous = np.broadcast_to(previous, (n, MAX_LEN)) * (words >= 0)  # (N, T)
    targets = np.stack((attached, previous), axis=-1)  # (N, T, 2)
    return Sentences(words, lengths, targets)


def parse(sentence):
    """Sentences for one text such as "The cat sat on the mat" (must follow the grammar)."""
    tokens = sentence.lower().replace(".", " ").split()
    unknown = [t for t in tokens if t not in WORD_INDEX]
    if unknown:
        raise ValueError(f"words not in the vocabulary: {unknown}")
    slot_words = np.zeros((1, MAX_LEN), dtype=np.int64)
    present = np.zeros((1, MAX_LEN), dtype=bool)
    slot = 0
    for t in tokens:
        while slot < MAX_LEN and t not in SLOT_POOLS[slot]:
            if slot not in OPTIONAL_SLOTS:
                raise ValueError(f"{sentence!r} does not follow det [adj] noun verb prep det [adj] noun")
            slot += 1
        if slot == MAX_LEN:
            raise ValueError(f"{sentence!r} does not follow det [adj] noun verb prep det [adj] noun")
        slot_words[0, slot] = WORD_INDEX[t]
        present[0, slot] = True
        slot += 1
    if not all(present[0, s] or s in OPTIONAL_SLOTS for s in range(MAX_LEN)):
        raise ValueError(f"{sentence!r} is missing words of det [adj] noun verb prep det [adj] noun")
    return _from_slots(slot_words, present)


def encode(words):
    """One-hot word followed by one-hot position; rows past the end are all zero."""
    n, T = words.shape
    x = np.zeros((n, T, len(VOCAB) + MAX_LEN))  # (N, T, D)
    r, c = np.nonzero(words >= 0)
    x[r, c, words[r, c]] = 1.0
    x[r, c, len(VOCAB) + c] = 1.0
    return x


def init_params(rng, config):
    """Random starting weights: the three projections per head and one readout per target."""
    D, H = len(VOCAB) + MAX_LEN, config.n_heads
    s = config.init_scale
    return {
        "wq": rng.normal(0.0, s, (H, D, config.d_k)),
        "wk": rng.normal(0.0, s, (H, D, config.d_k)),
        "wv": rng.normal(0.0, s, (H, D, config.d_v)),
        "readout": rng.normal(0.0, s, (H * config.d_v, 2 * len(VOCAB))),  # attached | previous
        "bias": np.zeros(2 * len(VOCAB)),
    }


def model_forward(params, x, valid):
    """Attention over the sentence's words, then both readouts as logits over the vocabulary."""
    n, T = valid.shape
    out, att = attention_forward(x, params["wq"], params["wk"], params["wv"], mask=valid[:, None, :])  # (N, T, H*V)
    logits = (out @ params["readout"] + params["bias"]).reshape(n, T, 2, len(VOCAB))  # (N, T, 2, W)
    return logits, (out, att)


def model_backward(dlogits, params, cache):
    """Gradients for every parameter from dLoss/dlogits."""
    out, att = cache
    n, T = dlogits.shape[:2]
    dl = dlogits.reshape(n * T, -1)  # (N*T, 2W)
    out2 = out.reshape(n * T, -1)  # (N*T, H*V)
    grads = attention_backward((dl @ params["readout"].T).reshape(out.shape), att)
    grads["readout"] = out2.T @ dl  # (H*V, 2W)
    grads["bias"] = dl.sum(axis=0)  # (2W,)
    return grads


def loss_and_grads(params, x, sentences):
    """Mean cross-entropy over both targets of every real word, and its gradients."""
    valid = sentences.valid
    logits, cache = model_forward(params, x, valid)
    loss, ce = cross_entropy_forward(logits, sentences.target_words, valid[..., None] & np.ones(2, dtype=bool))
    return loss, model_backward(cross_entropy_backward(1.0, ce), params, cache)


def _key(sentences):
    return {tuple(row) for row in sentences.words.tolist()}


class GrammarRun:
    """A finished (or cancelled) training run: losses, checkpoints and ways to look inside."""

    def __init__(self, config, seed, result, train_keys):
        self.config = config
        self.seed = seed
        self.losses = [float(v) for v in result.losses]
        self.checkpoints = result.checkpoints
        self.checkpoint_steps = result.checkpoint_steps
        self.params = result.params
        self.cancelled = result.cancelled
        self._train_keys = train_keys

    def held_out(self, n, seed=None):
        """n distinct sentences, none of which appeared in training."""
        rng = np.random.default_rng([self.seed, 1] if seed is None else seed)
        seen = set(self._train_keys)
        parts, count = [], 0
        while count < n:
            batch = sample_sentences(rng, n, self.config.adj_prob)
            keep = []
            for i, row in enumerate(map(tuple, batch.words.tolist())):
                if row not in seen and count + len(keep) < n:
                    seen.add(row)
                    keep.append(i)
            parts.append(batch.take(keep))
            count += len(keep)
        return Sentences(*(np.concatenate([getattr(p, f) for p in parts]) for f in ("words", "lengths", "targets")))

    def evaluate(self, n=300, seed=None, checkpoint=None):
        """Readout accuracy per target and, per head, how often a row's largest weight is on each target."""
        params = self.params if checkpoint is None else self.checkpoints[checkpoint]
        s = self.held_out(n, seed)
        valid = s.valid
        logits, (_, att) = model_forward(params, encode(s.words), valid)
        hit = logits.argmax(axis=-1) == s.target_words  # (N, T, 2)
        looked = att.weights.argmax(axis=-1)  # (N, H, T)
        result = {f"accuracy_{t}": float(hit[..., j][valid].mean()) for j, t in enumerate(TARGETS)}
        result["head_argmax"] = [
            {t: float((looked[:, h] == s.targets[..., j])[valid].mean()) for j, t in enumerate(TARGETS)}
            for h in range(self.config.n_heads)
        ]
        result["n_sentences"] = n
        result["n_words"] = int(valid.sum())
        return result

    def export(self, sentence="the cat sat on the mat", checkpoint=-1):
        """What the figures draw for one sentence at one checkpoint, as JSON-able lists."""
        params = self.checkpoints[checkpoint]
        s = parse(sentence)
        n = int(s.lengths[0])
        x = encode(s.words)[:, :n]  # (1, n, D)
        wq, wk, wv = params["wq"], params["wk"], params["wv"]
        q = np.einsum("td,hdk->htk", x[0], wq)  # (H, n, K)
        k = np.einsum("td,hdk->htk", x[0], wk)  # (H, n, K)
        v = np.einsum("td,hdk->htk", x[0], wv)  # (H, n, V)
        raw = q @ k.swapaxes(-1, -2)  # (H, n, n)
        logits, (_, att) = model_forward(params, x, np.ones((1, n), dtype=bool))
        return {
            "step": self.checkpoint_steps[checkpoint],
            "words": [VOCAB[w] for w in s.words[0, :n]],
            "targets": {t: s.targets[0, :n, j].tolist() for j, t in enumerate(TARGETS)},
            "heads": [
                {
                    "q": q[h].tolist(), "k": k[h].tolist(), "v": v[h].tolist(),
                    "scores": raw[h].tolist(),
                    "scaled": (raw[h] / np.sqrt(self.config.d_k)).tolist(),
                    "weights": att.weights[0, h].tolist(),
                }
                for h in range(self.config.n_heads)
            ],
            "predicted": {t: [VOCAB[w] for w in logits[0, :, j].argmax(axis=-1)] for j, t in enumerate(TARGETS)},
        }

    def checkpoints_json(self):
        return [dict(step=s, **to_json(c)) for s, c in zip(self.checkpoint_steps, self.checkpoints)]


def train_grammar_model(seed=0, steps=None, config=GrammarConfig(), callback=None):
    """Train WQ, WK, WV and both readouts from random with Adam on pre-drawn batches."""
    steps = config.steps if steps is None else steps
    rng = np.random.default_rng(seed)
    params = init_params(rng, config)
    data = sample_sentences(rng, steps * config.batch_size, config.adj_prob)
    x_all = encode(data.words)  # (S*B, T, D)
    b = config.batch_size

    def step_fn(views, step):
        sl = slice(step * b, (step + 1) * b)
        return loss_and_grads(views, x_all[sl], data.take(sl))

    result = train(step_fn, params, Adam(sum(p.size for p in params.values()), AdamConfig(lr=config.lr)),
                   steps, config.checkpoint_every, callback)
    return GrammarRun(config, seed, result, _key(data))
