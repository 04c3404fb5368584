"""dot-product in the browser: tips move by keys, touch and mouse; both readouts are the engine's,
filled into the model's text templates the way the build fills them."""
from __future__ import annotations

from engine.figures import compute, parse

from ..conftest import expect
from .helpers import centre, expect_same_node_focused, mouse_drag, press_in_place, touch_drag

PAGE = "02-words-as-points.html"


def _expected(a, b):
    """The key numbers the model writes (at build time, in Python) for the figure opening at a and b."""
    return compute(parse("dot-product", {"a": list(a), "b": list(b)}))["text"]["numbers"]


def test_tips_by_keyboard_touch_and_mouse(open_chapter, base_url):
    chapter = open_chapter(base_url + PAGE, has_touch=True, viewport={"width": 375, "height": 900})
    chapter.wait_prerendered()
    figure = chapter.figure("dot-product")
    assert chapter.numbers("dot-product") == _expected((3, 1), (1, 2))

    tip_a = figure.locator(".tip.arrow-a")
    tip_b = figure.locator(".tip.arrow-b")
    assert tip_b.get_attribute("data-key-control") == "ArrowRight"
    press_in_place(tip_b, "ArrowRight")
    expect(tip_b).to_have_attribute("aria-valuetext", "(2, 2)")
    assert chapter.numbers("dot-product") == _expected((3, 1), (2, 2))
    expect_same_node_focused(chapter.page)
    # The readout's three lines are the key numbers.
    assert [t.strip() for t in figure.locator(".dot-readout p").all_text_contents()][:3] == _expected((3, 1), (2, 2))

    # Screen position of a grid point, from where the two tips are drawn.
    figure.scroll_into_view_if_needed()
    (ax, ay), (bx, by) = centre(tip_a), centre(tip_b)
    unit = ax - bx  # a is at x = 3, b at x = 2
    ox, oy = ax - 3 * unit, ay + 1 * unit

    def at(x, y):
        return ox + x * unit, oy - y * unit

    # A finger turns b to right angles with a: the dot product is zero.
    touch_drag(chapter.page, (bx, by), at(-1, 3))
    expect(tip_b).to_have_attribute("aria-valuetext", "(-1, 3)")
    numbers = chapter.numbers("dot-product")
    assert numbers == _expected((3, 1), (-1, 3))
    assert numbers[1].endswith("= 0") and numbers[2].endswith("= 0.00")
    expect(figure.locator(".dot-verdict")).to_contain_text("right angles")

    # The mouse points b the opposite way: the dot product is negative.
    mouse_drag(chapter.page, at(-1, 3), at(-3, -1))
    expect(tip_b).to_have_attribute("aria-valuetext", "(-3, -1)")
    numbers = chapter.numbers("dot-product")
    assert numbers == _expected((3, 1), (-3, -1))
    assert numbers[1].endswith("= -10") and numbers[2].endswith("= -10.00")
    expect(figure.locator(".dot-verdict")).to_contain_text("negative")

    # Keys never put a tip on the origin: from (1, 0), ArrowLeft hops to (-1, 0).
    tip_a.focus()
    for key in ["ArrowLeft", "ArrowLeft", "ArrowDown"]:
        tip_a.press(key)
    expect(tip_a).to_have_attribute("aria-valuetext", "(1, 0)")
    tip_a.press("ArrowLeft")
    expect(tip_a).to_have_attribute("aria-valuetext", "(-1, 0)")
    assert chapter.numbers("dot-product") == _expected((-1, 0), (-3, -1))
