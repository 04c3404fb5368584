"""The dev server's live reload in a page (a `build.py serve` build, under the pages' policy):
a failed build shows its error over the page, the next good build removes it and reloads."""
from __future__ import annotations

import pytest

from builder.serve import _Reloader, static_server

from .conftest import CHAPTER, ROOT, expect

ERROR = "content/04-scores-to-weights.md:57: figure 'softmax-temperature': unknown option 'temprature'"


@pytest.fixture(scope="module")
def serve_site(tmp_path_factory):
    """A build as `serve` makes it, served with a reloader the test drives."""
    from builder.build import Paths, build

    out = tmp_path_factory.mktemp("serve-site") / "dist"
    build(Paths.at(ROOT), out, live_reload=True)
    reloader = _Reloader()
    server = static_server(out, reloader=reloader)
    yield f"http://127.0.0.1:{server.server_address[1]}/", reloader
    server.shutdown()
    server.server_close()


def test_a_failed_build_shows_over_the_page_and_a_good_one_reloads_it(new_context, serve_site):
    url, reloader = serve_site
    page = new_context(bypass_csp=False).new_page()
    violations: list[str] = []
    page.on("console", lambda m: violations.append(m.text) if "Content Security Policy" in m.text else None)
    page.goto(url + CHAPTER)
    overlay = page.locator("[data-build-error]")
    expect(overlay).to_have_count(0)
    page.evaluate("window.__beforeReload = true")

    reloader.failed(ERROR + " <b>not markup</b>")
    expect(overlay).to_be_visible()
    expect(overlay).to_contain_text(ERROR + " <b>not markup</b>")  # shown as text, never as HTML
    assert overlay.get_attribute("role") == "alert"
    assert page.evaluate("window.__beforeReload") is True  # a failed build does not reload

    with page.expect_navigation():
        reloader.built()
    page.wait_for_load_state("load")
    assert page.evaluate("window.__beforeReload") is None
    expect(overlay).to_have_count(0)
    assert violations == []
