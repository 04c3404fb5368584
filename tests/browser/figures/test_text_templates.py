"""Text templates are filled alike in Python (engine/figures/fmt.py) and in the browser
(theme/js/text.js): the same templates and values give byte-identical lines, every templated
figure's scope gives the same values on both sides, and what one side refuses the other refuses too."""
from __future__ import annotations

from functools import lru_cache

from engine.figures import FIGURES, compute, module, parse
from engine.figures.fmt import fill_all, scope_at, states

PAGE = "04-scores-to-weights.html"  # any page: the test imports text.js from the built site

# Values where Python's and JS's own formatting part ways: ties, a float stored below its decimal,
# negative zero, plain numbers as written, braces in a filled value.
EDGES = [
    (["{a:2} {b:0} {c:0} {d:2} {e:2} {f:2} {g:1}"],
     {"a": 0.125, "b": 2.5, "c": -2.5, "d": 1.005, "e": -0.001, "f": -0.0, "g": 0.05}),
    (["{n} {m} {c} {t} {z} {big}"],
     {"n": 3.0, "m": -7, "c": 0.6, "t": 0.30000000000000004, "z": -0.0, "big": 2 ** 53 - 1}),
    (["{w.0} {w.1} {s.1:3} {small}"], {"w": ["{x}", "cat"], "s": [0, 0.0005], "x": 9, "small": 0.0001}),
    (["{a:~2} {b:~2} {c:~0} {d:~4} {z:~2} {s.1:~1} {big:~2}"],
     {"a": 3.0, "b": 0.5, "c": -2.5, "d": -0.00001, "z": -0.0, "s": [1, -7], "big": 2.0 ** 60}),
]
REFUSED = [  # each must raise on both sides
    ("{missing}", {}), ("{s.2:2}", {"s": [1, 2]}), ("{s.0}", {"s": 3}), ("{c}", {"c": 0.00001}),
    ("{b}", {"b": True}), ("{t:2}", {"t": "text"}), ("{n}", {"n": 2.0 ** 60}), ("{t:~2}", {"t": "3"}),
]


# Every templated figure (every model whose text has a scope) is compared at its defaults and its EXAMPLE;
# these options, beside them, compare more numbers and shapes for some (optional: no row is needed).
VARIANTS = {
    "query-drag": [{"last_word": "wide", "step": 1}],
    "query-matrix": [{"copy_stops": 41, "strength_stops": 41, "max_strength": 20}],
    "word-map": [{"nearest": 5}],
    "lookup-training": [{"rates": [0.1, 0.3], "rate": 0.3, "start": 20}],
}
# Scopes each side must refuse alike: no such item, arithmetic on a non-number, a stray token, no state.
SCOPE_REFUSED = [
    ({"index": [["a", "xs"]], "values": {"v": "xs[a + 2]"}}, {"xs": [1, 2]}, 1),
    ({"index": [["a", "xs"]], "values": {"v": "xs[a] * name"}}, {"xs": [1, 2], "name": "cat"}, 0),
    ({"index": [["a", "xs"]], "values": {"v": "xs[a] )"}}, {"xs": [1, 2]}, 0),
    ({"index": [["a", "xs"]], "values": {"v": "ys"}}, {"xs": [1, 2]}, 0),
    ({"index": [["a", "xs"]], "values": {"v": "xs.a"}}, {"xs": [1, 2]}, 0),
    ({"index": [["a", "xs"]], "values": {"v": "xs[a]"}}, {"xs": [1, 2]}, 2),
]


def _sampled(n: int) -> list[int]:
    return sorted({0, 1, n // 3, n // 2, n - 1, *range(7, n, max(1, n // 40))})


@lru_cache(maxsize=1)
def _templated(given):
    """(data, states, given) for every figure whose text has templates filled from a scope, at its
    defaults, its EXAMPLE and its VARIANTS, with lookup-training also given a live run (from its eighth state)."""
    out = []
    for name in FIGURES:
        for options in (None, module(name).EXAMPLE, *VARIANTS.get(name, [])):
            data = compute(parse(name, options), given)  # as the series' build gives it (chapter 14's model)
            if "scope" not in data["text"]:
                assert name not in VARIANTS, f"{name} has no text.scope to vary"
                break
            out.append((data, _sampled(states(data["text"]["scope"], data)), {}))
    data = compute(parse("lookup-training"))
    run = data["runs"][0]
    live = {**run, "from": 8, **{k: run[k][8:] for k in ("grids", "top", "rows", "diag", "off")}}
    out.append((data, range(8, len(run["grids"])), {"run": live}))
    return out


def _figure_cases(given):
    """The parts of the templated figures and the numbers of other figures' parts: (templates, values)."""
    cases = []
    for data, _, _ in _templated(given):
        scope = scope_at(data["text"]["scope"], data, states(data["text"]["scope"], data) - 1)
        for template in data["text"].get("parts", {}).values():
            cases.append(([template], {"v": -0.004, "word": "cat", **scope}))
    data = compute(parse("colour-tokens", {"positions": True}))  # every number it prints goes through its parts
    parts = data["text"]["parts"]
    case = data["sequences"][0]["cases"][1][1][1]
    numbers = [x for head in case["heads"] for key in ("raw", "exps", "shares", "scaled") for row in head[key]
               for x in row if x is not None] + [x for row in case["inputs"] + case["out"] for x in row]
    for x in numbers:
        cases.append(([parts["number"]], {"v": x}))
    data = compute(parse("winograd-head"))
    for row in data["modes"]["tired"]["vectors"]:
        cases += [([data["text"]["parts"]["cell"]], {"v": x}) for x in row]
    cases += _label_cases()
    return cases


def _label_cases():
    """The parts the bar figures label their bars and sliders by, each filled with every number it labels."""
    cases = []
    data = compute(parse("soft-lookup"))
    for mode in data["modes"]:
        cases += [([data["text"]["parts"][mode]], {"v": e[mode]}) for e in data["entries"]]
    for options in (None, {"scores": [10, -10, 0.5, -0.5, 2.5]}):
        data = compute(parse("softmax-bars", options and {**options, "labels": list("abcde")}))
        parts = data["text"]["parts"]
        cases += [([parts["score"]], {"v": s}) for s in data["scores"]]
        cases += [([parts["weight"]], {"v": w}) for w in data["weights"]]
    data = compute(parse("softmax-temperature"))
    parts = data["text"]["parts"]
    cases += [([parts["score"]], {"v": s}) for s in data["scores"]]
    cases += [([parts["temperature"], parts["readout"]], {"v": t}) for t in data["temperatures"]]
    cases += [([parts["weight"]], {"v": w}) for row in data["weights"][::7] for w in row]
    data = compute(parse("word-neighbours"))
    cases += [([data["text"]["parts"]["similarity"]], {"v": s}) for row in data["rankings"][::3] for _, s in row]
    return cases


FILL = """async ([cases, refused]) => {
  const { fillAll, fill } = await import(new URL("js/text.js", document.querySelector("link[rel=icon]").href).href);
  const refusals = refused.map(([t, v]) => { try { fill(t, v); return false; } catch (e) { return true; } });
  return [cases.map(([templates, values]) => fillAll(templates, values)), refusals];
}"""
SCOPE_FILL = """async ([data, states, given]) => {
  const { fillAll, scopeAt } = await import(new URL("js/text.js", document.querySelector("link[rel=icon]").href).href);
  return states.map((i) => fillAll(data.text.templates, scopeAt(data.text.scope, data, i, given)));
}"""
SCOPE_REFUSE = """async (refused) => {
  const { scopeAt } = await import(new URL("js/text.js", document.querySelector("link[rel=icon]").href).href);
  return refused.map(([scope, data, i]) => { try { scopeAt(scope, data, i); return false; } catch (e) { return true; } });
}"""


def test_python_and_the_browser_fill_templates_alike(open_chapter, base_url, series_given):
    chapter = open_chapter(base_url + PAGE)
    cases = EDGES + _figure_cases(series_given)
    filled, refusals = chapter.page.evaluate(FILL, [cases, REFUSED])
    assert len(filled) == len(cases) > 100
    for (templates, values), shown in zip(cases, filled):
        assert shown == fill_all(templates, values), templates
    assert refusals == [True] * len(REFUSED)


def test_python_and_the_browser_read_every_scope_alike(open_chapter, base_url, series_given):
    """Every templated figure in the registry, its states filled from its text.scope on each side."""
    chapter = open_chapter(base_url + PAGE)
    figures = _templated(series_given)
    assert {d["figure"] for d, _, _ in figures} >= {"dot-product", "query-drag", "query-matrix", "word-map",
                                                    "attention-stages", "lookup-training"}
    for data, shown_states, given in figures:
        shown = chapter.page.evaluate(SCOPE_FILL, [data, list(shown_states), given])
        expected = [fill_all(data["text"]["templates"], scope_at(data["text"]["scope"], data, i, given))
                    for i in shown_states]
        assert shown == expected, data["figure"]
    assert chapter.page.evaluate(SCOPE_REFUSE, SCOPE_REFUSED) == [True] * len(SCOPE_REFUSED)


def test_python_refuses_what_the_browser_refuses():
    import pytest

    for template, values in REFUSED:
        with pytest.raises((KeyError, ValueError)):
            fill_all([template], values)
    for scope, data, i in SCOPE_REFUSED:
        with pytest.raises(ValueError):
            scope_at(scope, data, i)
