"""Text templates are filled alike in Python (engine/figures/fmt.py) and in the browser
(theme/js/text.js): the same templates and values give byte-identical lines, and what one side
refuses the other refuses too."""
from __future__ import annotations

from engine.figures import compute, module, parse
from engine.figures.fmt import fill_all

PAGE = "04-scores-to-weights.html"  # any page: the test imports text.js from the built site

# Values where Python's and JS's own formatting part ways: ties, a float stored below its decimal,
# negative zero, plain numbers as written, braces in a filled value.
EDGES = [
    (["{a:2} {b:0} {c:0} {d:2} {e:2} {f:2} {g:1}"],
     {"a": 0.125, "b": 2.5, "c": -2.5, "d": 1.005, "e": -0.001, "f": -0.0, "g": 0.05}),
    (["{n} {m} {c} {t} {z} {big}"],
     {"n": 3.0, "m": -7, "c": 0.6, "t": 0.30000000000000004, "z": -0.0, "big": 2 ** 53 - 1}),
    (["{w.0} {w.1} {s.1:3} {small}"], {"w": ["{x}", "cat"], "s": [0, 0.0005], "x": 9, "small": 0.0001}),
]
REFUSED = [  # each must raise on both sides
    ("{missing}", {}), ("{s.2:2}", {"s": [1, 2]}), ("{s.0}", {"s": 3}), ("{c}", {"c": 0.00001}),
    ("{b}", {"b": True}), ("{t:2}", {"t": "text"}), ("{n}", {"n": 2.0 ** 60}),
]


STATES = {  # how many states each templated figure steps through
    "query-drag": lambda d: len(d["axis"]) ** 2,
    "word-map": lambda d: len(d["grid"]["nearest"]),
    "query-matrix": lambda d: len(d["last_words"]) * len(d["copies"]) * len(d["strengths"]),
}


def _figure_cases():
    """Several states of every templated figure: (templates, the model's scope for the state)."""
    cases = []
    for name, options in (("query-drag", None), ("query-drag", {"last_word": "wide", "step": 1}),
                          ("query-matrix", None), ("query-matrix", {"copy_stops": 41, "strength_stops": 41,
                                                                     "max_strength": 20}),
                          ("word-map", None), ("word-map", {"nearest": 5})):
        data = compute(parse(name, options))
        scope = module(name).scope
        n = STATES[name](data)
        for i in sorted({0, 1, n // 3, n // 2, n - 1, *range(7, n, max(1, n // 40))}):
            cases.append((data["text"]["templates"], scope(data, i)))
        for template in data["text"].get("parts", {}).values():
            cases.append(([template], {"v": -0.004, "word": "cat", **scope(data, n - 1)}))
    data = compute(parse("colour-tokens", {"positions": True}))  # every number it prints goes through its parts
    parts = data["text"]["parts"]
    case = data["sequences"][0]["cases"][1][1][1]
    numbers = [x for head in case["heads"] for key in ("raw", "exps", "shares", "scaled") for row in head[key]
               for x in row if x is not None] + [x for row in case["inputs"] + case["out"] for x in row]
    for x in numbers:
        cases.append(([parts["whole"] if float(x).is_integer() else parts["number"]], {"v": x}))
    data = compute(parse("winograd-head"))
    for row in data["modes"]["tired"]["vectors"]:
        cases += [([data["text"]["parts"]["cell"]], {"v": x}) for x in row]
    cases += _label_cases()
    data = compute(parse("dot-product"))
    points = len(data["points"])
    for i, j in ((0, 1), (5, 5), (points - 1, 3), (17, 30)):
        cases.append((data["text"]["templates"], module("dot-product").slots(data, i, j)))
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
  const { fillAll, fill } = await import(new URL("assets/js/text.js", document.baseURI).href);
  const refusals = refused.map(([t, v]) => { try { fill(t, v); return false; } catch (e) { return true; } });
  return [cases.map(([templates, values]) => fillAll(templates, values)), refusals];
}"""


def test_python_and_the_browser_fill_templates_alike(open_chapter, base_url):
    chapter = open_chapter(base_url + PAGE)
    cases = EDGES + _figure_cases()
    filled, refusals = chapter.page.evaluate(FILL, [cases, REFUSED])
    assert len(filled) == len(cases) > 100
    for (templates, values), shown in zip(cases, filled):
        assert shown == fill_all(templates, values), templates
    assert refusals == [True] * len(REFUSED)
    assert chapter.page_errors == []


def test_python_refuses_what_the_browser_refuses():
    import pytest

    for template, values in REFUSED:
        with pytest.raises((KeyError, ValueError)):
            fill_all([template], values)
