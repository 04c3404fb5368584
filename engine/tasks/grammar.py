"""The two-head model of chapter 9: one attention layer learns where to look on a toy grammar.

Sentences follow ``det [adj] noun verb prep det [adj] noun`` ("the old dog slept under a
box"), 6 to 8 words, so no word class sits at a fixed position. Each word enters as a
one-hot word followed by a one-hot position. From each word's attention output two
linear readouts name a word (a softmax over the vocabulary):

- attached: determiner/adjective -> its noun, verb -> its subject, preposition -> its
  noun, each noun -> the verb;
- previous: the word just before; the first word has none and names itself.

Naming the word rather than its position is what makes looking necessary: a word's
identity reaches another word's output only through its value, while positions could be
inferred from the sentence's shape.
"""
import functools
from dataclasses import dataclass

import numpy as np

from engine.attention import attention_backward, attention_forward
from engine.tasks.grammar_step import GrammarStep
from engine.train import adam_training, cross_entropy_backward, cross_entropy_forward, to_json, to_the_end

DETS = ("the", "a")
ADJS = ("old", "big", "small", "red", "lazy")
NOUNS = ("cat", "dog", "bird", "fox", "mat", "box", "bed", "tree")
VERBS = ("sat", "slept", "ran", "stood", "hid", "waited")
PREPS = ("on", "under", "near", "behind", "by")
VOCAB = DETS + ADJS + NOUNS + VERBS + PREPS
WORD_INDEX = {w: i for i, w in enumerate(VOCAB)}
TARGETS = ("attached", "previous")

# The eight slots of the grammar; the two adjective slots may be empty.
SLOTS = ("det", "adj", "noun", "verb", "prep", "det", "adj", "noun")
SLOT_POOLS = (DETS, ADJS, NOUNS, VERBS, PREPS, DETS, ADJS, NOUNS)
ATTACHED_SLOT = (2, 2, 3, 2, 7, 7, 7, 3)  # det, adj -> noun; noun -> verb; verb -> subject; prep, det, adj -> noun; noun -> verb
OPTIONAL_SLOTS = (1, 6)
MAX_LEN = len(SLOTS)
POOL_SIZES = np.array([len(p) for p in SLOT_POOLS])  # (8,)
POOL_OFFSETS = np.array([VOCAB.index(p[0]) for p in SLOT_POOLS])  # (8,)


def _shape_tables():
    """The grammar has four sentence shapes (adjective or not in each half); tabulate each one."""
    slot_of_pos = np.full((4, MAX_LEN), MAX_LEN)  # (4, T) slot at each position, MAX_LEN past the end
    targets = np.zeros((4, MAX_LEN, 2), dtype=np.intp)  # (4, T, 2) positions of both targets
    lengths = np.zeros(4, dtype=np.intp)  # (4,)
    for shape in range(4):
        present = [s not in OPTIONAL_SLOTS or bool(shape >> OPTIONAL_SLOTS.index(s) & 1) for s in range(MAX_LEN)]
        slots = [s for s in range(MAX_LEN) if present[s]]
        pos_of_slot = {s: p for p, s in enumerate(slots)}
        lengths[shape] = len(slots)
        for p, s in enumerate(slots):
            slot_of_pos[shape, p] = s
            targets[shape, p] = (pos_of_slot[ATTACHED_SLOT[s]], max(p - 1, 0))  # the first word names itself
    return slot_of_pos, targets, lengths


SLOT_OF_POS, SHAPE_TARGETS, SHAPE_LENGTHS = _shape_tables()


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
    dtype: str = "float32"      # training precision; float32 halves numpy's exp and matmul time


@dataclass(frozen=True)
class Sentences:
    """Sentences as padded index arrays, with the positions and words both readouts must name."""
    words: np.ndarray    # (N, T) word index, -1 past the end
    lengths: np.ndarray  # (N,) words per sentence
    targets: np.ndarray  # (N, T, 2) position of the attached and of the previous word

    @property
    def valid(self):
        """True for real words, False past the end of each sentence."""
        return self.words >= 0  # (N, T)

    @property
    def target_words(self):
        """The words the readouts must name: whatever word sits at each target position."""
        n, T = self.words.shape
        return self.words.ravel().take(np.arange(n)[:, None, None] * T + self.targets)  # (N, T, 2), one gather

    def take(self, idx):
        """The sentences at idx (a slice, indices or a mask)."""
        return Sentences(self.words[idx], self.lengths[idx], self.targets[idx])

    def text(self, i):
        """Sentence i as words separated by spaces."""
        return " ".join(VOCAB[w] for w in self.words[i, :self.lengths[i]])


def _from_slots(slot_words, shape):
    """Sentences from each slot's word (N, 8) and each sentence's shape (N,)."""
    padded = np.concatenate((slot_words, np.full((len(shape), 1), -1)), axis=1)  # (N, 9) slot 8 = past the end
    words = np.take_along_axis(padded, SLOT_OF_POS[shape], axis=1)  # (N, T)
    targets = SHAPE_TARGETS[shape]  # (N, T, 2); 0 past the end, as _shape_tables leaves it
    return Sentences(words, SHAPE_LENGTHS[shape], targets)


def sample_sentences(rng, n, adj_prob=0.5):
    """n random sentences of the grammar from one block of uniform draws."""
    u = rng.random((n, MAX_LEN + 2))  # (N, 10)
    slot_words = (u[:, :MAX_LEN] * POOL_SIZES).astype(np.intp) + POOL_OFFSETS  # (N, 8)
    shape = (u[:, MAX_LEN] < adj_prob) + 2 * (u[:, MAX_LEN + 1] < adj_prob)  # (N,)
    return _from_slots(slot_words, shape)


def parse(sentence):
    """One sentence such as "The cat sat on the mat." as Sentences; it must follow the grammar."""
    tokens = sentence.lower().replace(".", " ").split()
    for shape in range(4):
        slots = SLOT_OF_POS[shape, :SHAPE_LENGTHS[shape]]
        if len(tokens) == len(slots) and all(t in SLOT_POOLS[s] for t, s in zip(tokens, slots)):
            slot_words = np.zeros((1, MAX_LEN), dtype=np.intp)
            slot_words[0, slots] = [WORD_INDEX[t] for t in tokens]
            return _from_slots(slot_words, np.array([shape]))
    raise ValueError(f"{sentence!r} does not follow: det [adj] noun verb prep det [adj] noun, with words from VOCAB")


def encoding_table(dtype=np.float64):
    """Row (word + 1) * T + position holds that word's one-hot followed by the position's; row p (word -1) is zero."""
    W = len(VOCAB)
    table = np.zeros(((W + 1) * MAX_LEN, W + MAX_LEN), dtype=dtype)  # ((W+1)*T, D)
    word = np.repeat(np.arange(-1, W), MAX_LEN)  # ((W+1)*T,)
    pos = np.tile(np.arange(MAX_LEN), W + 1)  # ((W+1)*T,)
    real = word >= 0
    table[real, word[real]] = 1.0
    table[real, W + pos[real]] = 1.0
    return table


def table_rows(words):
    """Which row of encoding_table() encodes each word at its position."""
    return (words + 1) * MAX_LEN + np.arange(words.shape[-1])  # (..., T)


def encode(words, dtype=np.float64):
    """One-hot word followed by one-hot position per word; rows past the end are all zero."""
    return encoding_table(dtype)[table_rows(words)]  # (N, T, D)


def init_params(rng, config):
    """Random starting weights: three projections per head, and per target a readout over the vocabulary."""
    D, H, W = len(VOCAB) + MAX_LEN, config.n_heads, len(VOCAB)
    s = config.init_scale
    return {
        "wq": rng.normal(0.0, s, (H, D, config.d_k)),
        "wk": rng.normal(0.0, s, (H, D, config.d_k)),
        "wv": rng.normal(0.0, s, (H, D, config.d_v)),
        "readout": rng.normal(0.0, s, (2, W, H * config.d_v)),  # [attached | previous, word, feature]
        "bias": np.zeros((2, W)),
    }


def _readouts(params, out2):
    """Both readouts of attention outputs (N*T, H*V): logits (2, W, N*T), classes first."""
    two, W, F = params["readout"].shape
    return (params["readout"].reshape(two * W, F) @ out2.T).reshape(two, W, -1) + params["bias"][..., None]  # (2, W, N*T)


def model_forward(params, x, valid):
    """Attention over each sentence's words, then both readouts: logits (2, W, N*T), classes first."""
    out, att = attention_forward(x, params["wq"], params["wk"], params["wv"], mask=valid[:, None, :])  # (N, T, H*V)
    out2 = out.reshape(-1, out.shape[-1])  # (N*T, H*V)
    return _readouts(params, out2), (out2, att)


def _head_outputs(params, x, valid):
    """The attention layer's output split by head, (N, T, H, V), and its cache."""
    out, att = attention_forward(x, params["wq"], params["wk"], params["wv"], mask=valid[:, None, :])  # (N, T, H*V)
    H, V = params["wv"].shape[0], params["wv"].shape[2]
    return out.reshape(out.shape[:-1] + (H, V)), att  # (N, T, H, V)


def head_means(params, x, valid):
    """Each head's attention output averaged over the real words of x: (H, V), what mean-ablation puts in."""
    split, _ = _head_outputs(params, x, valid)  # (N, T, H, V)
    return split[valid].mean(axis=0)  # (H, V)


def ablated_forward(params, x, valid, heads, means):
    """model_forward with the outputs of `heads` (head indices) replaced by their means (H, V) before
    the readouts, so the readouts can no longer tell one word's fetch from another's; the weights are
    unchanged. Returns logits (2, W, N*T) and the attention cache."""
    split, att = _head_outputs(params, x, valid)  # (N, T, H, V), a fresh array: safe to write into
    for h in heads:
        split[..., h, :] = means[h]
    return _readouts(params, split.reshape(-1, split.shape[-2] * split.shape[-1])), att  # (2, W, N*T)


def named_words(logits, shape):
    """The word index each readout names: logits (2, W, N*T) -> (2, N, T) for sentences of `shape` (N, T)."""
    return logits.argmax(axis=1).reshape((2,) + tuple(shape))


def readout_accuracy(named, sentences):
    """Each readout's accuracy over the real words of `sentences`: {target: fraction}, from named (2, N, T)."""
    tw, valid = sentences.target_words, sentences.valid  # (N, T, 2), (N, T)
    return {t: float((named[j] == tw[..., j])[valid].mean()) for j, t in enumerate(TARGETS)}


def model_backward(dlogits, params, cache):
    """Gradients for every parameter, given dLoss/dlogits (2, W, N*T)."""
    out2, att = cache
    two, W, F = params["readout"].shape
    dl = dlogits.reshape(two * W, -1)  # (2W, N*T)
    dout = (dl.T @ params["readout"].reshape(two * W, F)).reshape(att.x_shape[:-1] + (F,))  # (N, T, H*V)
    grads = attention_backward(dout, att, x_grad=False)
    grads["readout"] = (dl @ out2).reshape(two, W, F)  # (2, W, H*V)
    grads["bias"] = dlogits.sum(axis=2)  # (2, W)
    return grads


def loss_and_grads(params, x, valid, target_words):
    """Mean cross-entropy over both targets of every real word; target_words is (2, N*T). The plain
    composition of the forward/backward pairs: training runs grammar_step.GrammarStep, the same
    computation in fewer numpy calls, which the tests hold to this."""
    logits, cache = model_forward(params, x, valid)
    loss, ce = cross_entropy_forward(logits, target_words, valid.reshape(-1), axis=1)
    return loss, model_backward(cross_entropy_backward(1.0, ce), params, cache)


@dataclass(frozen=True)
class Batches:
    """Every step's sentences drawn up front, in the layouts the step uses; inputs are
    looked up per step from a small table rather than stored for the whole run."""
    sentences: Sentences      # (S*B) sentences, in step order
    rows: np.ndarray          # (S, B, T) row of the encoding table for each word
    table: np.ndarray         # ((W+1)*T, D) one-hot encodings
    valid: np.ndarray         # (S, B, T) real words
    target_words: np.ndarray  # (S, 2, B*T) words to name

    def x(self, step):
        """One-hot inputs of one step's batch."""
        return self.table[self.rows[step]]  # (B, T, D)


def draw_batches(rng, config, steps):
    """All of a run's sentences at once, so a step only slices arrays."""
    s = sample_sentences(rng, steps * config.batch_size, config.adj_prob)
    b, T = config.batch_size, MAX_LEN
    tw = s.target_words.reshape(steps, b * T, 2).transpose(0, 2, 1).copy()  # (S, 2, B*T)
    rows = table_rows(s.words).reshape(steps, b, T)  # (S, B, T)
    return Batches(s, rows, encoding_table(np.dtype(config.dtype)), s.valid.reshape(steps, b, T), tw)


class GrammarRun:
    """A finished training run: losses, checkpoints and ways to look inside."""

    def __init__(self, config, seed, result, train_words):
        self.config = config
        self.seed = seed
        self.losses = [float(v) for v in result.losses]
        self.checkpoints = [{n: a.astype(np.float64) for n, a in c.items()} for c in result.checkpoints]
        self.checkpoint_steps = result.checkpoint_steps
        self.params = {n: a.astype(np.float64) for n, a in result.params.items()}
        self._train_words = train_words

    def seen(self):
        """The distinct sentences trained on, each as its row of word indices in int8 bytes."""
        return {row.tobytes() for row in self._train_words.astype(np.int8)}

    def held_out(self, n, seed=None):
        """n distinct sentences, none of which appeared in training (seeded; default from the run's seed)."""
        rng = np.random.default_rng([self.seed, 1] if seed is None else seed)
        seen = self.seen()
        parts, count = [], 0
        while count < n:
            batch = sample_sentences(rng, n, self.config.adj_prob)
            keep = []
            for i, row in enumerate(batch.words.astype(np.int8)):
                if count + len(keep) < n and row.tobytes() not in seen:
                    seen.add(row.tobytes())
                    keep.append(i)
            parts.append(batch.take(keep))
            count += len(keep)
        return Sentences(*(np.concatenate([getattr(p, f) for p in parts]) for f in ("words", "lengths", "targets")))

    def evaluate(self, n=300, seed=None, checkpoint=None):
        """Readout accuracy per target over the words of n held-out sentences; per head, the fraction
        of rows whose largest weight falls on each target, over all words and over the words whose
        two targets differ; and the share of words whose two targets are one word (each verb, whose
        subject stands just before it), which count as hits for both."""
        params = self.params if checkpoint is None else self.checkpoints[checkpoint]
        s = self.held_out(n, seed)
        valid = s.valid  # (N, T)
        logits, (_, att) = model_forward(params, encode(s.words), valid)
        named = named_words(logits, s.words.shape)  # (2, N, T)
        looked = att.weights.argmax(axis=-1)  # (N, H, T)
        result = {f"accuracy_{t}": a for t, a in readout_accuracy(named, s).items()}
        result["head_argmax"] = [
            {t: float((looked[:, h] == s.targets[..., j])[valid].mean()) for j, t in enumerate(TARGETS)}
            for h in range(self.config.n_heads)
        ]
        same = s.targets[..., 0] == s.targets[..., 1]  # (N, T)
        differ = valid & ~same  # (N, T)
        result["targets_coincide"] = float(same[valid].mean())
        result["head_argmax_differ"] = [
            {t: float((looked[:, h] == s.targets[..., j])[differ].mean()) for j, t in enumerate(TARGETS)}
            for h in range(self.config.n_heads)
        ]
        result["n_sentences"] = n
        result["n_words"] = int(valid.sum())
        return result

    def export(self, sentence="the cat sat on the mat", checkpoint=-1):
        """Everything the figures draw for one sentence at one checkpoint, as JSON-able lists."""
        params = self.checkpoints[checkpoint]
        s = parse(sentence)
        n = int(s.lengths[0])
        x = encode(s.words[:, :n])[0]  # (n, D)
        q = x @ params["wq"]  # (H, n, K)
        k = x @ params["wk"]  # (H, n, K)
        v = x @ params["wv"]  # (H, n, V)
        raw = q @ k.swapaxes(-1, -2)  # (H, n, n)
        logits, (_, att) = model_forward(params, x[None], np.ones((1, n), dtype=bool))  # (2, W, n)
        named = logits.argmax(axis=1)  # (2, n)
        return {
            "step": self.checkpoint_steps[checkpoint],
            "words": [VOCAB[w] for w in s.words[0, :n]],
            "targets": {t: s.targets[0, :n, j].tolist() for j, t in enumerate(TARGETS)},
            "named": {t: [VOCAB[w] for w in named[j]] for j, t in enumerate(TARGETS)},
            "heads": [
                {
                    "q": q[h].tolist(), "k": k[h].tolist(), "v": v[h].tolist(),
                    "scores": raw[h].tolist(),
                    "scaled": (raw[h] / np.sqrt(self.config.d_k)).tolist(),
                    "weights": att.weights[0, h].tolist(),
                }
                for h in range(self.config.n_heads)
            ],
        }

    def checkpoints_json(self):
        """All checkpoints as lists of floats, for embedding in a page."""
        return [dict(step=s, **to_json(c)) for s, c in zip(self.checkpoint_steps, self.checkpoints)]


def grammar_training(seed=0, steps=None, config=GrammarConfig()):
    """A seeded run of WQ, WK, WV and both readouts from random with Adam, ready to step (the
    browser's Retrain steps it in slices); `finish(training)` turns it into a GrammarRun."""
    steps = config.steps if steps is None else steps
    rng = np.random.default_rng(seed)
    params = init_params(rng, config)
    data = draw_batches(rng, config, steps)

    step = GrammarStep(data, np.dtype(config.dtype))
    training = adam_training(step, params, config.lr, steps, config.checkpoint_every, config.dtype)

    def finish():
        return GrammarRun(config, seed, training.finish(), data.sentences.words)
    return training, finish


def train_grammar_model(seed=0, steps=None, config=GrammarConfig()):
    """Train to the end; same seed, same numbers."""
    return to_the_end(grammar_training(seed, steps, config))


@functools.lru_cache(maxsize=4)
def trained(seed=0):
    """The full default run for `seed`, trained once per process: chapter 9's figures and facts
    all read the same run (callers must not modify it)."""
    return train_grammar_model(seed)


def sentence_attention(params, sentence):
    """Where each head looks in one sentence: its words, both targets' positions per word, and the
    weights (H, n, n), for any weights (a checkpoint, or a run still training)."""
    s = parse(sentence)
    n = int(s.lengths[0])
    x = encode(s.words[:, :n])[0]  # (n, D)
    _, (_, att) = model_forward(params, x[None], np.ones((1, n), dtype=bool))
    targets = {t: s.targets[0, :n, j].tolist() for j, t in enumerate(TARGETS)}
    return [VOCAB[w] for w in s.words[0, :n]], targets, att.weights[0]  # weights (H, n, n)
