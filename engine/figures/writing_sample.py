"""writing-sample: chapter 14's trained model (engine/tasks/writing.py `shipped`) writes after the reader's prompt.

It writes `length` characters one at a time with the key-value cache (engine/gpt.py `generate`), each
drawn at `temperature` from the `top_k` most likely (0: all). State i is the i-th character written:
what the step that chose it read (every head's weights, every layer, over its window), the most
likely next characters it was drawn from, and the one drawn. `text.templates` hold a state's lines
and `text.scope` says where their values lie; `start`, the state the figure opens in, is the last
character. Weights are shipped one character each (`alphabet`, `levels`: character k is weight
k / levels), which keeps the default figure's data small; the key numbers name each head's largest
weight from `most`, to two decimals. Only a new prompt or new options need Python: the default is embedded.
A prompt the model cannot read is refused with a one-line reason in the reader's words (ParamError):
Params refuses what the options alone decide (an empty or too long prompt); the characters the model
knows are its vocabulary, which comes with the model the engine is given (engine/given.py), and a
build reads every chapter's options before it gives the engine the prose, so compute() refuses those.
`model` "yours" writes with the model the reader trained in their browser (figure 14.1's run, kept
by the page and handed in as READER_GIVEN's file: engine/tasks/writing_kept.py); where the page
hands in none, the option is refused in one line and the page's model writes.
"""
from __future__ import annotations

import string
from dataclasses import dataclass
from functools import cached_property

import numpy as np

from ..given import Given
from ..gpt import generate, next_probabilities
from ..tasks import writing, writing_kept
from ..vocabulary import Vocabulary
from .fmt import fill_all, fixed, scope_at
from .params import ParamError, field

GIVEN = ("writing-model",)  # the trained weights, which the build makes and the page fetches (engine/given.py)
READER_GIVEN = ("reader-model",)  # the reader's own model, trained in their browser: only the page hands it in
MODELS = {"page": "the model that came with the page", "yours": "the model you trained"}

PROMPT = "The model "
CONTEXT = writing.SHIPPED.context  # the characters the chapter's model reads
TOP = 5  # next characters listed per state
ALPHABET = string.digits + string.ascii_lowercase + string.ascii_uppercase  # nothing the page's JSON escapes
LEVELS = len(ALPHABET) - 1  # a weight is shipped as the nearest of LEVELS + 1 steps from 0 to 1
ROW_CHARACTERS = 20  # the characters a head's row shows of what it read, the nearest: legible on a phone
NAMED = 5  # unknown characters a reason names before "and N more"
TEMPERATURES = {"cool": 0.5, "plain": 1.0, "hot": 1.5}  # the facts' samples: sharper, as learned, flatter
SPECIAL = {" ": "space", "\n": "new line"}  # characters a quote cannot show


@dataclass(frozen=True)
class Params:
    prompt: str = field(PROMPT, doc="the reader's text, which the model goes on from")
    temperature: float = field(1.0, lo=0.0, hi=2.0, step=0.1, doc="chapter 4's temperature; 0 takes the most likely")
    top_k: int = field(0, lo=0, hi=20, step=1, doc="draw from the k most likely characters; 0: from all")
    seed: int = field(0, lo=0, hi=999, step=1, doc="the random seed of the draws")
    length: int = field(100, lo=1, hi=200, step=1,
                        doc="characters written; each ships its weights, so more weighs the page down")
    model: str = field("page", choices=tuple(MODELS),
                       doc="who writes: the model the site ships, or (in the page only) the one the reader trained")

    def __post_init__(self):
        self.read  # a prompt the model cannot read is refused here, and read only here

    @cached_property
    def read(self) -> str:
        """The prompt, checked once as the Params is built (a value of its frozen fields, not state)."""
        return read(self.prompt)


EXAMPLE = {"prompt": "A head reads", "temperature": 0.7, "top_k": 5, "seed": 3, "length": 40}
BROKEN = ({"prompt": ""}, "prompt")  # options that break a rule of Params' own, and the option it names


def read(text: str) -> str:
    """The prompt, or ParamError with the reason a reader is told for one no model could read."""
    # The model reads at most its context: a longer prompt's first characters would fall out of the
    # window before the first character is written, so the model could never read them.
    if len(text) > CONTEXT:
        raise ParamError("prompt", f"The model reads at most {CONTEXT} characters; this has {len(text)}.")
    if not text:
        raise ParamError("prompt", "Type a few words for the model to go on from.")
    return text


def tokens(text: str, vocab: Vocabulary) -> list[int]:
    """The prompt as the model's tokens, or ParamError naming the characters it does not know."""
    refusal = vocab.refusal(text, NAMED)
    if refusal:
        raise ParamError("prompt", refusal)
    return vocab.encode(text).tolist()


def name(c: str) -> str:
    """A character as the key numbers name it."""
    return SPECIAL.get(c, f"“{c}”")


def shown_probabilities(logits: np.ndarray, p: Params) -> np.ndarray:
    """What the bars show for a step: the probabilities the character was drawn from, or at temperature 0
    (which takes the largest) the model's own, at temperature 1."""
    return next_probabilities(logits, p.temperature or 1.0, p.top_k)


def shown_count(p: Params, vocab: int) -> int:
    """How many next characters a state lists: TOP, or fewer when only top_k can be drawn."""
    return min(TOP, p.top_k or vocab)


def encode_weights(weights: np.ndarray) -> str:
    """Weights in 0..1 as one character each: ALPHABET[round(w * LEVELS)]."""
    return "".join(ALPHABET[k] for k in np.rint(np.asarray(weights) * LEVELS).astype(int).tolist())


def _writer(p: Params, given: Given) -> writing.Shipped:
    """The model that writes: the shipped one, or the reader's own when p.model asks and it is given."""
    if p.model == "page":
        model = writing.shipped(given)
        if model.config.context != CONTEXT:
            raise ValueError(f"the model reads {model.config.context} characters, not the {CONTEXT} Params allows")
        return model
    if READER_GIVEN[0] not in given:
        raise ParamError("model", "no model of your own is kept in this browser, so the page's model writes")
    try:
        return writing_kept.model_of(given[READER_GIVEN[0]])
    except (ValueError, KeyError, TypeError, UnicodeDecodeError) as err:
        raise ParamError("model", f"the model kept in this browser could not be read ({err})") from None


def compute(p: Params, given: Given) -> dict:
    model = _writer(p, given)
    vocab = model.vocab
    prompt = tokens(p.read, vocab)
    gen = generate(model.params, prompt, p.length, p.temperature, p.top_k, p.seed, show=0)
    n_prompt, shown = len(prompt), shown_count(p, len(vocab))
    attention, most, top, drawn = [], [], [], []
    for i, (weights, logits) in enumerate(zip(gen.weights, gen.logits)):
        w = np.concatenate([layer.reshape(-1, layer.shape[-1]) for layer in weights])  # (L*H, window)
        attention.append(encode_weights(w.reshape(-1)))
        best = w.argmax(axis=1)  # (L*H,)
        most.append([v for h, j in enumerate(best.tolist()) for v in (gen.starts[i] + j, round(float(w[h, j]), 2))])
        probs = shown_probabilities(logits, p)  # (N,)
        order = np.argsort(-probs, kind="stable")
        top.append([[int(t), round(float(probs[t]), 3)] for t in order[:shown]])
        token = gen.tokens[n_prompt + i]
        drawn.append([int(np.flatnonzero(order == token)[0]) + 1, round(float(probs[token]), 3)])
    layers, heads = len(gen.weights[0]), gen.weights[0][0].shape[0]
    return {
        "prompt": p.prompt,
        "vocab": list(vocab.characters),
        "names": [name(c) for c in vocab.characters],
        "tokens": gen.tokens,
        "prompt_length": n_prompt,
        "written": vocab.decode(gen.tokens[n_prompt:]),
        "starts": gen.starts,
        "layers": layers,
        "heads": heads,
        "alphabet": ALPHABET,
        "levels": LEVELS,
        "attention": attention,
        "most": most,
        "top": top,
        "drawn": drawn,
        "cached_scores": gen.cached_scores,
        "recomputed_scores": gen.recomputed_scores,
        "recomputed_allowed": gen.recomputed_allowed,
        "max_prompt": CONTEXT,
        "row_characters": ROW_CHARACTERS,
        "writer": {"seed": model.seed, "steps": model.config.steps, "parameters": model.config.model(len(vocab)).parameters},
        "start": p.length - 1,
    }


def _scope(data: dict) -> dict:
    """Where each slot of a state's lines lies: state i is the i-th character written."""
    values = {"k": "i + 1", "ch": "names[tokens[prompt_length + i]]", "rank": "drawn[i].0", "p": "drawn[i].1",
              "w": "prompt_length + i - starts[i]"}
    for j in range(len(data["top"][0])):
        values |= {f"c{j}": f"names[top[i].{j}.0]", f"p{j}": f"top[i].{j}.1"}
    for h in range(data["layers"] * data["heads"]):  # `b`: how far back from the character written
        values |= {f"x{h}": f"names[tokens[most[i].{2 * h}]]", f"b{h}": f"prompt_length + i - most[i].{2 * h}",
                   f"m{h}": f"most[i].{2 * h + 1}"}
    return {"index": [["i", "starts"]], "values": values}


def templates(p: Params, data: dict) -> list[str]:
    n_vocab = len(data["vocab"])
    if p.temperature == 0:
        lead = (f"Character {{k}} of {p.length}: {{ch}}, the most likely (probability {{p:3}} at temperature 1), "
                "after reading {w} characters")
        where = "at temperature 1"
    else:
        lead = (f"Character {{k}} of {p.length}: {{ch}}, drawn with probability {{p:3}} (rank {{rank}} of {n_vocab}), "
                "after reading {w} characters")
        where = f"at temperature {fixed(p.temperature, 1)}" + (f", from the {p.top_k} most likely" if p.top_k else "")
    nexts = f"Most likely next characters {where}: " + ", ".join(
        f"{{c{j}}} {{p{j}:2}}" for j in range(len(data["top"][0])))
    H = data["heads"]
    per_layer = [f"Layer {layer + 1}, read most by each head: " + "; ".join(
        f"head {h + 1} {{x{layer * H + h}}}, {{b{layer * H + h}}} back ({{m{layer * H + h}:2}})" for h in range(H))
        for layer in range(data["layers"])]
    return [lead, nexts, *per_layer]


def _settings(p: Params) -> str:
    """How the characters were drawn, in words."""
    if p.temperature == 0:
        return "always the most likely"
    return (f"temperature {fixed(p.temperature, 1)}, "
            + (f"from the {p.top_k} most likely" if p.top_k else "from all characters") + f", seed {p.seed}")


def _who(p: Params, data: dict) -> str:
    """The model that wrote, in words."""
    if p.model == "page":
        return "the model"
    w = data["writer"]
    return f"the model you trained (seed {w['seed']}, {w['steps']:,} steps, {w['parameters']:,} numbers)"


def text(p: Params, data: dict) -> dict:
    L, H = data["layers"], data["heads"]
    cached, recomputed, allowed = data["cached_scores"], data["recomputed_scores"], data["recomputed_allowed"]
    fixed_lines = [
        f"After “{writing.one_line(data['prompt'])}” {_who(p, data)} wrote ({_settings(p)}): “{writing.one_line(data['written'])}”",
        f"Scores each head computed to read the prompt and write these {p.length} characters: {cached} with the "
        "key-value cache, "
        f"{recomputed} without it ({fixed(recomputed / cached, 1)} times as many), or {allowed} if it skipped "
        f"the masked ones ({fixed(allowed / cached, 1)} times); {L * H} heads in all: {L * H * cached}, "
        f"{L * H * recomputed} and {L * H * allowed}",
    ]
    scope = _scope(data)
    lines = templates(p, data)
    opening = fill_all(lines, scope_at(scope, data, opening_state(p, data)))
    return {
        "alt": (f"Chapter 14's small model writing {p.length} characters after “{writing.one_line(data['prompt'])}”, one at a time. "
                f"For the last character: " + ". ".join(opening) + ". " + ". ".join(fixed_lines) + "."),
        "numbers": opening + fixed_lines,
        "templates": lines,
        "scope": scope,
        "fixed": fixed_lines,
        "heads": [f"Layer {layer + 1}, head {h + 1}" for layer in range(L) for h in range(H)],
        "details": [f"With the cache: {cached} scores per head",
                    f"Without it: {recomputed} scores per head ({fixed(recomputed / cached, 1)} times as many)",
                    f"Without it, skipping the masked scores: {allowed} ({fixed(allowed / cached, 1)} times)"],
        "models": MODELS,  # the choice of the model that writes, in the reader's words
        "parts": {"bar": "{v:2}", "temperature": "{v:1}", "top_k": "the {v} most likely", "all": "all characters",
                  "drawn": "← drawn",
                  "state": "character {v} of " + str(p.length)},
        "legend": ("Underlined: the prompt. Pick a character the model wrote to see what it read as it wrote it: "
                   f"a row for each head, of the last {data['row_characters']} characters it read, each darker for "
                   "more of the head's weight (… holds all it read before them); pick a head to tint the text with "
                   "its weights. Below, the most likely next characters, the one drawn marked."),
        "hint": (f"Up to {data['max_prompt']} characters of the kinds the series' text uses; press Generate to write "
                 f"{p.length} more."),
        "reading": "Writing… (the first time, Python loads the model first)",
    }


def state_count(data: dict) -> int:
    """How many states the view steps through: one per character written."""
    return len(data["starts"])


def opening_state(p: Params, data: dict) -> int:
    """The state the view opens in: the last character written."""
    return data["start"]


LIVE = True  # a new prompt or new options are written by the worker


def facts(p: Params, data: dict, given: Given) -> dict:
    """The default text's counts, and the same prompt written at three temperatures."""
    samples = {k: compute(Params(p.prompt, t, p.top_k, p.seed, p.length), given)["written"] if t != p.temperature
               else data["written"] for k, t in TEMPERATURES.items()}
    return {"prompt": p.prompt, "length": p.length, "cached_scores": data["cached_scores"],
            "recomputed_scores": data["recomputed_scores"],
            "saving": data["recomputed_scores"] / data["cached_scores"],
            "recomputed_allowed": data["recomputed_allowed"],
            "saving_allowed": data["recomputed_allowed"] / data["cached_scores"],
            **{f"sample_{k}": writing.one_line(v) for k, v in samples.items()},
            "temperature_cool": TEMPERATURES["cool"], "temperature_hot": TEMPERATURES["hot"]}
