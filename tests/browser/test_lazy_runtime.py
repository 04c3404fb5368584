"""Nothing fetched for nothing. Python only where it can be used: the pages that fetch Python are
exactly the chapters with a live figure ([data-live]) or an exercise, each read to the end with every
figure used; on the others no Pyodide file is requested, no worker starts, not even the runtime's
module loads, and they carry no runtime status line. And a chapter's first screen fetches no quiz,
exercise, offline service worker or fallback drawing it does not show (figure views: test_figures.py)."""
from __future__ import annotations

from .conftest import chapter_pages, expect

RUNTIME_FILES = ("/pyodide/", "/runtime/worker.js", "/runtime/runtime.js")


def test_python_is_fetched_exactly_where_a_figure_or_an_exercise_can_use_it(new_context, base_url, site):
    context = new_context(viewport={"width": 1200, "height": 800})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    requests: list[str] = []
    page.on("request", lambda r: requests.append(r.url))  # aborted ones too
    page.route("**/pyodide/**", lambda route: route.abort())  # asked for is all this test needs: no boot
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


FIRST_SCREEN = {"width": 412, "height": 823}  # Lighthouse's mobile screen
FETCHED = "() => performance.getEntriesByType('resource').map((e) => new URL(e.name).pathname)"


def test_the_first_screen_fetches_no_quiz_exercise_offline_worker_or_drawing_it_does_not_show(open_chapter, base_url):
    """Chapter 9 opens with figures near its first screen (a displayed lazy image that close is
    fetched at once) and has its quiz, its exercise and the footer's "Save for offline" far below.
    None of their code, nor sw.js, nor any fallback drawing (the views draw from embedded data) is
    fetched until the reader comes near it; then each loads and works."""
    chapter = open_chapter(base_url + "09-learning-to-look.html", viewport=FIRST_SCREEN)
    page = chapter.page
    page.wait_for_load_state("networkidle")
    page.evaluate("() => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 300)))")
    top = lambda selector: page.eval_on_selector(selector, "e => e.getBoundingClientRect().top")
    height = FIRST_SCREEN["height"]
    assert top("[data-figure]") < height + 1250, "precondition: a figure within Chromium's lazy-image distance"
    assert min(top("[data-quiz]"), top("[data-exercise]"), top("footer")) > 3 * height, "precondition: all far below"
    registered = "() => navigator.serviceWorker.getRegistration().then((r) => Boolean(r))"  # sw.js fetched
    fetched = page.evaluate(FETCHED)
    late = ("/quiz.js", "/exercise.js", "/grader.js", "/editor.js")
    assert not [p for p in fetched if p.endswith(late) or p.startswith("/figures/")], fetched
    assert not page.evaluate(registered), "the offline service worker registered with the first screen"

    quiz = page.locator("[data-quiz]").first
    quiz.scroll_into_view_if_needed()
    quiz.locator(".quiz-choice input").first.check()
    expect(quiz.locator(".quiz-feedback")).not_to_be_empty()
    exercise = page.locator("[data-exercise]").first
    exercise.scroll_into_view_if_needed()
    expect(exercise.locator(".cm-content")).to_be_visible()
    page.locator("footer").scroll_into_view_if_needed()
    expect(page.locator("[data-offline-note]")).to_contain_text(" MB")
    assert page.evaluate(registered)
    fetched = page.evaluate(FETCHED)
    assert all(any(p.endswith(name) for p in fetched) for name in late), fetched
    assert not [p for p in fetched if p.startswith("/figures/")], "a fallback drawing fetched where a view drew"
    assert chapter.page_errors == []
