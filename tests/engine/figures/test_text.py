"""The text contract across all figures: what a reader reads is JSON, indexed like the data it describes."""
import json

import pytest

from engine.figures import FIGURES, compute, parse
from engine.figures import fmt
from engine.figures.fmt import fill, fill_all, scope_at

# How many states each figure's view steps through, read from the data it steps over.
STEPPED = {
    "winograd-head": lambda d: len(d["last_words"]),
    "word-map": lambda d: len(d["grid"]["xs"]) * len(d["grid"]["ys"]),
    "word-neighbours": lambda d: len(d["words"]),
    "soft-lookup": lambda d: len(d["modes"]),
    "query-drag": lambda d: len(d["axis"]) ** 2,
    "query-matrix": lambda d: len(d["last_words"]) * len(d["copies"]) * len(d["strengths"]),
    "colour-tokens": lambda d: len(d["sequences"]) * 8,
    "worked-mixture": lambda d: len(d["heads"]),
    "softmax-temperature": lambda d: len(d["temperatures"]),
    "scaling-experiment": lambda d: len(d["rows"]),
    "causal-mask": lambda d: len(d["mode_names"]) * len(d["words"]),
    "access-chart": lambda d: len(d["modes"]) * len(d["words"]),
    "head-types": lambda d: len(d["heads"]) * len(d["tokens"]),
    "value-sum": lambda d: len(d["last_words"]),
    "attention-matrix": lambda d: len(d["words"]),
    "word-order": lambda d: len(d["settings"]),
    "sinusoids": lambda d: len(d["codes"]),
    "lookup-training": lambda d: len(d["runs"]) * (d["steps"] // d["every"] + 1),
    "two-heads": lambda d: len(d["sentences"]),
    "qkv-matrices": lambda d: len(d["words"]),
    "attention-stages": lambda d: len(d["steps"]) * len(d["words"]),
    "residual-stream": lambda d: len(d["stages"]) * len(d["tokens"]),
    "quadratic-cost": lambda d: len(d["lengths"]),
    "tiled-attention": lambda d: len(d["steps"]),
    "intervention": lambda d: len(d["ablations"]) * len(d["edits"]),
    "weight-norms": lambda d: len(d["heads"]) * len(d["words"]),
    "circuits": lambda d: len(d["views"]),
    "induction-forms": lambda d: len(d["checkpoints"]),
    "your-sequence": lambda d: len(d["tokens"]),
    "your-sentence": lambda d: len(d["words"]),
    "matrix-product": lambda d: len(d["q"]) * len(d["k"]),
    "sum-spread": lambda d: len(d["ns"]),
    "chain-rule": lambda d: len(d["xs"]),
    "exp-log": lambda d: len(d["stops"]),
}
# The state the figure opens in.
START = {
    "winograd-head": lambda d: d["last_words"].index(d["params"]["last"]),
    "word-map": lambda d: d["start"][1] * len(d["grid"]["xs"]) + d["start"][0],
    "word-neighbours": lambda d: d["start"],
    "soft-lookup": lambda d: d["modes"].index(d["mode"]),
    "query-drag": lambda d: d["start"][1] * len(d["axis"]) + d["start"][0],
    "query-matrix": lambda d: ((d["last_words"].index(d["start"]["last_word"]) * len(d["copies"]) + d["start"]["copy"])
                               * len(d["strengths"]) + d["start"]["strength"]),
    "colour-tokens": lambda d: ((d["start"]["sequence"] * 2 + d["start"]["heads"] - 1) * 2
                                + int(d["start"]["causal"])) * 2 + int(d["start"]["positions"]),
    "worked-mixture": lambda d: d["start"],
    "softmax-temperature": lambda d: d["start"],
    "scaling-experiment": lambda d: d["start"],
    "causal-mask": lambda d: (0 if d["params"]["causal"] else 1) * len(d["words"]) + d["params"]["shown"] - 1,
    "access-chart": lambda d: (0 if d["params"]["causal"] else 1) * len(d["words"]) + d["params"]["length"] - 1,
    "head-types": lambda d: d["start"]["head"] * len(d["tokens"]) + d["start"]["row"],
    "value-sum": lambda d: d["last_words"].index(d["params"]["last"]),
    "attention-matrix": lambda d: d["start"],
    "word-order": lambda d: d["settings"].index("on" if d["params"]["positions"] else "off"),
    "sinusoids": lambda d: d["position"],
    "lookup-training": lambda d: d["start"]["run"] * (d["steps"] // d["every"] + 1) + d["start"]["state"],
    "two-heads": lambda d: d["start"],
    "qkv-matrices": lambda d: d["start"],
    "attention-stages": lambda d: d["start"]["checkpoint"] * len(d["words"]) + d["start"]["row"],
    "residual-stream": lambda d: d["start"]["stage"] * len(d["tokens"]) + d["start"]["word"],
    "quadratic-cost": lambda d: d["start"],
    "tiled-attention": lambda d: d["start"],
    "intervention": lambda d: d["start"]["ablation"] * len(d["edits"]) + d["start"]["edit"],
    "weight-norms": lambda d: d["start"]["head"] * len(d["words"]) + d["start"]["row"],
    "circuits": lambda d: d["start"],
    "induction-forms": lambda d: d["start"],
    "your-sequence": lambda d: d["start"],
    "your-sentence": lambda d: d["start"],
    "matrix-product": lambda d: d["start"]["row"] * len(d["k"]) + d["start"]["col"],
    "sum-spread": lambda d: d["start"],
    "chain-rule": lambda d: d["start"],
    "exp-log": lambda d: d["start"],
}


# Options other than the defaults, so the counts are read from the data rather than matched by chance.
OTHER = {
    "winograd-head": {"last": "wide", "strength": 2},
    "word-map": {"steps": 5, "nearest": 2, "probe": [1, 1]},
    "word-neighbours": {"word": "river"},
    "dot-product": {"extent": 2, "a": [1, 1], "b": [-2, 1]},
    "soft-lookup": {"query": "dot", "keys": ["dog", "dot"], "values": ["a", "b"], "mode": "soft"},
    "query-drag": {"extent": 2, "step": 1, "query": [1, -1], "last_word": "wide"},
    "query-matrix": {"last_word": "wide", "copy_stops": 3, "strength_stops": 4, "copy": 0.25},
    "colour-tokens": {"tokens": ["yellow"], "choices": ["red blue"], "heads": 2, "positions": True},
    "worked-mixture": {"head": 2},
    "softmax-bars": {"scores": [1, -1], "labels": ["a", "b"]},
    "softmax-temperature": {"steps": 4, "temperature": 2.5},
    "scaling-experiment": {"widths": [1, 8], "queries": 10, "start_d": 2},
    "causal-mask": {"last": "wide", "causal": False, "shown": 4, "strength": 2},
    "access-chart": {"causal": False, "length": 3},
    "head-types": {"head": "same", "row": 3},
    "value-sum": {"last": "wide"},
    "attention-matrix": {"last": "wide", "row": 2},
    "word-order": {"positions": True, "lean": 1.0},
    "sinusoids": {"positions": 9, "width": 6, "position": 3},
    "softmax-gradient": {"scores": [5, -5], "upstream": [1, 0.5], "labels": ["a", "b"]},
    "lookup-training": {"seed": 1, "rates": [0.1, 0.3], "rate": 0.3, "start": 20},
    "two-heads": {"seed": 1, "sentences": ["the cat sat on the mat", "a dog ran by the box"], "sentence": 1},
    "qkv-matrices": {"sentence": "a small bird hid behind the big tree", "head": 2, "query": 7},
    "attention-stages": {"sentence": "the fox ran by a red bed", "head": 2, "row": 6, "stage": 2, "checkpoint": 3},
    "residual-stream": {"stage": 3, "word": 5},
    "quadratic-cost": {"length": 50_000},
    "tiled-attention": {"tokens": 6, "block": 4, "causal": False, "seed": 9, "step": 2},
    "intervention": {"seed": 1, "sentence": "a bird hid behind the big tree", "ablate": "head2"},
    "weight-norms": {"seed": 0, "sentence": "the cat sat on the mat", "head": 1, "row": 5},
    "circuits": {"view": "trained", "seed": 1, "head": 2},
    "induction-forms": {"seed": 1, "sequence": "PONMLKJIHG", "step": 300},
    "your-sequence": {"seed": 1, "sequence": "dog bag dog"},
    "your-sentence": {"seed": 1, "sentence": "The small cat slept near a tree."},
    "matrix-product": {"queries": 3, "keys": 2, "width": 4, "seed": 5, "row": 2, "col": 1, "transposed": False},
    "sum-spread": {"n": 40, "term": "uniform", "runs": 500, "seed": 3},
    "chain-rule": {"x": -0.83, "h": 1e-6},
    "exp-log": {"scores": [1, 3.5], "labels": ["a", "b"], "answer": 1},
}


@pytest.fixture(scope="module", params=[(n, raw) for n in FIGURES for raw in (None, OTHER[n])],
                ids=[f"{n}-{kind}" for n in FIGURES for kind in ("default", "other")])
def figure(request):
    name, raw = request.param
    return name, compute(parse(name, raw))


def test_every_figure_has_text_and_no_facts(figure):
    name, data = figure
    assert "facts" not in data
    text = data["text"]
    assert json.loads(json.dumps(text, allow_nan=False)) == text
    assert isinstance(text["alt"], str) and text["alt"].strip()
    assert text["numbers"] and all(isinstance(n, str) and n for n in text["numbers"])
    assert set(text) <= {"alt", "numbers", "states", "fixed", "templates", "parts", "worked", "details", "exps",
                         "exp_sum", "total", "heads", "cells", "stages", "status", "training", "stopped",
                         "hint", "reading", "scope", "legend", "space"}


def test_states_are_indexed_like_the_stepped_data(figure):
    name, data = figure
    text = data["text"]
    if name not in STEPPED:
        assert "states" not in text  # recomputed live, or (dot-product) filled from templates
        return
    if "templates" in text:  # too many states to ship: the view fills the templates from text.scope
        assert "states" not in text and fmt.states(text["scope"], data) == STEPPED[name](data)
        states = [{"numbers": fill_all(text["templates"], scope_at(text["scope"], data, i))}
                  for i in range(STEPPED[name](data))]
    else:
        states = text["states"]
    assert len(states) == STEPPED[name](data)
    for s in states:
        assert set(s) <= {"numbers", "label", "bars"} and all(isinstance(n, str) for n in s["numbers"])
        assert isinstance(s.get("label", ""), str)
    opening = states[START[name](data)]["numbers"] + text.get("fixed", [])
    if name == "softmax-temperature":  # the static list gives the three temperatures its drawing shows
        assert opening[0] == text["numbers"][0]
    else:
        assert opening == text["numbers"]  # the view opens on the state the static figure lists


def test_templated_states_differ_where_their_data_differs():
    """Filled templates carry every state's numbers: no two grid points read alike."""
    for name in ("query-drag", "word-map"):
        data = compute(parse(name))
        lines = {tuple(fill_all(data["text"]["templates"], scope_at(data["text"]["scope"], data, i)))
                 for i in range(STEPPED[name](data))}
        assert len(lines) == STEPPED[name](data), name


def test_parts_are_templates_filled_from_the_data(figure):
    """Every part (a cell's, a bar's or a slider's text) is a template: filling it from the figure's
    opening state gives a non-empty string (so the view has all it names)."""
    name, data = figure
    parts = data["text"].get("parts", {})
    for key, template in parts.items():
        values = {"v": 0.5, "word": "w"}
        if "templates" in data["text"] and name in START:
            values |= scope_at(data["text"]["scope"], data, START[name](data))
        assert fill(template, values), (name, key)
