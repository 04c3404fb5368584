"""`/// exercise | name`: a coding task graded in the reader's browser by the engine's hidden tests.

    /// exercise | softmax
        starter: |
          def softmax(x):
              ...
        solution: |
          def softmax(x):
              e = np.exp(x - x.max(axis=-1, keepdims=True))
              return e / e.sum(axis=-1, keepdims=True)
        hints:
          - Softmax does not change when every score moves by the same amount.

    Write `softmax(x)` over the last axis.
    ///

`name` is one of engine/exercises' graders. The build grades the solution (it must pass) and the
starter (it must not) on CPython, each in a caged process of its own (builder/grading.py), so a page
never offers an exercise its own answer fails and no author code can hang or change the build. Without
JavaScript or Python the task, the starter, the hints and the solution are all on the page;
theme/js/exercise.js adds the editor (CodeMirror), Run, Reset, hints one at a time, and the result.
"""
from __future__ import annotations

from dataclasses import dataclass

from markupsafe import Markup

from engine.exercises import EXERCISES, module
from engine.figures.params import REQUIRED, field
from ..bundle import editor_bundle
from ..errors import BuildError, clip
from ..grading import CageError, Run
from ..links import LinkError
from ..math import MathError
from .base import Section, at_option, inline_html

MAX_CODE = 5_000  # characters of starter or solution code
MAX_HINTS = 5


@dataclass(frozen=True)
class Options:
    """An exercise's options, checked like a figure's (params.validate); grading them is compute's."""
    starter: str = field(REQUIRED, chars=(1, MAX_CODE), doc="Python, a YAML block ('starter: |'): the reader's start")
    solution: str = field(REQUIRED, chars=(1, MAX_CODE), doc="Python that passes the grader's hidden tests")
    hints: tuple[str, ...] = field(REQUIRED, length=(1, MAX_HINTS), chars=(1, None),
                                   doc="Markdown, shown one at a time")


class Exercise(Section):
    """The block's Markdown is the task; the label names the function to write. Computing it
    grades the solution and the starter."""

    name, plural, Options = "exercise", "exercises", Options
    summary = ("A function the reader writes in the page, graded by the grader its argument names (below); "
               "the build checks that the solution passes and the starter does not.")
    body = "task"
    unique = "the name keys the reader's saved code"
    uses_python = True  # the grader runs the reader's code in Pyodide

    def check_argument(self, use, path):
        if use.argument not in EXERCISES:
            raise BuildError(path, use.line, f"unknown exercise '{clip(use.argument, 40)}' (known: {', '.join(EXERCISES)})")

    def compute(self, use, page):
        _grade(use, page.path, page.cache)
        return _rest(use, page)

    def draft(self, use, page):
        """Its starter, hints and solution on the page, ungraded: grading waits for the figures' turn."""
        return _rest(use, page)

    def site_files(self, paths):
        return {"assets/js/editor.js": editor_bundle(paths)}  # CodeMirror, bundled by esbuild


def _grade(use, path, cache) -> None:
    """The solution passes the grader's tests and the starter does not, each run in a cage of its own."""
    fn = module(use.argument).FUNCTION
    runs = {option: Run(use.argument, getattr(use.params, option), cache) for option in ("solution", "starter")}  # side by side
    verdicts = {}
    for option, run in runs.items():
        try:
            verdicts[option] = run.verdict()
        except CageError as err:
            for other in runs.values():
                other.stop()
            raise at_option(use, path, option, f"grading the {option}: it {err}") from None
    solved = verdicts["solution"]
    if solved["state"] != "passed":
        raise at_option(use, path, "solution", f"the solution does not pass the tests of '{fn}': {clip(solved['message'], 200)}")
    if verdicts["starter"]["state"] == "passed":
        raise at_option(use, path, "starter", f"the starter already passes the tests of '{fn}': leave the reader something to write")


def _rest(use, page) -> dict:
    """What theme/templates/directives/exercise.html shows after the task: the function's name, the
    starter, the hints and the solution."""
    options = use.params
    try:
        # Markdown we rendered (inline_html), as every block's Markdown: the template puts it in as HTML
        hints = [Markup(inline_html(h, page.math)) for h in options.hints]
    except (MathError, LinkError) as err:
        raise at_option(use, page.path, "hints", str(err)) from None
    return {"function": module(use.argument).FUNCTION, "starter": options.starter.rstrip(),
            "solution": options.solution.rstrip(), "hints": hints}
