"""causal-mask in the browser: the slider and the mask toggle step through the model's precomputed
states; the key numbers, the readout and the grid's label are the model's text for the state shown."""
from __future__ import annotations

from engine.figures.fmt import fill

from ..conftest import expect
from .helpers import PhoneVisit, opened, text_lines

PAGE = "06-no-peeking-ahead.html"


def test_keyboard_slider_and_touch_toggle_show_the_engine_states(open_chapter, base_url):
    visit = PhoneVisit(open_chapter, base_url + PAGE, "causal-mask")
    data, figure = visit.data, visit.figure
    n = len(data["words"])
    visit.opens_at(n - 1)

    slider = figure.locator('input[type="range"]')
    visit.keys(slider, "ArrowLeft", n - 2)
    expect(slider).to_have_value(str(n - 1))
    expect(figure.locator("output")).to_have_text(fill(data["text"]["parts"]["readout"], {"v": n - 1, "word": data["words"][n - 2]}))
    # Under the mask no earlier row is outlined as changed; the blocked cells sit above the diagonal.
    expect(figure.locator(".grid-row.changed")).to_have_count(0)
    expect(figure.locator(".grid-cell.blocked")).to_have_count((n - 1) * (n - 2) // 2)

    off = figure.locator('button[data-mode="off"]')
    state = n + n - 2
    visit.taps(off, state)
    expect(off).to_have_attribute("aria-pressed", "true")
    expect(figure.locator("svg[role=img]")).to_have_attribute("aria-label", data["text"]["states"][state]["label"])
    expect(figure.locator(".grid-row.changed")).to_have_count(n - 2)  # every earlier row moved
    expect(figure.locator(".grid-cell.blocked")).to_have_count(0)
    visit.fits()


def test_mouse_moves_the_slider_to_the_first_word(open_chapter, base_url):
    chapter, data, figure = opened(open_chapter, base_url + PAGE, "causal-mask")
    slider = figure.locator('input[type="range"]')
    slider.scroll_into_view_if_needed()
    box = slider.bounding_box()
    chapter.page.mouse.click(box["x"] + 2, box["y"] + box["height"] / 2)
    expect(slider).to_have_value("1")
    assert chapter.numbers("causal-mask") == text_lines(data, 0)
    expect(figure.locator(".grid-cell[visibility=visible]")).to_have_count(1)
