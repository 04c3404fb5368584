"""serve's reload of edited engine code (builder/reload.py): what is reloaded and in which order,
when only a restart will do, and which computed figures are dropped."""
from __future__ import annotations

import importlib
import pkgutil

from builder import reload
from builder.build import ROOT
from builder.figures import FigureCache
from engine.figures import FIGURES, module, parse

import builder.build  # noqa: F401  (the builder's imports: what decides a restart)
import builder.fallbacks
import builder.serve  # noqa: F401

# Every model and every fallback loaded, as after serve's first build: what is loaded decides what a
# reload reaches, so no test here depends on what earlier tests in the process imported.
for _name in FIGURES:
    module(_name)
for _found in pkgutil.iter_modules(builder.fallbacks.__path__):
    importlib.import_module(f"builder.fallbacks.{_found.name}")


def test_a_model_alone_is_reloaded():
    assert reload.plan(ROOT, [ROOT / "engine/figures/softmax_temperature.py"]) == ["engine.figures.softmax_temperature"]


def test_a_module_models_import_is_reloaded_before_every_model_that_imports_it():
    order = reload.plan(ROOT, [ROOT / "engine/figures/sentences.py"])
    assert order[0] == "engine.figures.sentences"
    assert "engine.figures.two_heads" in order and "engine.figures.params" not in order
    assert "engine.figures.induction_forms" in reload.plan(ROOT, [ROOT / "engine/figures/letters.py"])


def test_code_the_builder_imports_needs_a_restart():
    # fmt.py and tasks/writing.py: the fallbacks draw with fmt, and one of them reads writing-training
    for rel in ("engine/figures/params.py", "engine/figures/__init__.py", "engine/given.py", "builder/links.py",
                "engine/figures/fmt.py", "engine/tasks/writing.py"):
        assert reload.plan(ROOT, [ROOT / rel]) is None, rel


def test_a_new_figure_needs_a_restart():
    """FIGURES is found from engine/figures' modules once, at import: a model added is found anew."""
    assert reload.plan(ROOT, [ROOT / "engine/figures/brand_new_figure.py"]) is None
    assert reload.plan(ROOT, [ROOT / "engine/figures/_private_helper.py"]) == []  # not a figure, not loaded


def test_a_failing_reload_is_one_line_at_its_place(tmp_path, monkeypatch):
    import importlib
    import sys

    monkeypatch.syspath_prepend(str(tmp_path))
    source = tmp_path / "reload_probe.py"
    source.write_text("x = 1\n")
    monkeypatch.setitem(sys.modules, "reload_probe", importlib.import_module("reload_probe"))
    source.write_text("x = 2\n\ndef f(:\n")
    said = reload.apply(["reload_probe"], tmp_path)
    assert said is not None and "\n" not in said and "reload_probe.py:3: SyntaxError" in said, said
    assert sys.modules["reload_probe"].x == 1  # the code it had stays
    source.write_text("x = 3\n")
    assert reload.apply(["reload_probe"], tmp_path) is None and sys.modules["reload_probe"].x == 3


def test_forgetting_a_model_drops_its_figures_alone():
    cache = FigureCache()
    kept, dropped = parse("softmax-bars"), parse("softmax-temperature")
    for params in (kept, dropped, parse("softmax-temperature", {"temperature": 2.0})):
        cache._data[params] = {"figure": "x"}
        cache._facts[params] = {}
    assert cache.forget({"engine.figures.softmax_temperature"}) == 2
    assert list(cache._data) == [kept] and list(cache._facts) == [kept]


def test_a_model_that_does_not_parse_is_still_planned(tmp_path):
    """Its reload reports the syntax error at its line; the plan itself never fails on it."""
    broken = tmp_path / "broken.py"
    broken.write_text("from . import fmt\n\ndef f(:\n")
    assert reload.imports("engine.figures.broken", broken, {"engine.figures.fmt"}) == set()
    assert reload.imports("engine.figures.gone", tmp_path / "gone.py", {"engine.figures.fmt"}) == set()
