"""Math in Chromium: display formulas are not clipped, inline ones sit at the size of the text.

(Chromium already refuses a line break between a formula and a following '.' or ','; the
builder's nowrap span, tested in tests/builder/test_math.py, is for engines that do not.)"""
from __future__ import annotations

import re

import pytest

from .conftest import chapter_pages, expect, serious_violations

CHAPTERS = chapter_pages()


@pytest.mark.parametrize("which", CHAPTERS)
def test_math_is_not_clipped_or_enlarged(new_context, base_url, which):
    page = new_context(viewport={"width": 1200, "height": 800}, java_script_enabled=False).new_page()
    page.goto(base_url + which)
    found = page.evaluate("""() => ({
      clipped: [...document.querySelectorAll('.math-display')]
        .filter((d) => d.scrollHeight > d.clientHeight).map((d) => d.textContent.slice(0, 40)),
      enlarged: [...document.querySelectorAll('.math math')]
        .filter((m) => getComputedStyle(m).fontSize !== getComputedStyle(m.closest('p, li, figcaption, span.sidenote')
          || m.parentElement.parentElement).fontSize).map((m) => m.textContent.slice(0, 40)),
      wrapping: [...document.querySelectorAll('.math-nowrap')]
        .filter((s) => getComputedStyle(s).whiteSpace !== 'nowrap').length,
      displays: document.querySelectorAll('.math-display').length,
      inline: document.querySelectorAll('.math math').length,
    })""")
    assert found["clipped"] == [], f"display math clipped by its scroll box: {found['clipped']}"
    assert found["enlarged"] == [], f"inline math larger than its text: {found['enlarged']}"
    assert found["wrapping"] == 0


@pytest.mark.parametrize("which", [c for c in CHAPTERS if c[:2] in ("05", "08", "10")])  # long displays
def test_wide_formulas_wrap_at_375px_instead_of_scrolling(new_context, base_url, which):
    page = new_context(viewport={"width": 375, "height": 800}, java_script_enabled=False).new_page()
    page.goto(base_url + which)
    found = page.evaluate("""() => ({
      scrolling: [...document.querySelectorAll('.math-display')].filter((d) => d.scrollWidth > d.clientWidth)
        .map((d) => d.textContent.slice(0, 40)),
      wrapped: [...document.querySelectorAll('.math-display')].filter((d) => {
        const tops = new Set([...d.querySelectorAll('math')].map((m) => Math.round(m.getBoundingClientRect().top)));
        return tops.size > 1; }).length,
    })""")
    assert found["scrolling"] == [], f"display formulas that scroll at 375 px: {found['scrolling']}"
    assert found["wrapped"] >= 1, "no display formula wraps onto a second line at 375 px"


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
