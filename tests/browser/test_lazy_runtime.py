"""Python only where it is used: a chapter without a live figure ([data-live]) or an exercise never
requests a Pyodide file or starts a worker, even read to the end with every figure used."""
from __future__ import annotations

from .conftest import chapter_pages, expect


def _pages_without_python(site) -> list[str]:
    return [p for p in chapter_pages() if "data-python" not in (site / p).read_text()]


def test_pages_without_a_live_figure_fetch_no_runtime(new_context, base_url, site):
    pages = _pages_without_python(site)
    assert pages, "every chapter uses Python: nothing to check"
    context = new_context(viewport={"width": 1200, "height": 800})
    requests: list[str] = []
    context.on("request", lambda r: requests.append(r.url))
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    for name in pages:
        page.goto(base_url + name)
        figures = page.locator("[data-figure]")
        assert figures.count() and page.locator("[data-figure][data-live]").count() == 0, name
        for fig in figures.all():
            expect(fig).to_have_attribute("data-state", "prerendered")
            control = fig.locator("[data-key-control]").first
            control.scroll_into_view_if_needed()
            control.focus()
            control.press(control.get_attribute("data-key-control"))
        page.wait_for_timeout(300)  # long enough for a start that waits a frame and a task
        status = page.locator("[data-runtime-status]")
        assert status.get_attribute("data-state") == "idle", name
        assert "needs no Python" in status.text_content(), name
    runtime = [u for u in requests if "/pyodide/" in u or u.endswith("/worker.js") or "/py/" in u]
    assert runtime == [], runtime
    assert errors == []
