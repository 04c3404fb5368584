"""The vendored path with a stand-in numpy: everything a vendored build does that needs no numpy
code, and how a worker that cannot compute says so. Real numpy in Pyodide is test_real_python.py's."""
from __future__ import annotations

import pytest

from .conftest import CHAPTER, ROOT, SETTLE_MS, expect




@pytest.fixture(scope="module")
def stand_in_url(tmp_path_factory, serve_folder, stand_in_distribution) -> str:
    from builder.build import Paths, build

    tmp = tmp_path_factory.mktemp("browser-site-stand-in")
    out = tmp / "dist"
    build(Paths.at(ROOT), out, pyodide_dist=stand_in_distribution)
    return serve_folder(out)


def test_vendored_runtime_installs_the_engine_from_the_same_origin(open_chapter, stand_in_url):
    """With numpy vendored (here a stand-in), Python gets to "ready" without the CDN: the lock,
    the wheel and the engine all come from the site. A recompute then reaches the engine in the
    worker, which fails on the stand-in numpy and must say so while the figure keeps its data."""
    chapter = open_chapter(stand_in_url + CHAPTER, pyodide=True)
    chapter.wait_prerendered()
    chapter.start_runtime()
    status = chapter.wait_settled(timeout=SETTLE_MS)
    assert status["state"] == "ready", status
    assert chapter.stages()[-3:] == ["python", "engine", "ready"], chapter.stages()
    assert chapter.cdn_requests == []

    figure = chapter.figure("softmax-temperature")
    before = chapter.numbers("softmax-temperature")
    bar = figure.locator("g.score-bar").first
    bar.focus()
    bar.press("ArrowUp")
    note = figure.locator(".figure-note")
    expect(note).to_contain_text("Could not recompute", timeout=30_000)
    assert "Traceback" not in note.text_content() and len(note.text_content()) < 300, note.text_content()
    expect(figure).to_have_attribute("data-state", "prerendered")
    assert chapter.numbers("softmax-temperature") == before
