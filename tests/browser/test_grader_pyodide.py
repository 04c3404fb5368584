"""The grader in real Pyodide with real numpy (ATTN_PYODIDE_DIST): a reader's code that patches
np.allclose, the grader's own functions or the engine's softmax cannot make a wrong answer pass,
neither in its own run nor in a later one, since the expected results are computed before the
code runs and judged after every module it could patch is restored."""
from __future__ import annotations

import pytest

from tests.builder.test_exercise import GOOD

from .conftest import expect, pyodide_kit, type_code
from .test_exercise import RIGHT

WRONG = "def softmax(x):\n    return x\n"
PATCHES = {
    "np.allclose": "np.allclose = lambda *a, **k: True\nnp.isclose = lambda *a, **k: True\n",
    "the grader's functions": ("import engine.exercises as ex, engine.exercises.cases as c, engine.exercises.softmax as s\n"
                               "c.first_failure = lambda *a, **k: None\nc.close = lambda *a, **k: True\n"
                               "s.verdict = lambda *a, **k: None\n"
                               "ex.judge = lambda *a, **k: {'state': 'passed', 'message': 'fooled', 'line': None, 'case': None}\n"
                               "ex.grade_json = lambda *a: '{\"ok\": true, \"data\": {\"state\": \"passed\", \"message\": \"fooled\"}}'\n"),
    "the engine's softmax": "import engine.attention as a\na.softmax_forward = lambda x: (x, None)\n",
}


@pytest.fixture(scope="module")
def url(scratch_page) -> str:
    return scratch_page(GOOD, pyodide_dist=pyodide_kit())  # skips, or fails where live tests must run


def _run(section, states=("passed", "failed", "error", "timeout")):
    section.get_by_role("button", name="Run").click()
    result = section.locator("[data-exercise-result]")
    expect(result).not_to_have_attribute("data-state", "running", timeout=120_000)
    expect(result).not_to_have_attribute("data-state", "idle")
    return result.get_attribute("data-state"), result.text_content()


def test_no_patch_fools_the_grader_in_pyodide(open_chapter, url):
    chapter = open_chapter(url, pyodide=True)
    section = chapter.page.locator('[data-exercise="softmax"]')
    expect(section.locator(".cm-content")).to_be_visible()
    for name, patch in PATCHES.items():
        type_code(section, patch + WRONG)
        state, text = _run(section)
        assert state == "failed" and "fooled" not in text, (name, state, text)
        type_code(section, WRONG)  # the patch is gone for the next run
        state, text = _run(section)
        assert state == "failed" and "Each row should sum to 1" in text, (name, state, text)
    type_code(section, RIGHT)
    state, text = _run(section)
    assert state == "passed", text
    assert chapter.cdn_requests == []
