"""attention-stages: one head's raw scores QKᵀ, scaled scores QKᵀ/√6 and softmax weights, as n×n grids,
at each of the 21 saved checkpoints of chapter 9's trained model (steps 0 to 400, every 20).

The view steps through the three stages (buttons, or scrolling the stage paragraphs `text.stages`
beside the grid), selects a row, and replays training with a slider; every state is precomputed here:
`grids[c][s]` is stage s at checkpoint c, rounded to 3 decimals (21 × 3 × n² numbers), `top[c][r]` the
column of row r's largest weight. Text: 21 × n states of a row's numbers would repeat the grids, so
`templates` are filled for state i = checkpoint * n + row from `text.scope` (SCOPE below, read by
engine/figures/fmt.py `scope_at`); `parts` are the cells' templates per stage, filled from {v}.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..tasks import grammar
from .fmt import fill_all, fixed, rounded, scope_at
from .params import check_index, field
from .sentences import SEED, check_sentence

STAGES = ("scores", "scaled", "weights")  # the export's names, in the order the head computes them
DIGITS = {"scores": 2, "scaled": 2, "weights": 3}  # printed in a row's numbers; the data keeps 3
CELL_DIGITS = {"scores": 1, "scaled": 1, "weights": 2}  # printed in a grid's cells, which are narrow


@dataclass(frozen=True)
class Params:
    sentence: str = field("The cat sat on the mat", doc="must follow the toy grammar")
    head: int = field(1, choices=(1, 2), doc="which of the model's two heads")
    row: int = field(1, lo=0, hi=grammar.MAX_LEN - 1, doc="the row (query word) selected first")
    stage: int = field(0, lo=0, hi=len(STAGES) - 1, doc="the stage shown first: raw, scaled, softmax")
    checkpoint: int = field(20, lo=0, hi=20, doc="the checkpoint shown first (20: the end of training)")

    def __post_init__(self):
        check_index("row", self.row, check_sentence(self.sentence), "words")


EXAMPLE = {"sentence": "the fox ran by a red bed", "head": 2, "row": 6, "stage": 2, "checkpoint": 3}
BROKEN = ({"sentence": "cat the"}, "sentence")  # options that break a rule of Params' own, and the option it names


def compute(p: Params) -> dict:
    run = grammar.trained(SEED)
    exports = [run.export(p.sentence, c) for c in range(len(run.checkpoints))]
    words = exports[0]["words"]
    heads = [e["heads"][p.head - 1] for e in exports]
    grids = [[rounded(h[s], 3) for s in STAGES] for h in heads]
    d = run.config.d_k
    return {
        "words": words,
        "stages": list(STAGES),  # the order of grids[c] and the keys of text.parts
        "head": p.head,
        "seed": SEED,
        "d_k": d,
        "root_d": float(np.sqrt(d)),
        "steps": [e["step"] for e in exports],
        "grids": grids,
        "top": [np.asarray(h["weights"]).argmax(axis=1).tolist() for h in heads],
        # the shading's full scale per stage, over every checkpoint, so training visibly sharpens the grid
        "extent": [round(float(max(np.abs(g[s]).max() for g in grids)), 3) for s in range(len(STAGES))],
        "start": {"checkpoint": p.checkpoint, "stage": p.stage, "row": p.row},
    }


def stage_titles(d: int) -> list[str]:
    return ["Raw scores QKᵀ", f"Scaled scores QKᵀ/√{d}", "Softmax weights"]


def templates(words, d: int) -> list[str]:
    """A row's numbers at one checkpoint: each stage's line, with a slot per word."""
    def each(stage):
        return ", ".join(f"{w} {{{stage}.{j}:{DIGITS[stage]}}}" for j, w in enumerate(words))
    return ["Step {step} of {last}, head {head}: row of {word} (word {place}); largest weight {top_weight:3} on "
            "{top_word}", "Raw scores q·k: " + each("scores"), f"Scaled scores q·k/√{d}: " + each("scaled"),
            "Softmax weights: " + each("weights")]


SCOPE = {  # the values the templates name at state i = checkpoint c * n + row r
    "index": [["c", "steps"], ["r", "words"]],
    "values": {"step": "steps[c]", "last": "steps[-1]", "head": "head", "word": "words[r]", "place": "r + 1",
               "top_word": "words[top[c][r]]", "top_weight": f"grids[c][{STAGES.index('weights')}][r][top[c][r]]",
               **{s: f"grids[c][{k}][r]" for k, s in enumerate(STAGES)}},
}


def text(p: Params, data: dict) -> dict:
    words, d = data["words"], data["d_k"]
    start = data["start"]
    n = len(words)
    lines = templates(words, d)
    root = fixed(data["root_d"], 3)
    titles = stage_titles(d)
    return {
        "alt": (f"Three {n}×{n} grids for “{' '.join(words)}”, head {data['head']} of the trained model at step "
                f"{data['steps'][start['checkpoint']]}, one row per word looking and one column per word it reads: "
                f"{titles[0]}, then divided by √{d} ≈ {root}, then the softmax of each row, whose weights sum to 1."),
        "numbers": fill_all(lines, scope_at(SCOPE, data, opening_state(p, data))),
        "templates": lines,
        "scope": SCOPE,
        "stages": [
            {"title": titles[0],
             "text": f"Each word's query meets every word's key: row i, column j is the dot product of word i's query "
                     f"and word j's key, a sum of {d} products."},
            {"title": titles[1],
             "text": f"Every score is divided by √{d} ≈ {root}, so scores of {d}-number queries and keys keep "
                     "a spread at which softmax does not saturate too early."},
            {"title": titles[2],
             "text": "Softmax turns each row into weights: positive, summing to 1, most on the largest scaled score."},
        ],
        "parts": {**{s: f"{{v:{CELL_DIGITS[s]}}}" for s in STAGES}, "step": f"step {{v}} of {data['steps'][-1]}"},
    }


def state_count(data: dict) -> int:
    """How many states the view steps through: one per checkpoint and row."""
    return len(data["steps"]) * len(data["words"])


def opening_state(p: Params, data: dict) -> int:
    """The state the view opens in: the options' checkpoint and row."""
    return data["start"]["checkpoint"] * len(data["words"]) + data["start"]["row"]


def facts(p: Params, data: dict) -> dict:
    """Checkpoints, and the selected row's largest weight at the first and last checkpoint, for the prose."""
    r = data["start"]["row"]
    first, last = (grammar.trained(SEED).export(p.sentence, c)["heads"][p.head - 1] for c in (0, -1))
    out = {"checkpoints": len(data["steps"]), "first_step": data["steps"][0], "last_step": data["steps"][-1],
           "every": data["steps"][1] - data["steps"][0], "row_word": data["words"][r],
           "even_share": 1.0 / len(data["words"])}  # a flat row's weights
    for name, h in (("first", first), ("last", last)):
        top = int(np.argmax(h["weights"][r]))
        out[f"{name}_top_weight"] = float(h["weights"][r][top])
    out["last_top_word"] = data["words"][int(np.argmax(last["weights"][r]))]
    return out
