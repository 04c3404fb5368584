"""Nothing fetched for nothing: a chapter's first screen fetches no quiz, exercise, offline service
worker or fallback drawing it does not show (figure views: test_figures.py; Python only on the pages
that can use it: test_csp.py, which reads every page to its end with every figure used)."""
from __future__ import annotations

from .conftest import after_a_frame, expect

FIRST_SCREEN = {"width": 412, "height": 823}  # Lighthouse's mobile screen
FETCHED = "() => performance.getEntriesByType('resource').map((e) => new URL(e.name).pathname)"


def test_the_first_screen_fetches_no_quiz_exercise_offline_worker_or_drawing_it_does_not_show(open_chapter, base_url):
    """Chapter 4 opens with a figure near its first screen (a displayed lazy image that close is
    fetched at once) and has its quiz, its exercise and the footer's "Save for offline" far below.
    None of their code, nor sw.js, nor any fallback drawing (the views draw from embedded data) is
    fetched until the reader comes near it; then each loads and works."""
    chapter = open_chapter(base_url + "04-scores-to-weights.html", viewport=FIRST_SCREEN)
    page = chapter.page
    # What the first screen loads: its observers' first callbacks (a frame and a task after they
    # observe), then what those fetched (the network quiet since).
    page.wait_for_load_state("load")
    after_a_frame(page)
    page.wait_for_load_state("networkidle")
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
