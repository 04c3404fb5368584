"""Chapter 14's task: a small GPT (engine/gpt.py) learns to write a text, one character at a time.

The text comes as a str, one paragraph a line (the builder extracts the series' own prose). Its
characters, sorted, are the vocabulary. One paragraph in every ten is held out, whole, through the
whole text, so every chapter lends some and no training window can reach into one: the held-out
paragraphs are joined into a text of their own, as the training paragraphs are. Each step trains on
windows of context + 1 characters starting at random places in the training text; every input
position predicts the character after it. Losses are mean cross-entropy in nats per character
(divide by ln 2 for bits). The yardsticks are counting models (engine/ngram.py).
"""
import functools
import json
import math
from dataclasses import asdict, dataclass, replace

import numpy as np

from engine.given import Given
from engine.gpt import GPTConfig, generate, gpt_backward, gpt_forward, init_params
from engine.jobs import TrainingJob
from engine.ngram import NGram
from engine.vocabulary import Vocabulary, vocabulary
from engine.tasks.writing_step import WritingStep
from engine.train import WarmupCosine, adam_training, cross_entropy_backward, cross_entropy_forward, to_the_end


@dataclass(frozen=True)
class WritingConfig:
    """The model's sizes (GPTConfig less the vocabulary, which the text decides) and the training run's settings."""
    context: int = 64             # characters the model reads
    d_model: int = 48
    layers: int = 2
    heads: int = 4
    d_ff: int = 192
    steps: int = 600              # Adam steps
    batch_size: int = 8           # windows per step
    lr: float = 3e-3              # Adam's step size, at its peak
    warmup: int = 0               # steps over which the step size rises from lr / warmup to lr
    lr_final: float = 1.0         # the step size at the last step, as a share of lr, reached along half a cosine
    weight_decay: float = 0.0     # AdamW's decay of the matrices, per unit of step size
    dropout: float = 0.0          # the share of each sublayer's outputs dropped in training (writing_step.py)
    dtype: str = "float64"        # the weights' and the step's arithmetic: float32 trains in about half the time
    held_out_every: int = 10      # one paragraph in this many is held out; 0: the text's end (Corpus.of)
    checkpoint_every: int = 50    # measure and sample this often (plus the start)
    eval_windows: int = 32        # windows (evenly spread) each checkpoint's losses are measured on
    eval_all_held_out: bool = False  # each checkpoint's held-out loss on the whole held-out text instead (held_out_loss)
    prompt: str = "The "          # each checkpoint's sample starts here
    sample_length: int = 80       # characters a checkpoint writes
    sample_seed: int = 0          # one seed for every checkpoint's sample, so samples differ by the weights alone
    temperature: float = 1.0      # the model's own probabilities, unsharpened

    def model(self, vocab: int) -> GPTConfig:
        return GPTConfig(vocab, self.context, self.d_model, self.layers, self.heads, self.d_ff)


# ---- the text ------------------------------------------------------------------------

NEWLINE = "↵"  # a line break the model wrote, as a line of text shows it


def one_line(text: str) -> str:
    """The model's text as one line, verbatim but for its line breaks, shown as NEWLINE."""
    return text.replace("\n", NEWLINE)


@dataclass(frozen=True)
class Corpus:
    """A text cut into training and held-out parts, as token indices."""
    vocab: Vocabulary
    train: np.ndarray     # (n_train,) the training paragraphs, in order
    held_out: np.ndarray  # (n_held,) the held-out paragraphs, in order

    @classmethod
    def of(cls, text: str, held_out_every: int = 10, min_count: int = 1, vocab: Vocabulary | None = None) -> "Corpus":
        """Paragraph i (a line, with its line break) is held out when i % every == every // 2: the
        middle one of each run of `every`; `every` 0 holds out the text's end instead (END_SHARE of
        it, from the first line or word break there: a reader's own text may be one paragraph).
        Tokens are `vocab`'s (a model's, whose text this is not: a character it lacks is a
        ValueError), or else the text's characters seen at least min_count times (engine/vocabulary.py)."""
        vocab = vocab or vocabulary(text, min_count)
        if not held_out_every:
            cut = end_cut(text)
            return cls(vocab, vocab.encode(text[:cut]), vocab.encode(text[cut:]))
        paragraphs = text.splitlines(keepends=True)
        held = [i % held_out_every == held_out_every // 2 for i in range(len(paragraphs))]
        return cls(vocab, vocab.encode("".join(t for t, h in zip(paragraphs, held) if not h)),
                   vocab.encode("".join(t for t, h in zip(paragraphs, held) if h)))


END_SHARE = 0.1  # the share of a text held out at its end (held_out_every 0)


def end_cut(text: str) -> int:
    """Where a text's held-out end starts: END_SHARE of it from its end, moved on to just after the
    next line break or space within a tenth of that (else the exact place), so no word is cut."""
    cut = len(text) - max(1, round(END_SHARE * len(text)))
    reach = cut + max(1, round(END_SHARE * len(text)) // 10)
    breaks = [i for i in (text.find("\n", cut, reach), text.find(" ", cut, reach)) if i >= 0]
    return min(breaks) + 1 if breaks else cut


def draw_windows(rng, tokens, count, length):
    """``count`` windows of ``length`` consecutive tokens, starting at random places: (count, length)."""
    starts = rng.integers(0, len(tokens) - length + 1, count)  # (count,)
    return tokens[starts[:, None] + np.arange(length)]  # (count, length)


def spread_windows(tokens, count, length):
    """``count`` windows of ``length`` tokens at evenly spaced places (the same every time): (count, length)."""
    starts = np.linspace(0, len(tokens) - length, count).round().astype(np.int64)  # (count,)
    return tokens[starts[:, None] + np.arange(length)]  # (count, length)


def reading_windows(n: int, length: int) -> tuple[np.ndarray, np.ndarray]:
    """How a text of n tokens is measured with windows of ``length`` (context + 1): a window every
    half context, each scoring only the characters the one before did not, so that every token but
    the first is scored once, and each reads at least half the context before it (the text's first
    few read all there is). Returns each window's start (W,) and the first of its positions (0 to
    length - 2, each predicting the token after it) that it scores (W,)."""
    if n <= length:
        return np.array([0]), np.array([0])
    half = (length - 1) // 2
    starts = list(range(0, n - length + 1, half))
    if starts[-1] + length < n:
        starts.append(n - length)  # the text's end, read as a full window
    starts = np.array(starts)  # (W,)
    scored_to = starts + length - 1  # (W,) the last token each window predicts
    first = np.concatenate([[0], scored_to[:-1] - starts[1:]])  # (W,) the first position not yet scored
    return starts, first


# ---- baselines -----------------------------------------------------------------------

NGRAM_ORDERS = range(1, 6)  # the counting models measured: 1 to 5 characters


def baselines(corpus: Corpus) -> dict:
    """Held-out loss, in nats per character, of models that count instead of learning, fitted on the
    training text and scored on every held-out character after the first, as the model is: an even
    guess (ln V), then interpolated Kneser-Ney models of n characters ("n1" ... "n5", reading the
    n - 1 before each guess)."""
    V = len(corpus.vocab)
    out = {"even": math.log(V)}
    for n in NGRAM_ORDERS:
        out[f"n{n}"] = NGram.fit(corpus.train, n, V).loss(corpus.held_out)
    return out


# ---- the model's loss ----------------------------------------------------------------

def loss_and_grads(params, windows):
    """Mean next-character cross-entropy over every position of ``windows`` (B, T+1), and its gradients."""
    logits, cache = gpt_forward(params, windows[:, :-1])  # (N, B*T)
    loss, ce = cross_entropy_forward(logits[None], windows[:, 1:].reshape(1, -1), axis=1)
    return loss, gpt_backward(cross_entropy_backward(1.0, ce)[0], cache)


def position_losses(params, windows) -> np.ndarray:
    """-ln P of the token after every position of ``windows`` (B, T+1): (B, T)."""
    logits, _ = gpt_forward(params, windows[:, :-1])  # (V, B*T)
    z = logits - logits.max(axis=0)  # (V, B*T)
    targets = windows[:, 1:].reshape(-1)  # (B*T,)
    nll = np.log(np.exp(z).sum(axis=0)) - z[targets, np.arange(targets.size)]  # (B*T,)
    return nll.reshape(windows.shape[0], -1)


def mean_loss(params, windows, from_position: int = 0) -> float:
    """Mean next-token loss of ``windows`` (B, T+1) over their positions from ``from_position`` on."""
    return float(position_losses(params, windows)[:, from_position:].mean())


def held_out_loss(params, corpus: Corpus, context: int, batch: int = 32) -> float:
    """The loss on every held-out character after the first, each read with at least half the
    context before it (reading_windows), in batches of windows."""
    tokens = corpus.held_out
    length = min(context + 1, len(tokens))
    starts, first = reading_windows(len(tokens), length)
    total = 0.0
    for i in range(0, len(starts), batch):
        windows = tokens[starts[i:i + batch, None] + np.arange(length)]  # (b, T+1)
        losses = position_losses(params, windows)  # (b, T)
        total += float(losses[np.arange(length - 1) >= first[i:i + batch, None]].sum())
    return total / (len(tokens) - 1)


# ---- the run -------------------------------------------------------------------------

class WritingRun:
    """A run's checkpoints as the chapter draws them: step, train and held-out loss (on eval_windows
    windows of each part, scoring their second half, so each guess reads at least half the context,
    as held_out_loss's do) and a sample; measured as each checkpoint is reached, so the browser's
    job can show them while it trains."""

    def __init__(self, corpus: Corpus, config: WritingConfig, training):
        self.corpus, self.config, self.training = corpus, config, training
        n = config.eval_windows
        self.eval_train = spread_windows(corpus.train, n, config.context + 1)  # (n, T+1)
        self.eval_held_out = spread_windows(corpus.held_out, n, config.context + 1)  # (n, T+1)
        self.prompt = corpus.vocab.encode(config.prompt)
        self.checkpoints = []  # one dict per checkpoint measured

    def measure(self) -> list:
        """The checkpoints reached since the last call, measured: what a slice of the job adds."""
        result, new = self.training.result, []
        for step, params in zip(result.checkpoint_steps[len(self.checkpoints):],
                                result.checkpoints[len(self.checkpoints):]):
            c = self.config
            gen = generate(params, self.prompt, c.sample_length, c.temperature, seed=c.sample_seed)
            half = c.context // 2
            new.append({"step": step, "train": mean_loss(params, self.eval_train, half),
                        "held_out": held_out_loss(params, self.corpus, c.context) if c.eval_all_held_out
                        else mean_loss(params, self.eval_held_out, half),
                        "sample": self.corpus.vocab.decode(gen.tokens)})
        self.checkpoints += new
        return new

    def finish(self) -> dict:
        """The finished run: per-step losses, every checkpoint, the final weights and their loss on
        the whole held-out text (the baselines are the text's, not the run's: model_file keeps them)."""
        self.measure()
        result = self.training.finish()
        return {"losses": [float(v) for v in result.losses], "checkpoints": self.checkpoints,
                "params": result.params,
                "final_held_out": held_out_loss(result.params, self.corpus, self.config.context),
                "vocab": self.corpus.vocab.characters}


def starting_point(corpus: Corpus, seed, config=WritingConfig()):
    """A run's starting weights and all its batches, (steps, batch_size, context + 1), in step order."""
    rng = np.random.default_rng(seed)
    start = init_params(config.model(len(corpus.vocab)), rng)
    windows = draw_windows(rng, corpus.train, config.steps * config.batch_size, config.context + 1)
    return start, windows.reshape(config.steps, config.batch_size, -1)  # (S, B, T+1)


def writing_training(text: str, seed=0, config=WritingConfig(), params=None, fused=True, steps=None, vocab=None):
    """A seeded run with Adam, ready to step, and its WritingRun. It starts from ``params`` if given
    (copied, never modified; in the order of the weights a start draws, which the optimiser's state
    follows), else from weights drawn from ``seed``. Every batch is drawn up front. A run taken on
    past its schedule to ``steps`` (Keep training) draws its batches as a run of that length does
    (its first ones are config.steps' run's) and keeps the schedule's last step size after it.
    ``vocab`` reads the text with a model's characters (fine-tuning on a text not its own). Each
    step is writing_step.WritingStep's (``fused``), or loss_and_grads' readable one: the same
    numbers to rounding, the fused one several times faster in the browser."""
    corpus = Corpus.of(text, config.held_out_every, vocab=vocab)
    run = config if steps is None else replace(config, steps=steps)
    start, batches = starting_point(corpus, seed, run)

    def readable(views, step):
        return loss_and_grads(views, batches[step])

    if config.dropout and not fused:
        raise ValueError("the readable step has no dropout: train a recipe with dropout with the fused step")
    step_fn = WritingStep(batches, dropout=config.dropout, seed=seed) if fused else readable

    training = adam_training(step_fn, start if params is None else {n: params[n] for n in start}, config.lr,
                             run.steps, config.checkpoint_every,
                             schedule=WarmupCosine(config.warmup, config.steps, config.lr_final),
                             weight_decay=config.weight_decay, dtype=config.dtype)
    return training, WritingRun(corpus, run, training)


def train_writing_model(text: str, seed=0, config=WritingConfig(), fused=True) -> dict:
    """Train to the end; same text and seed, same numbers."""
    training, run = writing_training(text, seed, config, fused=fused)
    return to_the_end((training, run.finish))


def writing_job(text: str, seed=0, config=WritingConfig()) -> TrainingJob:
    """The run for the browser's worker, in slices: each slice's snapshot carries the checkpoints
    it reached (losses and sample), the last slice the finished run."""
    training, run = writing_training(text, seed, config)
    return TrainingJob(training, lambda t: {"checkpoints": run.measure()}, run.finish)



# ---- the chapter's model, as the site ships it ---------------------------------------

MODEL_SEED = 0  # the seed of the run the build trains and the site ships
FORMAT = 3  # 3: the shipped recipe (SHIPPED) differs from the one a reader trains in the page

# The recipe the build trains on CPython and the site ships: chosen by the sweep that
# benchmarks/writing_sweep.py prints, as the recipe with the lowest held-out loss in a few minutes of
# one core; its model is kept in the repository (models/), so a fresh clone's build does not train it.
# (The smaller recipe a reader trains in the page is its figure's: engine/figures/writing_training.py.)
SHIPPED = WritingConfig(d_model=96, layers=3, heads=4, d_ff=384, steps=6000, batch_size=16, lr=4e-3, warmup=100,
                        lr_final=0.1, dropout=0.1, dtype="float32", checkpoint_every=500, eval_windows=64,
                        eval_all_held_out=True)
PASSES = 40  # the shipped recipe reads its training text at most this many times: a short text, fewer steps
CHECKPOINTS = 12  # the shipped run's checkpoints after its start, whatever its length


def fitted(config: WritingConfig, train_characters: int) -> WritingConfig:
    """The shipped recipe for a text of `train_characters`: config.steps, or as many steps as read
    the text PASSES times if fewer (a test's page of prose trains in seconds), a multiple of
    CHECKPOINTS, with a checkpoint every twelfth of the run."""
    reading = math.ceil(PASSES * train_characters / (config.batch_size * config.context) / CHECKPOINTS) * CHECKPOINTS
    steps = max(CHECKPOINTS, min(config.steps, reading))
    return replace(config, steps=steps, checkpoint_every=steps // CHECKPOINTS, warmup=min(config.warmup, steps // 10))


@dataclass(frozen=True)
class Shipped:
    """The chapter's trained model as the page and the build both read it: its weights rounded to
    float32 (what the site ships), the prose it learned from, and its run's record."""
    text: str
    config: WritingConfig
    seed: int
    vocab: Vocabulary
    params: dict  # name -> float64 array holding float32 values
    run: dict     # finish()'s record less params and vocab (losses, checkpoints, final_held_out), and the baselines


def pack(text: str, config: WritingConfig, seed: int, run: dict) -> bytes:
    """One file: a JSON header line, the text in UTF-8, then each weight array as little-endian
    float32 in the header's order. Same run, same bytes."""
    body = text.encode()
    arrays = sorted(run["params"].items())
    header = {"format": FORMAT, "config": asdict(config), "seed": seed, "vocab": run["vocab"],
              "text_bytes": len(body), "arrays": [[name, list(a.shape)] for name, a in arrays],
              "run": {k: v for k, v in run.items() if k not in ("params", "vocab")}}
    return (json.dumps(header, sort_keys=True, ensure_ascii=False).encode() + b"\n" + body
            + b"".join(np.ascontiguousarray(a, dtype="<f4").tobytes() for _, a in arrays))


@functools.lru_cache(maxsize=2)
def unpack(data: bytes) -> Shipped:
    """pack()'s file read back; a file of another format or cut short is a ValueError."""
    line, _, rest = data.partition(b"\n")
    header = json.loads(line)
    if header.get("format") != FORMAT:
        raise ValueError(f"not a writing model of format {FORMAT}")
    n = header["text_bytes"]
    text, offset, params = rest[:n].decode(), n, {}
    for name, shape in header["arrays"]:
        size = 4 * math.prod(shape)
        if offset + size > len(rest):
            raise ValueError("the writing model's file is cut short")
        params[name] = np.frombuffer(rest, dtype="<f4", count=size // 4, offset=offset).reshape(shape).astype(np.float64)
        offset += size
    return Shipped(text, WritingConfig(**header["config"]), header["seed"], Vocabulary(header["vocab"]), params,
                   header["run"])


def model_file(series: bytes) -> bytes:
    """The chapter's model, trained at build time on the series' prose (UTF-8), packed for the site:
    engine/given.py's MADE["writing-model"]."""
    text = series.decode()
    corpus = Corpus.of(text, SHIPPED.held_out_every)
    config = fitted(SHIPPED, len(corpus.train))
    run = train_writing_model(text, MODEL_SEED, config)
    return pack(text, config, MODEL_SEED, run | {"baselines": baselines(corpus)})


def shipped(given: Given) -> Shipped:
    """The model the site ships, as a figure is given it: what figures generate with, in the build
    and in the page alike."""
    return unpack(given["writing-model"])
