"""A deploy is atomic for readers: two builds served in turn as GitHub Pages serves them (every file
cached for ten minutes, one origin, a project sub-path), and a reader who had a page of the first
open reloads it and moves on after the second replaced it. Every response the pages use then must
be the second build's bytes: a script, view, stylesheet, lock or wheel kept from the first build's
cache would run old code against new data (what content-addressed folders prevent:
builder/build.py address_assets, package_runtime). Real Pyodide with real numpy: the lock and the
engine's wheel are what broke first."""
from __future__ import annotations

import shutil
from dataclasses import replace
from email.utils import formatdate
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Error as PlaywrightError

from tests.builder.helpers import paths_for
from tests.pages_host import PagesHost

from .conftest import ROOT, SETTLE_MS, expect, pyodide_kit

LIVE = """# Live

/// figure | softmax-temperature
A figure Python recomputes.
///
"""
NEXT = "# Next\n\nA second page, never opened before the deploy.\n"


def _content(folder):
    folder.mkdir(parents=True)
    (folder / "site.toml").write_text('[site]\ntitle = "Deploys"\n\n[[chapters]]\nfile = "01-live.md"\n\n'
                                      '[[chapters]]\nfile = "02-next.md"\n')
    (folder / "01-live.md").write_text(LIVE)
    (folder / "02-next.md").write_text(NEXT)
    return folder


def _changed_copy(src, dest, edits):
    """A copy of a source folder with a line added to some of its files: a new build of them."""
    shutil.copytree(src, dest, ignore=shutil.ignore_patterns("__pycache__"))
    for rel, line in edits.items():
        with open(dest / rel, "a") as f:
            f.write(line)
    return dest


@pytest.fixture(scope="module")
def two_builds(tmp_path_factory):
    from builder.build import build

    dist = pyodide_kit()
    tmp = tmp_path_factory.mktemp("deploys")
    paths = paths_for(_content(tmp / "content"))
    build(paths, tmp / "first", pyodide_dist=dist)
    theme = _changed_copy(ROOT / "theme", tmp / "theme", {
        "js/figures.js": "\n// second build\n", "figures/softmax-temperature.js": "\n// second build\n",
        "runtime/worker.js": "\n// second build\n", "css/site.css": "\n/* second build */\n"})
    engine = _changed_copy(ROOT / "engine", tmp / "engine", {"__init__.py": "\n# second build\n"})
    build(replace(paths, theme=theme, engine=engine), tmp / "second", pyodide_dist=dist)
    host = PagesHost(tmp)
    yield host, tmp / "first", tmp / "second"
    host.close()


def _go_live(page):
    """The live figure recomputed by Python, as a reader's first change does it."""
    figure = page.locator('[data-figure="softmax-temperature"]')
    figure.scroll_into_view_if_needed()
    expect(figure).to_have_attribute("data-state", "prerendered")
    figure.locator("g.score-bar").last.press("ArrowDown")
    expect(figure).to_have_attribute("data-state", "live", timeout=SETTLE_MS)


def _not_from(build, base, responses) -> list[str]:
    """The responses that are not the file of their path in `build`: by their bytes, or where the
    browser kept none (WebAssembly compiled as it streamed in) by the size and date the server sent,
    which name one build's file (each build writes its files anew)."""
    stale = []
    for response in responses:
        rel = urlsplit(response.url).path.removeprefix(urlsplit(base).path)
        new = build / rel
        if response.status != 200 or not new.is_file():
            stale.append(f"{rel} ({response.status})")
            continue
        try:
            same = response.body() == new.read_bytes()
        except PlaywrightError:
            headers = response.all_headers()
            same = (headers.get("content-length") == str(new.stat().st_size)
                    and headers.get("last-modified") == formatdate(new.stat().st_mtime, usegmt=True))
        if not same:
            stale.append(rel)
    return stale


def test_after_a_deploy_a_reload_and_a_move_use_only_the_new_build(new_context, two_builds):
    host, first, second = two_builds
    base = host.deploy("repo", first)
    context = new_context(service_workers="block")  # the HTTP cache alone: what a reader who never saved for offline has
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda err: errors.append(str(err)))
    page.goto(base + "01-live.html")
    _go_live(page)

    host.deploy("repo", second)
    used = []
    context.on("response", lambda r: used.append(r) if r.url.startswith(base) else None)
    page.reload()
    _go_live(page)
    checked = len(used)
    stale = _not_from(second, base, used[:checked])  # read now: a response's body is gone once its page is left
    page.locator("a[rel=next]").click()
    expect(page).to_have_url(base + "02-next.html")
    expect(page.locator("h1")).to_have_text("Next")
    stale += _not_from(second, base, used[checked:])
    assert {urlsplit(r.url).path.removeprefix("/repo/") for r in used} >= {"01-live.html", "02-next.html"}
    assert not stale, f"responses that are not the new build's: {stale}"
    assert not errors, errors
