"""Quizzes in the browser: a real radio group worked by keyboard and touch, feedback for the
choice made in a live region, answers kept across visits, check boxes with a Check button, and
the whole quiz readable without JavaScript. axe finds nothing serious."""
from __future__ import annotations

import pytest

from tests.builder.test_quiz import GOOD

from .conftest import expect, serious_violations

PAGE = GOOD + "\n" + GOOD.split("\n", 2)[2].replace("quiz | weights-sum", "quiz | several").replace(
    "answer: a", "answer: [a, b]")


@pytest.fixture(scope="module")
def url(scratch_page) -> str:
    return scratch_page(PAGE)


def test_keyboard_choice_shows_its_explanation_and_is_kept(new_context, url):
    page = new_context().new_page()
    page.goto(url)
    quiz = page.locator('[data-quiz="weights-sum"]')
    group = quiz.locator("fieldset")
    expect(group).to_have_accessible_name("What do the weights of one row add up to? Choose one answer.")
    radios = quiz.get_by_role("radio")
    radios.first.focus()
    page.keyboard.press("ArrowDown")  # moves to and selects choice b, as a radio group does
    expect(radios.nth(1)).to_be_checked()
    feedback = quiz.get_by_role("status")
    expect(feedback).to_contain_text("Not quite: That is a hard arg-max.")
    assert quiz.get_attribute("data-state") == "wrong"
    page.keyboard.press("ArrowUp")
    expect(feedback).to_contain_text("Right: Softmax divides each exponential by their total.")
    assert quiz.get_attribute("data-state") == "right"
    page.reload()
    expect(quiz.get_by_role("radio").first).to_be_checked()  # kept locally
    expect(quiz.get_by_role("status")).to_contain_text("Right:")


def test_several_answers_are_checked_with_a_button_by_touch(new_context, url):
    page = new_context(has_touch=True).new_page()
    page.goto(url)
    quiz = page.locator('[data-quiz="several"]')
    check = quiz.get_by_role("button", name="Check")
    boxes = quiz.get_by_role("checkbox")
    boxes.first.tap()
    check.tap()
    expect(quiz.get_by_role("status")).to_contain_text("Not yet: 2 choices are right.")
    quiz.locator("label").nth(1).tap()
    check.tap()
    expect(quiz.get_by_role("status")).to_contain_text("Right.")
    assert quiz.get_attribute("data-state") == "right"


def test_without_javascript_every_explanation_is_on_the_page(new_context, url):
    page = new_context(java_script_enabled=False).new_page()
    page.goto(url)
    quiz = page.locator('[data-quiz="weights-sum"]')
    expect(quiz.get_by_role("radio")).to_have_count(2)
    quiz.locator("summary").click()
    expect(quiz.locator(".quiz-answers")).to_contain_text("Right: They add up to")
    expect(quiz.locator(".quiz-answers")).to_contain_text("Not quite: The largest is always <1>.")
    expect(page.locator('[data-quiz="several"] .quiz-check')).to_be_hidden()


@pytest.mark.parametrize("width", [1200, 375])
def test_no_serious_accessibility_violations_and_no_overflow(new_context, url, width):
    page = new_context(viewport={"width": width, "height": 800}).new_page()
    page.goto(url)
    page.locator('[data-quiz="weights-sum"]').get_by_role("radio").first.check()
    assert serious_violations(page) == []
    assert page.evaluate("document.documentElement.scrollWidth") <= width
