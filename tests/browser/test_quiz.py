"""Quizzes in the browser: a real radio group worked by keyboard (arrows browse, Space or Enter
answers) and by one tap or click, feedback for the choice made in a live region saying its verdict
once, answers kept across visits, check boxes with a Check button, and the whole quiz readable
without JavaScript. axe finds nothing serious."""
from __future__ import annotations

import pytest

from tests.builder.test_quiz import GOOD

from .conftest import expect, serious_violations

QUIZ = GOOD.split("\n", 2)[2]  # GOOD's quiz, without the page's heading
PAGE = "\n".join([
    GOOD,
    QUIZ.replace("quiz | weights-sum", "quiz | several").replace("answer: a", "answer: [a, b]"),
    QUIZ.replace("quiz | weights-sum", "quiz | own-verdict").replace("a: Softmax", "a: Right. Softmax").replace(
        "b: That is a hard arg-max.", "b: 'Not quite: That is a hard arg-max.'"),  # explanations saying their verdict
])
BROWSING = "Not answered yet: press Space or Enter to answer with this choice."


@pytest.fixture(scope="module")
def url(scratch_page) -> str:
    return scratch_page(PAGE)


def kept(page, quiz_id: str) -> dict:
    """What the browser keeps for a quiz of the page (store.js), by kind: {"answer": "b", "first": "wrong"}."""
    return page.evaluate("""(id) => Object.fromEntries(Object.keys(localStorage)
        .filter((k) => k.endsWith(":01-scratch.html:" + id)).map((k) => [k.split(":").at(-3), localStorage.getItem(k)]))""",
                         quiz_id)


def test_arrow_keys_browse_and_space_or_enter_answers(new_context, url):
    """Issue 49: an arrow key selected the next choice and kept it as a wrong first answer."""
    page = new_context().new_page()
    page.goto(url)
    quiz = page.locator('[data-quiz="weights-sum"]')
    expect(quiz.locator("fieldset")).to_have_accessible_name("What do the weights of one row add up to? Choose one answer.")
    radios, feedback = quiz.get_by_role("radio"), quiz.get_by_role("status")
    radios.first.focus()
    page.keyboard.press("ArrowDown")  # moves to and selects choice b, as a radio group does, and no more
    expect(radios.nth(1)).to_be_checked()
    expect(feedback).to_have_text(BROWSING)
    assert kept(page, "weights-sum") == {} and quiz.get_attribute("data-state") is None
    page.keyboard.press("Space")
    expect(feedback).to_have_text("Not quite: That is a hard arg-max.")
    assert quiz.get_attribute("data-state") == "wrong"
    page.keyboard.press("ArrowUp")
    expect(feedback).to_have_text(BROWSING)
    page.keyboard.press("Enter")
    expect(feedback).to_have_text("Right: Softmax divides each exponential by their total.")
    expect(radios.first).to_be_focused()
    assert kept(page, "weights-sum") == {"answer": "a", "first": "wrong"}
    page.reload()
    expect(quiz.get_by_role("radio").first).to_be_checked()  # kept locally
    expect(quiz.get_by_role("status")).to_contain_text("Right:")


def test_one_tap_or_click_answers(new_context, url):
    """Browsing by keys must not cost a touch or mouse reader a second step."""
    page = new_context(has_touch=True).new_page()
    page.goto(url)
    quiz = page.locator('[data-quiz="weights-sum"]')
    quiz.locator("label").nth(1).tap()
    expect(quiz.get_by_role("status")).to_have_text("Not quite: That is a hard arg-max.")
    quiz.get_by_role("radio").first.click()
    expect(quiz.get_by_role("status")).to_have_text("Right: Softmax divides each exponential by their total.")
    assert kept(page, "weights-sum") == {"answer": "a", "first": "wrong"}


def test_feedback_says_its_verdict_once(new_context, url):
    """Issue 49: an explanation that begins with its verdict was given the page's too ("Right: Right.")."""
    page = new_context().new_page()
    page.goto(url)
    quiz = page.locator('[data-quiz="own-verdict"]')
    quiz.get_by_role("radio").first.check()
    expect(quiz.get_by_role("status")).to_have_text("Right: Softmax divides each exponential by their total.")
    quiz.get_by_role("radio").nth(1).check()
    expect(quiz.get_by_role("status")).to_have_text("Not quite: That is a hard arg-max.")


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
