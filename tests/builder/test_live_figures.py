"""Python only where it is used: `data-live` on figures whose view can ask the worker, and the
runtime's config only on pages with one (or an exercise)."""
import re

from engine.figures import FIGURES, is_live, module, parse
from tests.browser import asks
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


def test_a_figure_has_an_ASK_exactly_when_it_is_live():
    """The real worker's tests act out each live figure's ASK (tests/browser/asks.py): a live figure
    without one is caught here, not only by the slowest tests. The tables are test data: no model
    in the engine, which ships to every reader, carries them."""
    live = {name for name in FIGURES
            if getattr(module(name), "JOBS", None) or getattr(module(name), "LIVE", False)}
    assert live, "no live figure"
    missing, extra = sorted(live - asks.ASK.keys()), sorted(asks.ASK.keys() - live)
    assert not missing, f"live figures with no ASK in tests/browser/asks.py: {missing}"
    assert not extra, f"ASK for figures that are not live (or not in FIGURES): {extra}"
    assert asks.REFUSE.keys() <= live, f"REFUSE for figures that are not live: {sorted(asks.REFUSE.keys() - live)}"
    for name in FIGURES:
        kept = [t for t in ("ASK", "REFUSE") if hasattr(module(name), t)]
        assert not kept, f"{name}'s model states {kept}: test data, kept in tests/browser/asks.py"


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
