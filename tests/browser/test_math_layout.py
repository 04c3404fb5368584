"""Math in Chromium: a formula with nowhere to break scrolls, and the keyboard reaches it. Every
chapter's formulas (not clipped, not enlarged, wrapped on a phone) are read in test_every_page.py."""
from __future__ import annotations

import re

import pytest

from .conftest import expect, serious_violations

UNBREAKABLE = "# Wide\n\n$$" + " + ".join(f"a_{{{i}}}" for i in range(1, 14)) + "$$\n\n$$x + y$$\n"


@pytest.mark.parametrize("width", [375, 1280])
def test_a_formula_that_must_scroll_is_a_focusable_labelled_region(new_context, scratch_page, width):
    """A sum of 13 terms has nowhere to break: at 375 px it scrolls, and the keyboard reaches it;
    a formula that fits is no tab stop."""
    page = new_context(viewport={"width": width, "height": 800}).new_page()
    page.goto(scratch_page(UNBREAKABLE))
    wide, short = page.locator(".math-display").all()
    page.evaluate("document.fonts.ready")
    scrolls = wide.evaluate("(d) => d.scrollWidth > d.clientWidth")
    assert scrolls == (width == 375)
    if scrolls:
        expect(wide).to_have_attribute("tabindex", "0")
        expect(wide).to_have_attribute("role", "region")
        expect(wide).to_have_attribute("aria-label", re.compile("Formula"))
        page.keyboard.press("Tab")
        for _ in range(10):
            if wide.evaluate("(d) => d === document.activeElement"):
                break
            page.keyboard.press("Tab")
        expect(wide).to_be_focused()
        page.keyboard.press("ArrowRight")
        page.wait_for_function("(d) => d.scrollLeft > 0", arg=wide.element_handle())
    else:
        assert wide.get_attribute("tabindex") is None
    assert short.get_attribute("tabindex") is None
    assert serious_violations(page) == []
