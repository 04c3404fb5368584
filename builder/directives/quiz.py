"""`/// quiz | id`: a question with choices, the right one(s), and why for every choice.

    /// quiz | weights-sum
        choices:
          a: They add up to 1.
          b: The largest is always 1.
        answer: a
        explain:
          a: Right. Softmax divides each exponential by their total.
          b: That is the arg-max; softmax keeps every share above 0.

    What do the weights of one row of attention add up to?
    ///

The question is the block's Markdown; choices and explanations are Markdown too (one paragraph
each, math allowed). The page reads the same without JavaScript: a real radio group (check boxes
when `answer` lists several) and every explanation in a closed disclosure. theme/js/quiz.js adds
the feedback for the choice made, in a live region, and keeps the reader's answers locally.
"""
from __future__ import annotations

import html
import re


from ..errors import BuildError, clip
from ..links import LinkError
from ..math import MathError
from .common import Rendered, SectionBlock, check_unique, inline_html

NAME = "quiz"
RE_ID = re.compile(r"^[a-z0-9][a-z0-9-]{0,59}$")
RE_CHOICE = re.compile(r"^[a-z0-9]{1,8}$")
OPTIONS = ("choices", "answer", "explain")
MAX_CHOICES = 8
MAX_TEXT = 1_000  # characters in one choice or explanation


def _error(use, path, option: str, message: str) -> BuildError:
    return BuildError(path, use.option_lines.get(option, use.line), f"quiz '{use.argument}': {message}")


def _text(use, path, option: str, key, value) -> str:
    if not isinstance(value, (str, int, float)) or isinstance(value, bool) or not str(value).strip():
        raise _error(use, path, option, f"{option} '{key}' must be text, not {clip(repr(value), 40)}")
    if len(str(value)) > MAX_TEXT:
        raise _error(use, path, option, f"{option} '{key}' has {len(str(value))} characters (at most {MAX_TEXT})")
    return str(value)


def validate(use, path):
    """The id, the choices, the right answer(s) among them and an explanation for every choice."""
    if not use.argument or not RE_ID.match(use.argument):
        raise BuildError(path, use.line, "a quiz needs an id of lower-case letters, digits and '-': "
                                         f"'/// quiz | softmax-sum', not '{clip(use.argument, 40)}'")
    unknown = [k for k in use.options if k not in OPTIONS]
    if unknown:
        raise _error(use, path, str(unknown[0]), f"unknown option '{clip(str(unknown[0]), 40)}' (allowed: {', '.join(OPTIONS)})")
    for option in OPTIONS:
        if option not in use.options:
            raise _error(use, path, option, f"needs '{option}'")
    choices, explain = use.options["choices"], use.options["explain"]
    for option, value in (("choices", choices), ("explain", explain)):
        if not isinstance(value, dict):
            raise _error(use, path, option, f"'{option}' must map each choice's id to its text")
    choices = {str(k): v for k, v in choices.items()}  # YAML reads `1:` as a number
    explain = {str(k): v for k, v in explain.items()}
    if not 2 <= len(choices) <= MAX_CHOICES:
        raise _error(use, path, "choices", f"needs 2 to {MAX_CHOICES} choices, not {len(choices)}")
    for key, value in choices.items():
        if not RE_CHOICE.match(key):
            raise _error(use, path, "choices", f"choice id '{clip(key, 20)}' must be 1 to 8 lower-case letters or digits")
        _text(use, path, "choices", key, value)
    answer = use.options["answer"]
    answers = answer if isinstance(answer, list) else [answer]
    if not answers or any(str(a) not in choices for a in answers) or len(set(map(str, answers))) < len(answers):
        raise _error(use, path, "answer", f"answer must name one or more different choices ({', '.join(map(str, choices))}), "
                                          f"not {clip(repr(answer), 40)}")
    missing = [k for k in choices if k not in explain]
    extra = [k for k in explain if k not in choices]
    if missing or extra:
        what = f"no explanation for choice '{missing[0]}'" if missing else f"explanation for unknown choice '{clip(extra[0], 20)}'"
        raise _error(use, path, "explain", f"{what}: every choice needs one, saying why it is right or which mistake it reflects")
    for key, value in explain.items():
        _text(use, path, "explain", key, value)
    if not use.has_body:
        raise BuildError(path, use.line, f"quiz '{use.argument}' needs its question as Markdown after the options")


def render(use, path) -> Rendered:
    """The part of the quiz after its question, as HTML (the block renders the question)."""
    qid = use.argument
    choices = {str(k): v for k, v in use.options["choices"].items()}
    explain = {str(k): v for k, v in use.options["explain"].items()}
    answer = use.options["answer"]
    right = {str(a) for a in (answer if isinstance(answer, list) else [answer])}
    kind = "checkbox" if isinstance(answer, list) else "radio"
    rendered = {}
    for option, texts in (("choices", choices), ("explain", explain)):
        try:
            rendered[option] = {k: inline_html(str(v)) for k, v in texts.items()}
        except (MathError, LinkError) as err:
            raise _error(use, path, option, str(err)) from None
    choice_html, why_html = rendered["choices"], rendered["explain"]
    esc = html.escape
    items = "".join(
        f'<li class="quiz-choice"><input type="{kind}" name="quiz-{esc(qid)}" id="quiz-{esc(qid)}-{esc(k)}" '
        f'value="{esc(k)}"><label for="quiz-{esc(qid)}-{esc(k)}">{choice_html[k]}</label></li>'
        for k in choices)
    hint = "Choose every answer that applies." if kind == "checkbox" else "Choose one answer."
    why = "".join(
        f'<li data-choice="{esc(k)}" data-right="{str(k in right).lower()}"><span class="quiz-verdict">'
        f'{"Right" if k in right else "Not quite"}:</span> <span class="quiz-chosen">{choice_html[k]}</span> '
        f'<span class="quiz-why">{why_html[k]}</span></li>'
        for k in choices)
    body = (
        f'<fieldset class="quiz-choices" aria-labelledby="quiz-{esc(qid)}-question quiz-{esc(qid)}-hint">'
        f'<legend class="quiz-hint" id="quiz-{esc(qid)}-hint">{hint}</legend><ul>{items}</ul></fieldset>'
        f'<div class="quiz-actions"><button type="button" class="quiz-check primary" hidden>Check</button></div>'
        f'<p class="quiz-feedback" role="status" aria-live="polite"></p>'
        f'<details class="quiz-answers"><summary>Answers and why</summary><ul>{why}</ul></details>'
    )
    return Rendered(qid, use.line, body)


def check_page(uses, path) -> None:
    check_unique(uses, path, NAME, "a quiz's id names the reader's saved answers and its elements")


class Block(SectionBlock):
    """The block's Markdown is the question; the label says "Question" and names the section."""

    NAME = NAME
    OPTION_NAMES = OPTIONS
    OWN = LABELLED_BY = "question"

    def label(self, el, argument):
        el.text = "Question"
