"""Python only where it can be used: the pages that fetch Python are exactly the chapters with a
live figure ([data-live]) or an exercise, each read to the end with every figure used; on the
others no Pyodide file is requested, no worker starts, not even the runtime's module loads, and they
carry no runtime status line."""
from __future__ import annotations

from .conftest import chapter_pages, expect

RUNTIME_FILES = ("/pyodide/", "/runtime/worker.js", "/runtime/runtime.js")


def test_python_is_fetched_exactly_where_a_figure_or_an_exercise_can_use_it(new_context, base_url, site):
    context = new_context(viewport={"width": 1200, "height": 800})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    requests: list[str] = []
    page.on("request", lambda r: requests.append(r.url))
    fetched, expected = set(), set()
    for name in chapter_pages():
        requests.clear()
        page.goto(base_url + name)
        if page.locator("[data-figure][data-live], [data-exercise]").count():
            expected.add(name)
        for fig in page.locator("[data-figure]").all():
            fig.scroll_into_view_if_needed()  # its view loads as it nears the screen, maybe while Python boots
            expect(fig).to_have_attribute("data-state", "prerendered", timeout=15_000)
            control = fig.locator("[data-key-control]").first
            control.scroll_into_view_if_needed()
            control.focus()
            control.press(control.get_attribute("data-key-control"))
        for exercise in page.locator("[data-exercise]").all():
            exercise.scroll_into_view_if_needed()  # in view: its grader's Python starts
        page.wait_for_timeout(500)  # long enough for a start that waits a frame and a task
        if any(part in url for url in requests for part in RUNTIME_FILES):
            fetched.add(name)
        if not page.locator("[data-figure][data-live]").count():
            assert page.locator("[data-runtime-status]").count() == 0, f"{name}: a status line about Python it never starts"
    assert expected and expected != set(chapter_pages()), "every chapter or none uses Python: nothing to tell apart"
    assert fetched == expected
    assert errors == []
