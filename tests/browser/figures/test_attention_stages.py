"""attention-stages in the browser: on a wide figure the grid sticks beside the stage paragraphs and
Back/Next or scrolling picks the stage; on a narrow one (and in the static fallback) all stages stack;
rows are picked by click, tap or keyboard; the slider replays the checkpoints."""
from __future__ import annotations

import pytest

from engine.figures.fmt import fill

from ..conftest import after_a_frame, expect, serious_violations
from .helpers import PhoneVisit, opened, text_lines, without_javascript

NAME = "attention-stages"
FILLER = "\n\n".join(["A paragraph of the chapter, long enough to scroll past. " * 6] * 4)
SCRATCH = f"""# Attention stages

{FILLER}

/// figure | {NAME}

Raw scores, scaled scores and weights of head 1.
///

{FILLER}

/// figure | qkv-matrices

Queries, keys and values of head 1.
///
"""


def _state(data, checkpoint, row):
    return checkpoint * len(data["words"]) + row


def _caption(figure):
    return figure.locator(".as-sticky .as-grid caption").text_content()


def _cells(figure, row, where=".as-sticky"):
    return figure.locator(f"{where} .as-grid tbody tr").nth(row).locator("td").all_text_contents()


def test_wide_steps_by_buttons_and_the_grid_follows(open_chapter, url):
    chapter, data, figure = opened(open_chapter, url, NAME, viewport={"width": 1200, "height": 800})
    start = data["start"]
    stages, parts = data["text"]["stages"], data["text"]["parts"]
    assert chapter.numbers(NAME) == text_lines(data, _state(data, start["checkpoint"], start["row"]))
    expect(figure.locator(".as-scrolly")).to_be_visible()
    expect(figure.locator(".as-stack")).to_be_hidden()
    assert _caption(figure).startswith(stages[start["stage"]]["title"])
    figure.get_by_role("button", name="Next").click()
    assert _caption(figure).startswith(stages[1]["title"])
    want = [fill(parts["scaled"], {"v": v}) for v in data["grids"][start["checkpoint"]][1][start["row"]]]
    assert _cells(figure, start["row"]) == want
    expect(figure.locator(".as-step").nth(1)).to_have_class("as-step as-active")
    next_ = figure.get_by_role("button", name="Next")
    next_.press("Enter")
    assert _caption(figure).startswith(stages[2]["title"])
    expect(next_).to_be_disabled()
    figure.get_by_role("button", name="Back").click()
    assert _caption(figure).startswith(stages[1]["title"])
    assert chapter.numbers(NAME) == text_lines(data, _state(data, start["checkpoint"], start["row"]))  # rows, not stages


def test_scrolling_the_paragraphs_picks_the_stage_while_the_grid_sticks(open_chapter, url):
    chapter, data, figure = opened(open_chapter, url, NAME, viewport={"width": 1200, "height": 800})
    page = chapter.page
    for s in (2, 0, 1):
        page.evaluate("(s) => document.querySelectorAll('.as-step')[s].scrollIntoView({block: 'center'})", s)
        page.wait_for_function("(t) => document.querySelector('.as-sticky .as-grid caption').textContent.startsWith(t)",
                               arg=data["text"]["stages"][s]["title"])
        top = figure.locator(".as-sticky").bounding_box()["y"]
        assert 0 <= top <= 40, top  # stuck at the top of the screen while its paragraphs scroll
    assert page.evaluate("getComputedStyle(document.querySelector('.as-sticky')).position") == "sticky"


def test_the_stage_changes_when_its_paragraph_crosses_the_middle_of_the_screen(open_chapter, url):
    """Not when the step's taller box does: with the next paragraph still below the middle, the
    stage shown is the one whose words are being read."""
    chapter, data, figure = opened(open_chapter, url, NAME, viewport={"width": 1200, "height": 800})
    page, titles = chapter.page, [s["title"] for s in data["text"]["stages"]]
    caption = "document.querySelector('.as-sticky .as-grid caption').textContent"
    place = """([s, offset]) => { const p = document.querySelectorAll('.as-step .as-para')[s];
      window.scrollBy(0, p.getBoundingClientRect().top - (innerHeight / 2 + offset)); }"""
    for s in range(len(titles) - 1):
        page.evaluate(place, [s, -20])  # paragraph s's first line just past the middle
        page.wait_for_function(f"(t) => {caption}.startsWith(t)", arg=titles[s])
        page.evaluate(place, [s + 1, 40])  # the next paragraph's top still 40 px below the middle
        after_a_frame(page)  # the view's IntersectionObserver has heard of the scroll
        assert page.evaluate(caption).startswith(titles[s]), f"stage {s + 2} shown while stage {s + 1} is read"
        page.evaluate(place, [s + 1, -20])
        page.wait_for_function(f"(t) => {caption}.startsWith(t)", arg=titles[s + 1])


# A browser without scrollend, as the view tests for it: no onscrollend handler property.
NO_SCROLLEND = "delete Window.prototype.onscrollend; delete window.onscrollend;"


@pytest.mark.parametrize("init_script", [None, NO_SCROLLEND], ids=["scrollend", "no-scrollend"])
def test_a_jump_past_the_paragraphs_picks_the_stage_where_the_scroll_ends(open_chapter, url, init_script):
    """A scrollbar drag, PageDown, find-in-page or anchor jump can carry paragraphs over the middle
    line between two frames, so no crossing is seen: the end of the scroll picks the stage, with
    scrollend or, without it, the first frame with no scroll."""
    chapter, _, figure = opened(open_chapter, url, NAME, viewport={"width": 1200, "height": 800},
                                init_script=init_script)
    page = chapter.page
    assert page.evaluate("'onscrollend' in window") is (init_script is None)
    stage = figure.locator(".as-stage-name")
    place = """([s, edge, offset]) => { const p = document.querySelectorAll('.as-step .as-para')[s];
      window.scrollBy({ top: p.getBoundingClientRect()[edge] - (innerHeight / 2 + offset), behavior: 'instant' }); }"""
    page.evaluate(place, [0, "top", -20])  # stage 1 read at the middle line
    expect(stage).to_contain_text("1 of 3")
    page.evaluate(place, [2, "bottom", -40])  # one jump: paragraphs 2 and 3 pass the middle unseen
    expect(stage).to_contain_text("3 of 3")
    expect(figure.locator(".as-step").nth(2)).to_have_class("as-step as-active")


def test_slider_and_rows_by_keyboard_and_click(open_chapter, url):
    chapter, data, figure = opened(open_chapter, url, NAME, viewport={"width": 1200, "height": 800})
    start = data["start"]
    control = figure.locator("[data-key-control]")
    expect(control).to_have_count(1)
    control.focus()
    control.press("ArrowLeft")
    c = start["checkpoint"] - 1
    assert chapter.numbers(NAME) == text_lines(data, _state(data, c, start["row"]))
    control.press("Home")
    assert chapter.numbers(NAME) == text_lines(data, _state(data, 0, start["row"]))
    parts = data["text"]["parts"]
    assert _cells(figure, 0) == [fill(parts["scores"], {"v": v}) for v in data["grids"][0][0][0]]
    figure.locator(".as-sticky").get_by_role("button", name="row of mat (word 6)").click()
    assert chapter.numbers(NAME) == text_lines(data, _state(data, 0, 5))
    chapter.page.keyboard.press("ArrowDown")  # wraps to the first row; focus follows
    assert chapter.numbers(NAME) == text_lines(data, _state(data, 0, 0))
    assert chapter.page.evaluate("document.activeElement.getAttribute('aria-label')") == "row of the (word 1)"


def test_narrow_stacks_every_stage_and_a_tap_picks_a_row(open_chapter, url):
    visit = PhoneVisit(open_chapter, url, NAME)
    data, figure = visit.data, visit.figure
    n = len(data["words"])
    expect(figure.locator(".as-scrolly")).to_be_hidden()
    expect(figure.locator(".as-stack .as-grid")).to_have_count(3)
    for s in range(3):
        expect(figure.locator(".as-stack .as-grid").nth(s)).to_be_visible()
    expect(figure.get_by_role("button", name="Next")).to_be_hidden()
    visit.taps(figure.locator(".as-stack .as-grid").nth(2).locator("tbody tr").nth(3).locator("td").nth(1),
               _state(data, data["start"]["checkpoint"], 3))
    expect(figure.locator(".as-stack .as-selected")).to_have_count(3)  # the row is marked in every stage
    assert figure.locator(".as-stack .as-cell").count() == 3 * n * n
    visit.reads()  # the grids' numbers too: no smaller to fit the phone
    visit.fits()


def test_without_javascript_the_fallback_stacks_the_stages(open_chapter, url):
    without_javascript(open_chapter, url, NAME)


@pytest.mark.parametrize("width", [1200, 375])
def test_no_serious_accessibility_violations(open_chapter, url, width):
    chapter, _, _ = opened(open_chapter, url, NAME, viewport={"width": width, "height": 800})
    assert serious_violations(chapter.page) == []
