"""Live figures with numpy inside Pyodide: only with a Pyodide distribution folder to vendor
numpy from (ATTN_PYODIDE_DIST), since no machine we build on can reach Pyodide's CDN."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from .conftest import CHAPTER, ROOT, SETTLE_MS, expect


@pytest.fixture(scope="module")
def vendored_url(tmp_path_factory, serve_folder) -> str:
    dist = os.environ.get("ATTN_PYODIDE_DIST")
    if not dist:
        pytest.skip("needs a Pyodide distribution folder with numpy in ATTN_PYODIDE_DIST; "
                    "none can be downloaded on this machine")
    from builder.build import Paths, build

    out = tmp_path_factory.mktemp("browser-site-vendored") / "dist"
    build(Paths.at(ROOT), out, pyodide_dist=Path(dist))
    return serve_folder(out)


def test_figures_go_live_with_vendored_numpy(open_chapter, vendored_url):
    chapter = open_chapter(vendored_url + CHAPTER)
    chapter.wait_prerendered()
    chapter.start_runtime()
    status = chapter.wait_settled(timeout=SETTLE_MS)
    assert status["state"] == "ready", status
    assert status["stage"] == "ready", status
    assert chapter.cdn_requests == [], f"a vendored build must not need the CDN: {chapter.cdn_requests}"

    # softmax-temperature: a new score is recomputed by the engine in the worker.
    figure = chapter.figure("softmax-temperature")
    data = chapter.data("softmax-temperature")
    bar = figure.locator("g.score-bar").first
    bar.focus()
    bar.press("ArrowUp")
    expect(figure).to_have_attribute("data-state", "live", timeout=30_000)
    raised = data["scores"][0] + 0.5
    expect(figure.locator("ul.figure-numbers li").first).to_contain_text(f"{data['labels'][0]} {raised:.1f}")
    expect(figure.locator(".figure-note")).to_be_hidden()

    # scaling-experiment: a new draw of random vectors is computed in the worker.
    figure = chapter.figure("scaling-experiment")
    before = chapter.numbers("scaling-experiment")
    figure.get_by_role("button", name="Draw new random vectors").click()
    expect(figure).to_have_attribute("data-state", "live", timeout=60_000)
    expect(figure.locator(".figure-note")).to_be_hidden()
    assert chapter.numbers("scaling-experiment") != before, "a new draw gave the very same numbers"
    assert chapter.status()["state"] == "ready"
    assert chapter.page_errors == []
