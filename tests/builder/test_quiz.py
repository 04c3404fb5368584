"""The quiz directive: what a page holds without JavaScript, and one `path:line` error per mistake."""
from __future__ import annotations

import re

import pytest


from .helpers import assert_one_error, build_one_chapter

GOOD = """\
# Quizzes

/// quiz | weights-sum
    choices:
      a: They add up to $1$.
      b: The largest is always <1>.
    answer: a
    explain:
      a: Softmax divides each exponential by their *total*.
      b: That is a hard arg-max.

What do the weights of one row add up to?
///
"""


def _build(tmp_path, markdown):
    out = build_one_chapter(tmp_path, markdown)
    return (out / "01-test.html").read_text()


def test_a_quiz_reads_whole_without_javascript(tmp_path):
    page = _build(tmp_path, GOOD)
    quiz = page[page.index('<section aria-labelledby="quiz-weights-sum-question"'):page.index("</section>")]
    assert 'data-quiz="weights-sum"' in quiz
    assert re.findall(r'<input type="radio" name="quiz-weights-sum" id="quiz-weights-sum-(\w)" value="\1">', quiz) == ["a", "b"]
    assert "<p>What do the weights of one row add up to?</p>" in quiz
    assert "<math" in quiz and "<em>total</em>" in quiz  # choices and explanations are Markdown with math
    assert "always &lt;1&gt;" in quiz  # escaped as Markdown escapes text
    assert re.search(r'<details class="quiz-answers"><summary>Answers and why</summary>.*data-choice="a" data-right="true"'
                     r'.*Right:.*data-choice="b" data-right="false".*Not quite:', quiz)
    assert 'role="status" aria-live="polite"' in quiz
    assert re.search(r'<script type="module" src="assets/[0-9a-f]{12}/js/parts.js">', page)  # it loads quiz.js as the quiz nears


def test_several_answers_make_check_boxes_and_a_check_button(tmp_path):
    page = _build(tmp_path, GOOD.replace("answer: a", "answer: [a, b]"))
    assert page.count('type="checkbox"') == 2 and 'class="quiz-check primary" hidden>Check</button>' in page
    assert "Choose every answer that applies." in page


def test_an_explanation_that_begins_with_its_verdict_is_not_given_another(tmp_path):
    page = _build(tmp_path, GOOD.replace("a: Softmax", "a: Right. Softmax").replace(
        "b: That is a hard arg-max.", "b: '**Not quite:** That is a hard arg-max.'"))
    assert re.search(r'Right:</span> <span class="quiz-chosen">.*</span> <span class="quiz-why">Softmax divides', page)
    assert re.search(r'Not quite:</span> <span class="quiz-chosen">.*</span> <span class="quiz-why">That is a hard', page)


def test_a_page_without_quizzes_loads_no_quiz_script(tmp_path):
    assert "parts.js" not in _build(tmp_path, "# Plain\n\nText.\n")



CASES = {
    "no id": (GOOD.replace("quiz | weights-sum", "quiz"), 3, "a quiz needs an id"),
    "bad id": (GOOD.replace("quiz | weights-sum", "quiz | Weights Sum"), 3, "a quiz needs an id"),
    "unknown option": (GOOD.replace("    answer: a", "    answer: a\n    hint: x"), 8, "unknown option 'hint' (allowed: choices, answer, explain)"),
    "misspelt option": (GOOD.replace("    answer: a", "    answers: a"), 7, "unknown option 'answers' (did you mean 'answer'?)"),
    "no answer": (GOOD.replace("    answer: a\n", ""), 3, "quiz 'weights-sum': needs option 'answer'"),
    "answer not a choice": (GOOD.replace("answer: a", "answer: c"), 7, "answer must name one or more different choices"),
    "repeated answer": (GOOD.replace("answer: a", "answer: [a, a]"), 7, "answer must name one or more different choices"),
    "one choice": (GOOD.replace("      b: The largest is always <1>.\n", ""), 4, "option 'choices' must have 2 to 8 items, not 1"),
    "missing explanation": (GOOD.replace("      b: That is a hard arg-max.\n", ""), 8, "no explanation for choice 'b'"),
    "explanation of nothing": (GOOD.replace("      b: That is a hard arg-max.", "      b: x\n      z: y"), 8,
                               "explanation for unknown choice 'z'"),
    "empty choice": (GOOD.replace("a: They add up to $1$.", "a: ''"), 4, "option 'choices[a]' must not be blank"),
    "choices not a mapping": (GOOD.replace("    choices:\n      a: They add up to $1$.\n      b: The largest is always <1>.",
                                           "    choices: [x, y]"), 4, "option 'choices' must be a mapping of name: value lines, not list"),
    "no question": (GOOD.replace("What do the weights of one row add up to?\n", ""), 3, "needs its question"),
    "bad math": (GOOD.replace("$1$", r"$\frac{1$"), 4, "quiz 'weights-sum'"),
    "same id twice": (GOOD + "\n" + GOOD.split("\n", 2)[2], 15, "quiz 'weights-sum' is on this page twice"),
    "choice id": (GOOD.replace("      b: The largest", "      B: The largest"), 4,
                  "option 'choices': 'B' is not a choice's id (1 to 8 lower-case letters or digits)"),
    "long choice": (GOOD.replace("They add up to $1$.", "x" * 1001), 4, "option 'choices[a]' has 1001 characters (at most 1000)"),
    "answer a mapping": (GOOD.replace("answer: a", "answer: {a: 1}"), 7, "option 'answer' must be text, not dict"),
    "verdict against the answer": (GOOD.replace("b: That is", "b: Right. That is"), 8,
                                   "explanation for choice 'b' begins 'Right', but 'b' is wrong"),
    "wrong verdict for the answer": (GOOD.replace("a: Softmax", "a: Not quite. Softmax"), 8,
                                     "explanation for choice 'a' begins 'Not quite', but 'a' is right"),
    "only a verdict": (GOOD.replace("a: Softmax divides each exponential by their *total*.", "a: Right."), 8,
                       "explanation for choice 'a' says only 'Right'"),
    "quiz in a quote": ("# Q\n\n> /// quiz | x\n>     choices: {a: 1, b: 2}\n>     answer: a\n>     explain: {a: 1, b: 2}\n>\n> Q?\n> ///\n",
                        3, "line after a quote's '>'"),
}


@pytest.mark.parametrize("case", CASES, ids=list(CASES))
def test_a_mistake_is_one_error_at_its_line(tmp_path, case):
    assert_one_error(tmp_path, *CASES[case])
