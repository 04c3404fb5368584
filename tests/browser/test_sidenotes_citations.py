"""Sidenotes: in the margin when wide, opened in place from the keyboard when narrow, shown in
print, all without JavaScript. Citations jump to the chapter's reference list."""
from __future__ import annotations

import re

import pytest

from .conftest import ROOT, chapter_pages, expect


def _first_page_with(pattern: str) -> str:
    for page in chapter_pages():
        if re.search(pattern, (ROOT / "content" / page.replace(".html", ".md")).read_text()):
            return page
    pytest.fail(f"no chapter has {pattern!r}: the series should use it")


def _open(open_chapter, base_url, page, width, javascript=True):
    return open_chapter(base_url + page, viewport={"width": width, "height": 800},
                        java_script_enabled=javascript).page


@pytest.mark.parametrize("javascript", [True, False])
def test_narrow_sidenote_opens_in_place_from_the_keyboard(open_chapter, base_url, javascript):
    tab = _open(open_chapter, base_url, _first_page_with(r"\[\^[^\]]+\][^:]"), 375, javascript)
    toggle, note = tab.locator(".sidenote-toggle").first, tab.locator(".sidenote").first
    expect(note).to_be_hidden()
    toggle.focus()
    tab.keyboard.press("Space")
    expect(note).to_be_visible()
    box, text = note.bounding_box(), tab.locator("main p").first.bounding_box()
    assert box["x"] >= text["x"] - 1 and box["x"] + box["width"] <= 375, box
    tab.keyboard.press("Space")
    expect(note).to_be_hidden()


def test_wide_sidenote_sits_in_the_margin(open_chapter, base_url):
    tab = _open(open_chapter, base_url, _first_page_with(r"\[\^[^\]]+\][^:]"), 1200)
    note, wrap = tab.locator(".sidenote").first, tab.locator(".sidenote-wrap").first
    expect(note).to_be_visible()
    paragraph = wrap.locator("xpath=ancestor::p[1]").bounding_box()
    box = note.bounding_box()
    assert box["x"] >= paragraph["x"] + paragraph["width"], (box, paragraph)
    assert box["x"] + box["width"] <= 1200
    assert tab.locator(".sidenote-toggle").first.is_hidden()  # nothing to toggle, nothing to tab to


def test_sidenotes_print(open_chapter, base_url):
    tab = _open(open_chapter, base_url, _first_page_with(r"\[\^[^\]]+\][^:]"), 375)
    tab.emulate_media(media="print")
    expect(tab.locator(".sidenote").first).to_be_visible()


def test_citation_jumps_to_the_reference_list(open_chapter, base_url):
    tab = _open(open_chapter, base_url, _first_page_with(r"\[@\w"), 1200)
    cite = tab.locator(".citation a").first
    key = cite.get_attribute("href")[len("#ref-"):]
    cite.click()
    assert tab.url.endswith(f"#ref-{key}")
    entry = tab.locator(f"#ref-{key}")
    expect(entry).to_be_in_viewport()
    links = tab.locator('.references a[href="bibliography.html"]')
    expect(links).to_have_count(1)  # one link under the list, not one per work
    links.click()
    expect(tab).to_have_url(re.compile(r"bibliography\.html$"))  # followed in place: the address changes when the page is in
    expect(tab.locator(f'li[id="{key}"] .cited-in')).to_contain_text("chapter")


def test_on_a_touch_screen_the_number_is_a_44_px_target(open_chapter, base_url):
    """The number is about 13 px across: on a touch screen a tap anywhere in the 44 px square around it
    opens the note (an invisible area: the number looks as it does on a wide screen's narrow window)."""
    tab = open_chapter(base_url + _first_page_with(r"\[\^[^\]]+\][^:]"),
                       viewport={"width": 375, "height": 800}, has_touch=True, is_mobile=True).page
    number, note = tab.locator(".sidenote-number").first, tab.locator(".sidenote").first
    number.scroll_into_view_if_needed()
    box = number.bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    corners = tab.evaluate("""([x, y]) => [[-21, -21], [21, -21], [-21, 21], [21, 21]]
      .map(([dx, dy]) => document.elementFromPoint(x + dx, y + dy)?.closest(".sidenote-number")?.id ?? null)""", [x, y])
    assert corners == [number.get_attribute("id")] * 4
    tab.touchscreen.tap(x + 20, y - 20)
    expect(note).to_be_visible()
