"""The text contract across all figures: what a reader reads is JSON, indexed like the data it describes.
Each model says what these tests need to know of it (engine/figures/__init__.py): EXAMPLE, options other
than the defaults, and beside text() with states or templates, state_count and opening_state."""
import json

import pytest

from engine.figures import FIGURES, compute, module, parse
from engine.figures import fmt
from engine.figures.fmt import fill, fill_all, scope_at


def test_every_figure_has_an_example_other_than_its_defaults():
    """Run with options other than the defaults, a figure's counts are read from the data rather than
    matched by chance."""
    for name in FIGURES:
        example = getattr(module(name), "EXAMPLE", None)
        assert isinstance(example, dict) and example, f"{name}: no EXAMPLE options"
        assert parse(name, example) != parse(name), f"{name}: EXAMPLE sets only the defaults"


@pytest.fixture(scope="module", params=[(n, raw) for n in FIGURES for raw in (None, getattr(module(n), "EXAMPLE", None))],
                ids=[f"{n}-{kind}" for n in FIGURES for kind in ("default", "other")])
def figure(request, series_given):
    name, raw = request.param
    params = parse(name, raw)
    return name, params, compute(params, series_given)


def test_every_figure_has_text_and_no_facts(figure):
    name, _, data = figure
    assert "facts" not in data
    text = data["text"]
    assert json.loads(json.dumps(text, allow_nan=False)) == text
    assert isinstance(text["alt"], str) and text["alt"].strip()
    assert text["numbers"] and all(isinstance(n, str) and n for n in text["numbers"])
    assert set(text) <= {"alt", "numbers", "states", "fixed", "templates", "parts", "worked", "details", "exps",
                         "exp_sum", "total", "heads", "cells", "stages", "status", "training", "stopped",
                         "hint", "reading", "scope", "legend", "space", "models", "kept", "keep", "keeping", "forget", "forgotten",
                         "keeping_page", "tuning", "own"}


def test_states_are_indexed_like_the_stepped_data(figure):
    name, params, data = figure
    text, mod = data["text"], module(name)
    steps = "states" in text or "templates" in text
    for member in ("state_count", "opening_state"):  # beside text(), exactly when it has states to step through
        assert hasattr(mod, member) == steps, f"{name}: {member} {'missing' if steps else 'without states'}"
    if not steps:  # recomputed live
        return
    count = mod.state_count(data)
    if "templates" in text:  # too many states to ship: the view fills the templates from text.scope
        assert "states" not in text and fmt.states(text["scope"], data) == count
        states = [{"numbers": fill_all(text["templates"], scope_at(text["scope"], data, i))} for i in range(count)]
    else:
        states = text["states"]
    assert len(states) == count
    for s in states:
        assert set(s) <= {"numbers", "label", "bars"} and all(isinstance(n, str) for n in s["numbers"])
        assert isinstance(s.get("label", ""), str)
    opening = states[mod.opening_state(params, data)]["numbers"] + text.get("fixed", [])
    if name == "softmax-temperature":  # the static list gives the three temperatures its drawing shows
        assert opening[0] == text["numbers"][0]
    else:
        assert opening == text["numbers"]  # the view opens on the state the static figure lists


def test_templated_states_differ_where_their_data_differs(series_given):
    """Filled templates carry every state's numbers: no two grid points read alike."""
    for name in ("query-drag", "word-map"):
        data, count = compute(parse(name), series_given), module(name).state_count
        lines = {tuple(fill_all(data["text"]["templates"], scope_at(data["text"]["scope"], data, i)))
                 for i in range(count(data))}
        assert len(lines) == count(data), name


def test_parts_are_templates_filled_from_the_data(figure):
    """Every part (a cell's, a bar's or a slider's text) is a template: filling it from the figure's
    opening state gives a non-empty string (so the view has all it names)."""
    name, params, data = figure
    parts = data["text"].get("parts", {})
    for key, template in parts.items():
        values = {"v": 0.5, "word": "w"}
        if "templates" in data["text"]:
            values |= scope_at(data["text"]["scope"], data, module(name).opening_state(params, data))
        assert fill(template, values), (name, key)
