"""With JavaScript off the chapter still reads: static fallbacks, alt text, key numbers as text."""
from __future__ import annotations

import re

import pytest

from .conftest import CHAPTER, FIGURES, chapter_pages, wait_for_fallback


@pytest.mark.parametrize("page_name", chapter_pages())
def test_figures_fall_back_to_static_images_and_numbers(open_chapter, base_url, page_name):
    chapter = open_chapter(base_url + page_name, java_script_enabled=False)
    page = chapter.page
    page.wait_for_load_state("load")

    names = chapter.figure_names()
    assert names, f"{page_name} has no figures"
    if page_name == CHAPTER:
        assert set(FIGURES) <= set(names), f"expected figures {FIGURES}, the page has {names}"
    for name in names:
        figure = chapter.figure(name)
        assert figure.get_attribute("data-state") == "static", name

        img = figure.locator(".figure-fallback img")
        assert img.count() == 1, f"{name}: expected one fallback image"
        wait_for_fallback(page, img)
        assert img.is_visible(), f"{name}: the fallback image is hidden without JavaScript"
        alt = (img.get_attribute("alt") or "").strip()
        assert alt, f"{name}: the fallback image has no alt text"
        assert re.search(r"\d", alt), f"{name}: the alt text quotes no number: {alt!r}"

        assert not figure.locator(".figure-view").is_visible(), f"{name}: an empty view takes up space"

        numbers = figure.locator("ul.figure-numbers")
        assert numbers.count() == 1, f"{name}: no key-numbers list"
        disclosure = figure.locator("details.figure-numbers-box")  # collapsed, and opens without JavaScript
        assert disclosure.get_attribute("open") is None, f"{name}: the Numbers disclosure starts open"
        disclosure.locator("summary").click()
        assert numbers.is_visible(), f"{name}: the key-numbers list stays hidden when Numbers is opened"
        items = chapter.numbers(name)
        assert items and all(items), f"{name}: key-numbers list is empty or has empty items: {items}"
        # a line may set the scene ("Tokens: red, blue, red"); the list as a whole must give numbers
        assert sum(bool(re.search(r"\d", t)) for t in items) >= max(1, len(items) - 1), \
            f"{name}: key numbers without numbers: {items}"
