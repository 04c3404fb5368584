"""Layout on narrow and wide screens, and an accessibility scan with axe-core."""
from __future__ import annotations

import json

import pytest

from .conftest import chapter_pages, draw_every_figure, serious_violations

PAGES = {**{page: page for page in chapter_pages()}, "index": "index.html", "bibliography": "bibliography.html",
         "search": "search.html?q=softmax",  # the search page with results on it
         "print": "print.html"}  # the print edition, read on a screen
CHAPTERS = chapter_pages()

def _open(new_context, base_url, which: str, **options):
    page = new_context(**options).new_page()
    page.route("https://cdn.jsdelivr.net/**", lambda route: route.abort())
    page.goto(base_url + PAGES[which])
    page.wait_for_load_state("load")
    if which == "search":
        page.locator("[data-search-results] li").first.wait_for()
    if which in CHAPTERS and options.get("java_script_enabled", True):
        draw_every_figure(page)
    return page


@pytest.mark.parametrize("width", [375, 1200])
@pytest.mark.parametrize("which, javascript",
                         [*((c, True) for c in CHAPTERS), *((c, False) for c in CHAPTERS), ("index", True),
                          ("bibliography", True), ("search", True), ("print", False)])
def test_no_horizontal_overflow(new_context, base_url, which, javascript, width):
    page = _open(new_context, base_url, which, viewport={"width": width, "height": 800},
                 java_script_enabled=javascript)
    scroll_width = page.evaluate("document.documentElement.scrollWidth")
    if scroll_width > width:
        wide = page.evaluate("""(w) => [...document.querySelectorAll("body *")]
            .filter((e) => e.getBoundingClientRect().right > w + 0.5)
            .slice(0, 8).map((e) => e.tagName.toLowerCase() + (e.className && typeof e.className === "string"
              ? "." + e.className.trim().replace(/\\s+/g, ".") : "") + " right=" + Math.round(e.getBoundingClientRect().right))""",
            width)
        pytest.fail(f"{PAGES[which]} at {width}px is {scroll_width}px wide; past the edge: {wide}")


# Both widths: a wide formula becomes a scroll box only on a narrow screen (axe's scrollable-region-
# focusable), which a scan at Playwright's default 1280 px viewport alone never saw. Both colour
# schemes: the dark palette's contrast is checked as the light one's is.
@pytest.mark.parametrize("width, scheme", [(375, "light"), (1280, "light"), (375, "dark")])
@pytest.mark.parametrize("which", list(PAGES))
def test_no_serious_accessibility_violations(new_context, base_url, which, width, scheme):
    page = _open(new_context, base_url, which, viewport={"width": width, "height": 800}, color_scheme=scheme)
    violations = serious_violations(page)
    assert violations == [], f"axe on {PAGES[which]}:\n" + json.dumps(violations, indent=1)


def test_css_colours_come_from_the_palette(site):
    """Every colour in the built site.css is a palette role: no literal colour outside the :root block the
    build writes from theme/palette.toml, and every custom property a rule uses without a fallback is
    defined (one with a fallback, like --share, is set per element by a view)."""
    import re

    css = next(site.rglob("site.css")).read_text(encoding="utf-8")
    palette = re.match(r"/\* theme/palette\.toml \*/\n:root \{\n(.*?)\n\}\n"
                       r"@media \(prefers-color-scheme: dark\) \{\n  :root \{\n.*?\n  \}\n\}\n", css, re.S)
    assert palette, "site.css does not open with the palette block"
    rules = css[palette.end():]
    literal = re.findall(r"#[0-9a-fA-F]{3,8}\b|\brgba?\(|\bhsla?\(", rules)
    assert literal == [], f"colours written outside the palette: {literal}"
    defined = set(re.findall(r"--([a-z][a-z0-9-]*)\s*:", css))
    used = set(re.findall(r"var\(--([a-z][a-z0-9-]*)\s*\)", rules))
    assert used - defined == set(), f"custom properties used but never defined: {sorted(used - defined)}"
