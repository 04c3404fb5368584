"""Python only where it is used: `data-live` on figures whose view can ask the worker, and the
runtime's config only on pages with one (or an exercise)."""
import re

from engine.figures import FIGURES, is_live, module, parse
from tests.conftest import ROOT


def _asks_the_worker(name: str) -> bool:
    """Whether the view (or a theme/js helper it imports) calls ctx.request or ctx.job."""
    seen, todo = set(), [ROOT / "theme" / "figures" / f"{name}.js"]
    while todo:
        path = todo.pop()
        if path in seen:
            continue
        seen.add(path)
        text = path.read_text()
        if re.search(r"\bctx\.(request|job)\(", text):
            return True
        todo += [(path.parent / m).resolve() for m in re.findall(r'from "(\.\.?/[^"]+\.js)"', text)]
    return False


def test_live_marks_exactly_the_views_that_ask_the_worker():
    live = {name for name in FIGURES if is_live(parse(name))}
    assert live == {name for name in FIGURES if _asks_the_worker(name)}
    assert "two-heads" in live and hasattr(module("two-heads"), "JOBS")  # a model with jobs is live


def test_a_figure_states_ASK_exactly_when_it_is_live():
    """The real worker's tests act out each live figure's ASK (engine/figures/__init__.py): a live
    figure without one is caught here, not only by the slowest tests."""
    for name in FIGURES:
        mod = module(name)
        live = bool(getattr(mod, "JOBS", None) or getattr(mod, "LIVE", False))
        assert hasattr(mod, "ASK") == live, f"{name}: {'no ASK' if live else 'ASK but not live'}"
        assert not hasattr(mod, "REFUSE") or live, f"{name}: REFUSE but not live"


def test_only_pages_that_use_python_carry_the_runtime(series_build):
    site, out = series_build
    for ch in site.chapters:
        html = (out / ch.url).read_text()
        live = re.findall(r'<figure [^>]*data-figure="([^"]+)"[^>]*\bdata-live\b', html)
        assert set(live) <= {name for name in FIGURES if is_live(parse(name))}, ch.url
        exercises = [use for use in ch.source.directives if use.name == "exercise"]
        assert ch.uses_python == bool(live or exercises), ch.url
        assert ('id="runtime-config"' in html) == ch.uses_python, ch.url
        assert ("data-runtime-status" in html) == bool(live), ch.url  # the status line speaks of live figures
    without = [ch for ch in site.chapters if ch.figures and not ch.uses_python]
    assert without, "some chapter should show figures without Python (chapters 1-3 do)"
    for name in ("index.html", "bibliography.html"):
        assert "runtime-config" not in (out / name).read_text()


def test_a_figure_is_live_only_where_its_options_let_it_ask(series_build):
    """colour-tokens asks the worker only through its token editor: where a chapter hides the
    editor (chapter 7 offers the heads alone) the figure is not live and the page loads no Python."""
    assert is_live(parse("colour-tokens", {"controls": ["tokens"]}))
    assert not is_live(parse("colour-tokens", {"controls": ["heads"]}))
    chapters = {ch.url: ch for ch in series_build[0].chapters}
    seven = chapters["07-many-heads.html"]
    assert not any(f.live for f in seven.figures) and not seven.uses_python
    eight = chapters["08-where-words-are.html"]
    assert any(f.live and f.name == "colour-tokens" for f in eight.figures)
