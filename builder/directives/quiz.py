"""`/// quiz | id`: a question with choices, the right one(s), and why for every choice.

    /// quiz | weights-sum
        choices:
          a: They add up to 1.
          b: The largest is always 1.
        answer: a
        explain:
          a: Softmax divides each exponential by their total.
          b: That is the arg-max; softmax keeps every share above 0.

    What do the weights of one row of attention add up to?
    ///

The question is the block's Markdown; choices and explanations are Markdown too (one paragraph
each, math allowed). The page says each choice's verdict ("Right:", "Not quite:"), from `answer`,
so an explanation need not: one that begins with its own ("Right. Softmax...") has it checked
against `answer` and not said twice. The page reads the same without JavaScript: a real radio group
(check boxes when `answer` lists several) and every explanation in a closed disclosure.
theme/js/quiz.js adds the feedback for the choice made, in a live region, and keeps the reader's
answers locally.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from markupsafe import Markup

from engine.figures.params import REQUIRED, ParamError, field
from ..errors import BuildError, clip
from ..links import LinkError
from ..math import MathError
from .base import Section, inline_html, option_error

RE_ID = re.compile(r"^[a-z0-9][a-z0-9-]{0,59}$")
MAX_CHOICES = 8
MAX_TEXT = 1_000  # characters in one choice or explanation
# A verdict an explanation may begin with, perhaps emphasised: "Right.", "**Not quite:**". Not "Yes" or
# "No": those may answer the question ("No: the scores are..." for a right choice "No").
RE_VERDICT = re.compile(r"^[*_]{0,2}(?:(?P<right>right|correct)|(?P<wrong>wrong|incorrect|not quite|not yet))"
                        r"[*_]{0,2}[.:;,!]+[*_]{0,2}(?:\s+|$)", re.IGNORECASE)
CHOICE_ID = (r"[a-z0-9]{1,8}", "a choice's id (1 to 8 lower-case letters or digits)")


@dataclass(frozen=True)
class Options:
    """A quiz's options, checked like a figure's (params.validate); the rules across them below."""
    choices: dict[str, str] = field(REQUIRED, length=(2, MAX_CHOICES), keys=CHOICE_ID, chars=(1, MAX_TEXT),
                                    numbers_as_text=True, doc="id -> the choice, Markdown")
    answer: str | tuple[str, ...] = field(REQUIRED, numbers_as_text=True, doc="a list: check boxes, several right")
    explain: dict[str, str] = field(REQUIRED, keys=CHOICE_ID, chars=(1, MAX_TEXT),
                                    numbers_as_text=True, doc="id -> why that choice is right or wrong")

    def __post_init__(self):
        answers = self.right
        if any(a not in self.choices for a in answers) or len(set(answers)) < len(answers) or not answers:
            raise ParamError("answer", f"answer must name one or more different choices ({', '.join(self.choices)}), "
                                       f"not {clip(repr(self.answer), 40)}")
        missing = [k for k in self.choices if k not in self.explain]
        extra = [k for k in self.explain if k not in self.choices]
        if missing or extra:
            what = f"no explanation for choice '{missing[0]}'" if missing else f"explanation for unknown choice '{extra[0]}'"
            raise ParamError("explain", f"{what}: every choice needs one, saying why it is right or which mistake it reflects")
        for k, text in self.explain.items():
            said = RE_VERDICT.match(text)
            if not said:
                continue
            verdict = said.group("right") or said.group("wrong")
            if bool(said.group("right")) != (k in answers):
                raise ParamError("explain", f"explanation for choice '{k}' begins '{verdict}', but '{k}' is "
                                            f"{'right' if k in answers else 'wrong'} (answer: {', '.join(answers)})")
            if not text[said.end():].strip():
                raise ParamError("explain", f"explanation for choice '{k}' says only '{verdict}': the page says "
                                            "each choice's verdict; say why it is right or which mistake it reflects")

    @property
    def right(self) -> tuple[str, ...]:
        return self.answer if isinstance(self.answer, tuple) else (self.answer,)

    @property
    def why(self) -> dict[str, str]:
        """Each explanation without a verdict it begins with: the page says that verdict itself."""
        return {k: RE_VERDICT.sub("", text, count=1) for k, text in self.explain.items()}


class Quiz(Section):
    """The block's Markdown is the question; the label says "Question" and names the section."""

    name, plural, Options = "quiz", "quizzes", Options
    summary = ("A question with two to eight choices, one or several right; choosing one shows why it is right "
               "or wrong, and the answers are kept in the reader's browser.")
    body = labelled_by = "question"
    unique = "a quiz's id names the reader's saved answers and its elements"

    def check_argument(self, use, path):
        if not use.argument or not RE_ID.match(use.argument):
            raise BuildError(path, use.line, "a quiz needs an id of lower-case letters, digits and '-': "
                                             f"'/// quiz | softmax-sum', not '{clip(use.argument, 40)}'")

    def compute(self, use, page):
        """What theme/templates/directives/quiz.html shows after the question: each choice and why."""
        return _choices(use, page)


def _choices(use, page) -> dict:
    options = use.params
    choices, right = options.choices, set(options.right)
    rendered = {}
    for option, texts in (("choices", choices), ("explain", options.why)):
        try:
            rendered[option] = {k: inline_html(v, page.math) for k, v in texts.items()}
        except (MathError, LinkError) as err:
            raise option_error(ParamError(option, str(err)), use, page.path) from None
    # Markdown we rendered (inline_html), as every block's Markdown: the template puts it in as HTML
    return {"several": isinstance(options.answer, tuple),
            "choices": [{"id": k, "html": Markup(rendered["choices"][k]), "why": Markup(rendered["explain"][k]),
                         "right": k in right} for k in choices]}
