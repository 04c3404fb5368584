"""The engine in real Pyodide when the site was built without pyodide-build (no Python >= 3.12):
the lock ships untouched and the worker loads the engine wheel by its URL, numpy by name. Needs a
Pyodide distribution with numpy (ATTN_PYODIDE_DIST), since no machine we build on reaches the CDN."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.site_layout import shipped_lock

from .conftest import CHAPTER, ROOT, SETTLE_MS, expect, pyodide_kit


@pytest.fixture(scope="module")
def by_url(tmp_path_factory, serve_folder) -> tuple[str, Path]:
    dist = pyodide_kit()  # skips, saying why, without one (fails instead where ATTN_REQUIRE_LIVE is set)
    from dataclasses import replace

    from builder import lockfile
    from builder.build import Paths, build

    out = tmp_path_factory.mktemp("browser-site-by-url") / "dist"
    paths = replace(Paths.at(ROOT), pyodide_cli=out.parent / "no-venv-pyodide" / "pyodide")
    with pytest.MonkeyPatch.context() as mp:  # as on a machine where dev.py found no Python >= 3.12
        mp.delenv("ATTN_PYODIDE_CLI", raising=False)
        site = build(paths, out, pyodide_dist=dist)
    assert site.notes == [lockfile.WITHOUT]
    return serve_folder(out), out


def test_the_engine_loads_by_its_url_and_figures_go_live(open_chapter, by_url):
    url, out = by_url
    config = json.loads((out / "runtime.json").read_text())
    assert "attention-engine" not in json.loads(shipped_lock(out).read_text())["packages"]
    chapter = open_chapter(url + CHAPTER, pyodide=True)
    wheels = []
    chapter.page.on("request", lambda r: wheels.append(r.url) if r.url.endswith(".whl") else None)
    chapter.wait_prerendered()
    chapter.start_runtime()
    status = chapter.wait_settled(timeout=SETTLE_MS)
    assert status["state"] == "ready", status
    assert any(w.endswith("/" + config["indexURL"] + config["engineWheel"]) for w in wheels), wheels
    figure = chapter.figure("softmax-temperature")  # a score of the reader's own: the engine recomputes it
    before = chapter.numbers("softmax-temperature")
    figure.locator("g.score-bar").last.press("ArrowDown")
    expect(figure).to_have_attribute("data-state", "live", timeout=30_000)
    assert chapter.numbers("softmax-temperature") != before
    assert chapter.cdn_requests == []
