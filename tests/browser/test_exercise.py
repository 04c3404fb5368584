"""Exercises in the browser: the reader's code runs in a grader worker of its own (the engine on
CPython behind the stand-in), every result state shows, a runaway loop is stopped and the next Run
works, code is kept and reset, hints and the solution appear when they should, the keyboard reaches
everything, and without JavaScript or Python the exercise still reads whole."""
from __future__ import annotations

import pytest

from tests.builder.test_exercise import GOOD

from .conftest import NO_WORKERS, REFUSE_PYODIDE, expect, live_routes, serious_violations, type_code

RIGHT = ("def softmax(x):\n    e = np.exp(x - x.max(axis=-1, keepdims=True))\n"
         "    return e / e.sum(axis=-1, keepdims=True)\n")


@pytest.fixture(scope="module")
def url(scratch_page) -> str:
    return scratch_page(GOOD)


@pytest.fixture
def exercise(open_chapter, url):
    chapter = open_chapter(url, routes=live_routes())
    section = chapter.page.locator('[data-exercise="softmax"]')
    expect(section.locator(".cm-content")).to_be_visible()
    return chapter, section



def _run(section, state: str):
    section.get_by_role("button", name="Run").click()
    result = section.locator("[data-exercise-result]")
    expect(result).to_have_attribute("data-state", state, timeout=20_000)
    return result


def test_wrong_then_right(exercise):
    chapter, section = exercise
    solution = section.locator(".exercise-solution")
    expect(solution).to_be_hidden()  # revealed after trying
    result = _run(section, "failed")
    expect(result).to_contain_text("Each row should sum to 1")
    expect(result).to_contain_text("First failing case: x = [1., 2., 3.]")
    expect(solution).to_be_visible()
    type_code(section, RIGHT.replace("x - x.max(axis=-1, keepdims=True)", "x"))
    expect(_run(section, "failed")).to_contain_text("overflow")
    type_code(section, RIGHT)
    expect(_run(section, "passed")).to_contain_text("All cases pass")


def test_a_worker_that_cannot_start_is_a_verdict_not_a_page_error(open_chapter, url):
    """As where a browser refuses the grader's worker: the Run says so, and the page carries on."""
    chapter = open_chapter(url, init_script=NO_WORKERS)
    section = chapter.page.locator('[data-exercise="softmax"]')
    expect(section.locator(".cm-content")).to_be_visible()
    expect(_run(section, "error")).to_contain_text("Your code cannot run here: The Python worker could not start: workers are off in this browser")


def test_a_python_error_names_the_line_of_the_readers_code(exercise):
    _, section = exercise
    type_code(section, "def softmax(x):\n    y = x\n    return y / missing\n")
    expect(_run(section, "error")).to_contain_text("softmax raised an error (line 3): NameError")


def test_a_runaway_loop_is_stopped_and_the_next_run_works(exercise):
    chapter, section = exercise
    type_code(section, "def softmax(x):\n    while True:\n        pass\n")
    expect(_run(section, "timeout")).to_contain_text("Stopped after 5 seconds")
    type_code(section, RIGHT)
    _run(section, "passed")


def test_code_is_kept_and_reset_restores_the_starter(exercise):
    chapter, section = exercise
    type_code(section, "def softmax(x):\n    return x * 2\n")
    chapter.page.reload()
    section = chapter.page.locator('[data-exercise="softmax"]')
    expect(section.locator(".cm-content")).to_contain_text("return x * 2")
    section.get_by_role("button", name="Reset").click()
    expect(section.locator(".cm-content")).to_contain_text("# exp, then divide by the total of the last axis")
    expect(section.locator("[data-exercise-result]")).to_have_attribute("data-state", "idle")


def test_hints_come_one_at_a_time(exercise):
    _, section = exercise
    hint = section.get_by_role("button", name="Show a hint")
    hints = section.locator(".exercise-hints li")
    hint.click()
    expect(hints.nth(0)).to_be_visible()
    expect(hints.nth(1)).to_be_hidden()
    hint.click()
    expect(hints.nth(1)).to_be_visible()
    expect(hint).to_be_disabled()


def test_the_keyboard_reaches_the_editor_and_leaves_it(exercise):
    chapter, section = exercise
    editor = section.locator(".cm-content")
    editor.focus()
    page = chapter.page
    page.keyboard.press("Control+End")
    page.keyboard.press("Enter")
    page.keyboard.press("Tab")  # indents inside the editor
    page.keyboard.insert_text("42")
    expect(editor).to_contain_text("    42")
    page.keyboard.press("Escape")  # closes the completion typing started (it may have found nothing to list)
    page.keyboard.press("Escape")
    page.keyboard.press("Tab")  # leaves the editor
    expect(section.get_by_role("button", name="Run")).to_be_focused()
    page.keyboard.press("Enter")
    expect(section.locator("[data-exercise-result]")).not_to_have_attribute("data-state", "idle")


def test_without_javascript_task_starter_hints_and_solution_read(new_context, url):
    page = new_context(java_script_enabled=False).new_page()
    page.goto(url)
    section = page.locator('[data-exercise="softmax"]')
    expect(section.locator(".exercise-starter")).to_contain_text("def softmax(x):")
    expect(section.get_by_role("button", name="Run")).to_be_hidden()
    section.locator(".exercise-solution summary").click()
    expect(section.locator(".exercise-answer")).to_contain_text("x.max(axis=-1, keepdims=True)")


def test_opened_from_a_file_it_says_why_it_cannot_run(new_context, tmp_path):
    from builder.build import build

    from tests.builder.helpers import one_chapter_site, paths_for

    build(paths_for(one_chapter_site(tmp_path / "content", GOOD)), tmp_path / "dist", pyodide_dist=None)
    page = new_context().new_page()
    page.goto((tmp_path / "dist" / "01-test.html").as_uri())
    result = page.locator("[data-exercise-result]")
    expect(result).to_have_attribute("data-state", "error")
    expect(result).to_contain_text("Your code cannot run here: opened as a file")
    expect(page.locator(".exercise-starter")).to_contain_text("def softmax(x):")
    expect(page.get_by_role("button", name="Run")).to_be_hidden()


@pytest.mark.parametrize("width", [1200, 375])
def test_axe_and_narrow_screens(new_context, url, width):
    page = new_context(viewport={"width": width, "height": 800}).new_page()
    page.route(*REFUSE_PYODIDE)  # the grader's Python: not what is read here
    page.goto(url)
    expect(page.locator(".cm-content")).to_be_visible()
    assert serious_violations(page) == []
    assert page.evaluate("document.documentElement.scrollWidth") <= width


def test_the_editor_and_a_run_break_no_content_security_policy(csp_visit, url):
    """CodeMirror styles itself in a shadow root (constructed style sheets), never with <style>."""
    visit = csp_visit(url, 1200, routes=live_routes())
    section = visit.page.locator('[data-exercise="softmax"]')
    expect(section.locator(".cm-content")).to_be_visible()
    section.get_by_role("button", name="Run").click()
    expect(section.locator("[data-exercise-result]")).to_have_attribute("data-state", "failed", timeout=20_000)
    assert visit.violations() == []
