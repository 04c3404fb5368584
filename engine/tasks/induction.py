"""Chapter 13's task: a two-layer attention-only decoder learns to continue a repeated sequence.

Each sequence is a start token followed by random tokens whose second half repeats the first
("BOS a c b d a c b d"), so a next token is unpredictable on the first pass and predictable on
the second, by finding the earlier copy of the current token and reading the token after it.
Two layers can do this together (a previous-token head in layer 1, an induction head in layer 2
whose keys carry what layer 1 wrote); Olsson et al. (2022) describe how such heads appear in a
sudden phase change during training.

The half length varies from sequence to sequence: with one fixed length, a single head could
find the copy by position alone (always n - 1 places back), with no induction at all. Shorter
sequences are padded at the end; a causal model never reads the padding, and it has no loss.

Positions are counted in the model's input, which is the sequence without its last token: input
position t predicts token t + 1. With n random tokens, inputs 0..n-1 predict the first half and
inputs n..2n-1 the repeat.
"""
import functools
from dataclasses import dataclass

import numpy as np

from engine.decoder import ablate, decoder_backward, decoder_forward, head_output, head_weights, path_forward
from engine.train import adam_training, cross_entropy_backward, cross_entropy_forward, to_the_end


@dataclass(frozen=True)
class InductionConfig:
    n_vocab: int = 16           # random tokens; the start token is one more
    half_min: int = 6           # fewest random tokens before the repeat
    half_max: int = 12          # most random tokens before the repeat
    d_model: int = 32           # residual stream width
    n_heads: int = 2            # heads per layer
    d_head: int = 8             # query, key and value width of each head
    n_layers: int = 2           # attention layers; one cannot form an induction head
    positional: bool = True     # learned position embeddings (layer 1 needs them to look one back)
    steps: int = 600            # Adam steps; the head forms near step 250-450 (seeds 0-9)
    batch_size: int = 16        # sequences per step
    lr: float = 0.01            # Adam step size
    checkpoint_every: int = 25  # save the weights this often (plus the start)
    eval_size: int = 64         # held-out sequences the scores are measured on
    dtype: str = "float64"      # training precision: in float32, rounding differs with BLAS threads and builds,
                                # and 600 steps amplify it; float64 runs agree to 1e-12 on CPython and in
                                # Pyodide, and cost about the same there (benchmarks/induction.py)

    @property
    def bos(self):
        """The start token's index, after the random tokens; it also pads short sequences."""
        return self.n_vocab

    @property
    def length(self):
        """Input positions: the start token and both halves of the longest sequence, less its last token."""
        return 2 * self.half_max


@dataclass(frozen=True)
class Sequences:
    """Sequences padded to one length, and where each one's halves end."""
    tokens: np.ndarray  # (B, 2*half_max+1) start token, first half, repeat, padding
    halves: np.ndarray  # (B,) random tokens in each half

    @property
    def inputs(self):
        return self.tokens[:, :-1]  # (B, T)

    @property
    def targets(self):
        return self.tokens[:, 1:]  # (B, T)

    def part(self, which):
        """True at the input positions predicting the "first" half or the "repeat": (B, T)."""
        t = np.arange(self.tokens.shape[1] - 1)  # (T,)
        n = self.halves[:, None]  # (B, 1)
        return (t < n) if which == "first" else (t >= n) & (t < 2 * n)  # (B, T)

    def take(self, idx):
        return Sequences(self.tokens[idx], self.halves[idx])


def sample_sequences(rng, count, config):
    """count sequences: the start token, n random tokens, the same n again, then padding."""
    halves = rng.integers(config.half_min, config.half_max + 1, count)  # (count,)
    first = rng.integers(0, config.n_vocab, (count, config.half_max))  # (count, half_max) only n_b are used
    pos = np.arange(2 * config.half_max)  # (2*half_max,)
    n = halves[:, None]  # (count, 1)
    source = np.where(pos < n, pos, np.minimum(pos - n, config.half_max - 1))  # (count, 2*half_max) index into first
    body = np.take_along_axis(first, source, axis=1)  # (count, 2*half_max)
    body[pos >= 2 * n] = config.bos  # padding
    tokens = np.concatenate((np.full((count, 1), config.bos), body), axis=1)  # (count, 2*half_max+1)
    return Sequences(tokens, halves)


def repeated(first, config):
    """One sequence from its first half (token indices): the start token, the half, the half again."""
    first = np.asarray(first)  # (n,)
    if not config.half_min <= len(first) <= config.half_max:
        raise ValueError(f"a half must hold {config.half_min} to {config.half_max} tokens, not {len(first)}")
    tokens = np.concatenate(([config.bos], first, first))[None]  # (1, 2n+1)
    return Sequences(tokens, np.array([len(first)]))


def head_maps(params, seqs):
    """Every head's attention weights on ``seqs``: (L, B, H, T, T)."""
    _, cache = decoder_forward(params, seqs.inputs)
    return np.stack([head_weights(cache, layer) for layer in range(1, len(cache.layers) + 1)])


def init_params(rng, config):
    """Random starting weights, each matrix scaled by 1/sqrt(its input width) so the stream starts near unit size."""
    N, D, H, K = config.n_vocab + 1, config.d_model, config.n_heads, config.d_head
    p = {"w_e": rng.normal(0.0, 1.0, (N, D))}
    if config.positional:
        p["w_p"] = rng.normal(0.0, 1.0, (config.length, D))
    for layer in range(1, config.n_layers + 1):
        p[f"wq{layer}"] = rng.normal(0.0, D ** -0.5, (H, D, K))
        p[f"wk{layer}"] = rng.normal(0.0, D ** -0.5, (H, D, K))
        p[f"wv{layer}"] = rng.normal(0.0, D ** -0.5, (H, D, K))
        p[f"wo{layer}"] = rng.normal(0.0, (H * K) ** -0.5, (H * K, D))
    p["w_u"] = rng.normal(0.0, D ** -0.5, (D, N))
    return p


def loss_and_grads(params, seqs):
    """Mean next-token cross-entropy over both halves of every sequence (padding excluded), and its gradients."""
    logits, cache = decoder_forward(params, seqs.inputs)  # (N, B*T)
    valid = seqs.part("first") | seqs.part("repeat")  # (B, T)
    loss, ce = cross_entropy_forward(logits[None], seqs.targets.reshape(1, -1), valid.reshape(1, -1), axis=1)
    return loss, decoder_backward(cross_entropy_backward(1.0, ce)[0], cache)


def token_losses(params, seqs):
    """Next-token loss at every input position of every sequence, (B, T), and the forward cache."""
    logits, cache = decoder_forward(params, seqs.inputs)  # (N, B*T)
    return _losses(logits, seqs), cache


def _losses(logits, seqs):
    """The loss of logits (N, B*T) at every input position: (B, T)."""
    z = logits - logits.max(axis=0)  # (N, B*T)
    logp = z - np.log(np.exp(z).sum(axis=0))  # (N, B*T)
    targets = seqs.targets.reshape(-1)  # (B*T,)
    return -logp[targets, np.arange(targets.size)].reshape(seqs.inputs.shape)  # (B, T)


def prefix_match(seqs):
    """True where a key holds the token after an earlier copy of the query's token: (B, T, T), query
    first, only for queries in the repeat after its first token (where an induction head should look)."""
    x = seqs.inputs  # (B, T)
    before = np.full(x.shape, -1)  # (B, T) the token before each key; none before the first
    before[:, 1:] = x[:, :-1]
    match = x[:, :, None] == before[:, None, :]  # (B, T, T) the token before key k is the query's token
    match &= np.tril(np.ones(match.shape[1:], dtype=bool))  # keys up to the query
    t = np.arange(x.shape[1])
    n = seqs.halves[:, None]  # (B, 1)
    queries = (t > n) & (t < 2 * n)  # (B, T)
    return match & queries[:, :, None]  # (B, T, T)


def source(seqs):
    """True at the one key an exact copier reads: for a repeat query at t, the token after its own
    earlier copy, t - n + 1 (B, T, T); prefix_match also counts the tokens after any other copy."""
    B, T = seqs.inputs.shape
    t = np.arange(T)
    n = seqs.halves[:, None]  # (B, 1)
    queries = (t > n) & (t < 2 * n)  # (B, T)
    return queries[:, :, None] & (t[None, None, :] == (t[None, :] - n + 1)[:, :, None])  # (B, T, T)


def scores(params, seqs):
    """The phase change's measures on held-out sequences (see measures)."""
    losses, cache = token_losses(params, seqs)  # (B, T)
    return measures(losses, [head_weights(cache, layer) for layer in range(1, len(cache.layers) + 1)], seqs)


def measures(losses, weights, seqs):
    """From the loss at every position (B, T) and every layer's head weights [(B, H, T, T)]:

    - loss_first, loss_repeat: mean loss over the first half's and the repeat's predictions;
      in_context = loss_repeat - loss_first (negative once the repeat is predicted);
    - previous_token[l][h]: mean weight head h of layer l (from 0) puts on the position just before the query;
    - prefix_matching[l][h]: mean weight, over the repeat's queries, on tokens that followed an earlier
      copy of the query's token (Olsson et al. 2022's prefix-matching score): any copy, where letters repeat;
    - source[l][h]: the same, on the one token that followed the query's own earlier copy (source()).
    """
    first, repeat = seqs.part("first"), seqs.part("repeat")  # (B, T)
    loss_first, loss_repeat = float(losses[first].mean()), float(losses[repeat].mean())
    match, exact = prefix_match(seqs), source(seqs)  # (B, T, T)
    queries = match.any(axis=-1)  # (B, T) repeat queries whose token appeared before (all of them)
    prev_rows = (first | repeat)[:, 1:]  # (B, T-1) real queries that have a position before them
    prev, prefix, own = [], [], []
    for w in weights:  # (B, H, T, T)
        back = np.diagonal(w, offset=-1, axis1=2, axis2=3)  # (B, H, T-1) weight on the position before
        prev.append((back * prev_rows[:, None]).sum(axis=(0, 2)) / prev_rows.sum())  # (H,)
        prefix.append((w * match[:, None]).sum(axis=(0, 2, 3)) / queries.sum())  # (H,)
        own.append((w * exact[:, None]).sum(axis=(0, 2, 3)) / queries.sum())  # (H,)
    listed = lambda heads: [[float(v) for v in p] for p in heads]  # noqa: E731
    return {"loss": float(losses[first | repeat].mean()), "loss_first": loss_first, "loss_repeat": loss_repeat,
            "in_context": loss_repeat - loss_first,
            "previous_token": listed(prev), "prefix_matching": listed(prefix), "source": listed(own)}


def several_copies(seqs):
    """The share of repeat queries whose letter has more than one earlier copy, so that prefix matching
    counts more than one position."""
    match = prefix_match(seqs)  # (B, T, T)
    counts = match.sum(axis=-1)  # (B, T)
    return float((counts > 1).sum() / (counts > 0).sum())


def ideal_losses(seqs, config):
    """The loss of the best possible predictor, which knows how sequences are made but not a sequence's
    half length n: at every scored position (B, T; 0 elsewhere), its bet averages, over every n the
    letters so far allow (weighted by how likely each makes them), an even guess where n says the first
    half goes on and the copied letter where n says the repeat has begun. Positions past a sequence's
    end are never scored, so it also knows the sequence goes on."""
    x, scored = seqs.inputs, seqs.part("first") | seqs.part("repeat")  # (B, T)
    out = np.zeros(x.shape)
    for b, t in zip(*np.nonzero(scored)):  # letters x[1..t] seen; the target is token t + 1
        log_w, p = [], []
        for m in range(config.half_min, config.half_max + 1):
            if 2 * m < t + 1 or any(x[b, i] != x[b, i - m] for i in range(m + 1, t + 1)):
                continue  # the sequence would have ended, or its repeat would not match
            log_w.append(-min(t, m) * np.log(config.n_vocab))  # each fresh letter was an even guess
            p.append(1.0 / config.n_vocab if t + 1 <= m else float(x[b, t + 1 - m] == seqs.targets[b, t]))
        w = np.exp(np.array(log_w) - max(log_w))  # (M,) the true n is always among them
        out[b, t] = -np.log(float(w @ np.array(p)) / w.sum())
    return out


def copy_shares(seqs):
    """Per position (B, T): the share of the letters after earlier copies of the current letter that are
    the target, or NaN where the letter has no earlier copy: what the literal induction rule bets."""
    x = seqs.inputs  # (B, T)
    out = np.full(x.shape, np.nan)
    for b in range(x.shape[0]):
        for t in range(x.shape[1]):
            after = [x[b, j + 1] for j in range(1, t) if x[b, j] == x[b, t]]  # letters after earlier copies
            if after:
                out[b, t] = after.count(seqs.targets[b, t]) / len(after)
    return out


def copy_rule_losses(shares, config, even):
    """The loss (B, T) of the induction rule taken literally, from copy_shares: bet on the letters that
    followed earlier copies of the current letter, hedged by giving ``even`` of the bet to an even
    guess; with no earlier copy, an even guess."""
    guess = 1.0 / config.n_vocab
    return -np.log(np.where(np.isnan(shares), guess, (1 - even) * np.nan_to_num(shares) + even * guess))


def best_copy_rule(config, seed=0, count=1024):
    """The hedge that gives the literal rule its lowest loss on the repeat, found to a hundredth on
    sequences of its own (drawn from their own seed)."""
    seqs = sample_sequences(np.random.default_rng([seed, 2]), count, config)
    shares, repeat = copy_shares(seqs), seqs.part("repeat")
    grid = np.round(np.arange(0.01, 1.0, 0.01), 2)
    return float(min(grid, key=lambda e: copy_rule_losses(shares, config, e)[repeat].mean()))


def held_out(seed, config):
    """The sequences every checkpoint is scored on: drawn from their own seed, not trained on."""
    return sample_sequences(np.random.default_rng([seed, 1]), config.eval_size, config)


class InductionRun:
    """A finished run: losses, checkpoints, and the scores at each checkpoint."""

    def __init__(self, config, seed, result):
        self.config, self.seed = config, seed
        self.losses = [float(v) for v in result.losses]
        self.checkpoints = [{n: a.astype(np.float64) for n, a in c.items()} for c in result.checkpoints]
        self.checkpoint_steps = list(result.checkpoint_steps)
        self.params = {n: a.astype(np.float64) for n, a in result.params.items()}
        self.held_out = held_out(seed, config)
        self.scores = [scores(c, self.held_out) for c in self.checkpoints]

    def induction_head(self):
        """(head, score): the last layer's head with the highest prefix-matching score at the end."""
        last = self.scores[-1]["prefix_matching"][-1]
        h = int(np.argmax(last))
        return h, last[h]

    def previous_token_head(self):
        """(head, score): layer 1's head that most looks one position back at the end."""
        first = self.scores[-1]["previous_token"][0]
        h = int(np.argmax(first))
        return h, first[h]

    def phase_change_step(self, threshold=0.5):
        """The first checkpoint step at which a last-layer head's prefix-matching score reaches
        ``threshold``, or None if none does."""
        return self.first_formed(threshold)[0]

    def ablated_scores(self, layer, heads, mean=True):
        """The trained model's scores with the given heads of ``layer`` (from 1) silenced on every road:
        their output swapped for its mean at each position over the held-out sequences (mean-ablation,
        which keeps what the heads write whatever the letters), or, with mean=False, for zero."""
        if not mean:
            return scores(ablate(self.params, layer, heads), self.held_out)
        return self.path_scores(layer, heads, "qkv", mean=True, direct=True)

    @functools.cached_property
    def _held_out_pass(self):
        """The trained model's forward cache on the held-out sequences: every mean-ablation reads its heads' outputs."""
        return decoder_forward(self.params, self.held_out.inputs)[1]

    def path_scores(self, layer, heads, reads, mean=True, direct=False):
        """Scores when only the queries, keys or values (``reads``) of the later layers lose the output
        of ``heads`` of ``layer``: swapped for its mean at each position (or zero) on those roads alone."""
        seqs = self.held_out
        replacement = 0.0
        if mean:
            replacement = sum(head_output(self._held_out_pass, layer, h) for h in heads).mean(axis=0)  # (T, D)
        logits, weights = path_forward(self.params, seqs.inputs, (layer, heads), reads, replacement, direct)
        return measures(_losses(logits, seqs), weights, seqs)

    def first_formed(self, threshold=0.5):
        """(step, head): the first checkpoint at which a last-layer head's prefix-matching score reaches
        ``threshold``, and that head; (None, None) if none does."""
        for step, s in zip(self.checkpoint_steps, self.scores):
            last = s["prefix_matching"][-1]
            if max(last) >= threshold:
                return step, int(np.argmax(last))
        return None, None

    def formed_at(self, head, threshold=0.5):
        """The first checkpoint step at which last-layer ``head``'s own prefix-matching score reaches
        ``threshold``, or None if it never does."""
        return next((step for step, s in zip(self.checkpoint_steps, self.scores)
                     if s["prefix_matching"][-1][head] >= threshold), None)

    def sharpest_fall(self, window=100):
        """(start, end, fall): the ``window`` steps, between checkpoints, over which the in-context
        score fell most, and by how much (in nats)."""
        w = max(1, window // self.config.checkpoint_every)
        icl = np.array([s["in_context"] for s in self.scores])  # (C,)
        if len(icl) <= w:
            return self.checkpoint_steps[0], self.checkpoint_steps[-1], float(icl[0] - icl[-1])
        falls = icl[:-w] - icl[w:]  # (C-w,)
        i = int(np.argmax(falls))
        return self.checkpoint_steps[i], self.checkpoint_steps[i + w], float(falls[i])


def starting_point(seed, steps, config):
    """A run's starting weights and all its training sequences (steps * batch_size, in step order)."""
    rng = np.random.default_rng(seed)
    params = init_params(rng, config)
    return params, sample_sequences(rng, steps * config.batch_size, config)


def induction_training(seed=0, steps=None, config=InductionConfig()):
    """A seeded run from random weights with Adam, ready to step (the browser steps it in slices);
    `finish()` turns it into an InductionRun. Every batch is drawn up front."""
    steps = config.steps if steps is None else steps
    params, data = starting_point(seed, steps, config)
    batches = [data.take(slice(i * config.batch_size, (i + 1) * config.batch_size)) for i in range(steps)]

    def step_fn(views, step):
        return loss_and_grads(views, batches[step])

    training = adam_training(step_fn, params, config.lr, steps, config.checkpoint_every, config.dtype)

    def finish():
        return InductionRun(config, seed, training.finish())
    return training, finish


def train_induction_model(seed=0, steps=None, config=InductionConfig()):
    """Train to the end; same seed, same numbers."""
    return to_the_end(induction_training(seed, steps, config))


@functools.lru_cache(maxsize=8)
def trained(seed=0, n_layers=2):
    """The default run for ``seed`` (and layer count), trained once per process: figures, facts
    and tests all read the same run (callers must not modify it)."""
    return train_induction_model(seed, config=InductionConfig(n_layers=n_layers))
