"""query-matrix in the browser: the sliders and the last-word buttons show the engine's numbers, as
the model's text for each grid position."""
from __future__ import annotations

from engine.figures import facts, parse
from engine.tasks import winograd

from ..conftest import expect
from .helpers import PhoneVisit, expect_same_node_focused

PAGE = "03-queries-keys-values.html"


def _expected(last, copy, strength) -> list[str]:
    """The key-number lines, from the chapter 1 head itself (not from the page's grid)."""
    run = winograd.run(last, copy, strength)
    q, w = run["queries"][winograd.IT], run["weights"][winograd.IT]
    return [
        f"Copied {copy:g} of {last} into it, query matrix strength {strength:g}: query ({q[0]:.2f}, {q[1]:.2f})",
        "Weights of it: " + ", ".join(f"{word} {wi:.2f}" for word, wi in zip(run["words"], w)),
    ]


def _state(data, last, copy, strength) -> int:
    """The index in data.text.states of a grid position (flattened: last word, copy, strength)."""
    c, s = data["copies"].index(copy), data["strengths"].index(strength)
    return (data["last_words"].index(last) * len(data["copies"]) + c) * len(data["strengths"]) + s


def test_sliders_and_words_follow_the_engine(open_chapter, base_url):
    visit = PhoneVisit(open_chapter, base_url + PAGE, "query-matrix")
    chapter, data, figure = visit.chapter, visit.data, visit.figure
    visit.opens_at(_state(data, "tired", 0.6, 5))
    assert chapter.numbers("query-matrix") == _expected("tired", 0.6, 5)

    strength = figure.get_by_label("Query matrix strength")
    visit.keys(strength, "ArrowRight", _state(data, "tired", 0.6, 6))
    for _ in range(2):
        strength.press("ArrowRight")
    visit.shows(_state(data, "tired", 0.6, 8))
    expect_same_node_focused(visit.page)
    assert chapter.numbers("query-matrix") == _expected("tired", 0.6, 8)
    quoted = facts(parse("query-matrix"))
    assert f"animal {quoted['animal_at_8']:.2f}" in chapter.numbers("query-matrix")[1]
    strength.fill("1")  # slider index 1 = strength 1
    assert chapter.numbers("query-matrix") == _expected("tired", 0.6, 1)

    copy = figure.get_by_label("Copied into “it”")
    copy.fill("0")
    assert chapter.numbers("query-matrix") == _expected("tired", 0.0, 1)
    expect(figure.locator(".qm-query td").first).to_have_text("0.00")

    wide = figure.get_by_role("button", name="wide")
    wide.scroll_into_view_if_needed()
    wide.tap()
    expect(wide).to_have_attribute("aria-pressed", "true")
    copy.fill("6")
    strength.fill("5")
    assert chapter.numbers("query-matrix") == _expected("wide", 0.6, 5)
    expect(figure.locator(".qm-target .qm-w")).to_have_text("street")
    visit.fits()


def test_touch_drag_on_the_strength_slider(open_chapter, base_url):
    visit = PhoneVisit(open_chapter, base_url + PAGE, "query-matrix")
    strength = visit.figure.get_by_label("Query matrix strength")
    strength.scroll_into_view_if_needed()
    box = strength.bounding_box()
    visit.page.touchscreen.tap(box["x"] + box["width"] - 2, box["y"] + box["height"] / 2)
    expect(strength).to_have_value("10")
    visit.shows(_state(visit.data, "tired", 0.6, 10))
    assert visit.chapter.numbers("query-matrix") == _expected("tired", 0.6, 10)
    visit.fits()
