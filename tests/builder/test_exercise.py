"""The exercise directive: the page holds the task, the starter, hints and the solution without
JavaScript; the build grades the solution and the starter; every mistake is one path:line error."""
from __future__ import annotations

import re

import pytest

from tests.site_layout import theme_folder

from .helpers import assert_one_error, build_one_chapter

GOOD = """\
# Exercises

/// exercise | softmax
    starter: |
      def softmax(x):
          # exp, then divide by the total of the last axis
          return x
    solution: |
      def softmax(x):
          e = np.exp(x - x.max(axis=-1, keepdims=True))
          return e / e.sum(axis=-1, keepdims=True)
    hints:
      - Subtract the row's maximum first; `x < 0` is fine.
      - Sum with `axis=-1, keepdims=True`.

Write `softmax(x)` over the last axis.
///
"""




def test_the_page_holds_task_starter_hints_and_solution(tmp_path):
    out = build_one_chapter(tmp_path, GOOD)
    page = (out / "01-test.html").read_text()
    section = page[page.index('<section aria-labelledby="exercise-softmax-label"'):page.index("</section>")]
    assert 'data-exercise="softmax"' in section and "<code>softmax(x)</code> over the last axis" in section
    assert '<pre class="exercise-starter" tabindex="0"><code class="language-python">def softmax(x):\n    # exp, then divide' in section
    assert "<li>Subtract the row&rsquo;s maximum first; <code>x &lt; 0</code> is fine.</li>" in section
    assert '<details class="exercise-solution"><summary>Solution</summary><pre class="exercise-answer" tabindex="0">' in section
    assert 'data-exercise-result data-state="idle" role="status"' in section
    assert '<div class="exercise-actions" hidden><button type="button" class="primary" data-action="run">Run</button>' in section
    assert re.search(r'<script type="module" src="assets/[0-9a-f]{12}/js/parts.js">', page) and 'id="runtime-config"' in page
    bundle = (theme_folder(out) / "js" / "editor.js").read_bytes()
    assert len(bundle) > 100_000 and b".cm-content" in bundle and b"import " not in bundle[:200]  # CodeMirror, bundled


def test_no_exercise_no_editor_bundle(tmp_path):
    out = build_one_chapter(tmp_path, "# Plain\n\nText.\n")
    assert not (out / "assets" / "js" / "editor.js").exists()
    assert "parts.js" not in (out / "01-test.html").read_text()


CASES = {
    "unknown exercise": (GOOD.replace("exercise | softmax", "exercise | softmaxx"), 3, "unknown exercise 'softmaxx'"),
    "unknown option": (GOOD.replace("    hints:", "    hint: x\n    hints:"), 12, "unknown option 'hint'"),
    "no solution": (GOOD.replace("    solution: |\n      def softmax(x):\n          e = np.exp(x - x.max(axis=-1, keepdims=True))\n"
                                 "          return e / e.sum(axis=-1, keepdims=True)\n", ""), 3, "exercise 'softmax': needs option 'solution'"),
    "solution fails": (GOOD.replace("x - x.max(axis=-1, keepdims=True)", "x"), 8,
                       "the solution does not pass the tests of 'softmax': The exponentials overflow"),
    "solution raises": (GOOD.replace("return e / e.sum(axis=-1, keepdims=True)", "return e / undefined"), 8,
                        "NameError"),
    "starter passes": (GOOD.replace("          return x\n", "          e = np.exp(x - x.max(axis=-1, keepdims=True))\n"
                                    "          return e / e.sum(axis=-1, keepdims=True)\n"), 4, "the starter already passes"),
    "hints not a list": (GOOD.replace("    hints:\n      - Subtract the row's maximum first; `x < 0` is fine.\n"
                                      "      - Sum with `axis=-1, keepdims=True`.\n", "    hints: just do it\n"), 12,
                         "option 'hints' must be a list, not str 'just do it'"),
    "too many hints": (GOOD.replace("    hints:\n", "    hints:\n" + "      - more\n" * 4), 12,
                       "option 'hints' must have 1 to 5 items, not 6"),
    "blank hint": (GOOD.replace("      - Sum with", "      - ' '\n      - Sum with"), 12, "option 'hints[1]' must not be blank"),
    "starter not code": (GOOD.replace("    starter: |\n      def softmax(x):\n          # exp, then divide by the total of the last axis\n"
                                      "          return x\n", "    starter: 3\n"), 4, "option 'starter' must be text, not int 3"),
    "long solution": (GOOD.replace("          return e / e.sum", "          # " + "x" * 5000 + "\n          return e / e.sum"), 8,
                      "option 'solution' has"),
    "no task": (GOOD.replace("Write `softmax(x)` over the last axis.\n", ""), 3, "needs its task"),
    "twice": (GOOD + "\n" + GOOD.split("\n", 2)[2], 19, "exercise 'softmax' is on this page twice"),
}


@pytest.mark.parametrize("case", CASES, ids=list(CASES))
def test_a_mistake_is_one_error_at_its_line(tmp_path, case):
    assert_one_error(tmp_path, *CASES[case])


RIGHT = "def softmax(x):\n    e = np.exp(x - x.max(axis=-1, keepdims=True))\n    return e / e.sum(axis=-1, keepdims=True)\n"
WRONG = "def softmax(x):\n    return x\n"


def _with_solution(code: str) -> str:
    """GOOD with `code` (Python, unindented) as the solution, still on line 8."""
    body = "".join(f"      {ln}\n" for ln in code.splitlines())
    return GOOD.replace("    solution: |\n" + "".join(f"      {ln}\n" for ln in RIGHT.splitlines()), "    solution: |\n" + body)


HOSTILE = {  # author code the build grades: each is one error at the solution's line, in bounded time
    "endless loop": ("while True: pass\n" + RIGHT, "took longer than 1 s and was stopped"),
    "os._exit": ("import os\nos._exit(0)\n" + RIGHT, "ended the grading run (exit status 0)"),
    "sys.exit": ("import sys\nsys.exit(0)\n" + RIGHT, "Your code stopped the run (SystemExit)"),
    "printing without end": ("while True: print('x' * 10000)\n" + RIGHT, "took longer than 1 s"),
    "np.allclose patched": ("np.allclose = lambda *a, **k: True\n" + WRONG, "the solution does not pass"),
    "builtins deleted": ("import builtins\ndel builtins.len\ndel builtins.isinstance\n" + WRONG,
                         "the solution does not pass"),
}


@pytest.mark.parametrize("case", HOSTILE, ids=list(HOSTILE))
def test_hostile_solution_code_is_caged(tmp_path, monkeypatch, case):
    from builder import grading

    monkeypatch.setattr(grading, "TIME_LIMIT", 1.0)
    code, message = HOSTILE[case]
    assert_one_error(tmp_path, _with_solution(code), 8, message)


def test_a_solution_that_patches_the_engine_changes_nothing_in_thebuild_one_chapter(tmp_path):
    import threading

    import engine.attention
    import numpy as np

    before = engine.attention.softmax_forward, np.allclose, threading.active_count()
    build_one_chapter(tmp_path, _with_solution(
        "import engine.attention, atexit, threading, time\n"
        "engine.attention.softmax_forward = lambda x: (x * 0 + 0.999, None)\n"
        "np.allclose = lambda *a, **k: True\n"
        "atexit.register(time.sleep, 60)\n"
        "threading.Thread(target=time.sleep, args=(60,)).start()\n" + RIGHT))
    assert (engine.attention.softmax_forward, np.allclose, threading.active_count()) == before
