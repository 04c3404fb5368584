"""Layout on narrow and wide screens, and an accessibility scan with axe-core."""
from __future__ import annotations

import json

import pytest

from .conftest import AXE, chapter_pages

PAGES = {**{page: page for page in chapter_pages()}, "index": "index.html", "bibliography": "bibliography.html"}
CHAPTERS = chapter_pages()

def _open(new_context, base_url, which: str, **options):
    page = new_context(**options).new_page()
    page.route("https://cdn.jsdelivr.net/**", lambda route: route.abort())
    page.goto(base_url + PAGES[which])
    page.wait_for_load_state("load")
    if which in CHAPTERS and options.get("java_script_enabled", True):
        page.wait_for_function(
            "[...document.querySelectorAll('[data-figure]')].every((e) => e.dataset.state === 'prerendered')")
    return page


@pytest.mark.parametrize("width", [375, 1200])
@pytest.mark.parametrize("which, javascript",
                         [*((c, True) for c in CHAPTERS), *((c, False) for c in CHAPTERS), ("index", True),
                          ("bibliography", True)])
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


def _serious_violations(page) -> list[dict]:
    assert AXE.is_file(), f"{AXE} is missing: run 'npm ci' (axe-core is a dev dependency)"
    page.add_script_tag(path=str(AXE))
    return page.evaluate("""async () => {
        const result = await axe.run(document, { resultTypes: ["violations"] });
        return result.violations
          .filter((v) => v.impact === "serious" || v.impact === "critical")
          .map((v) => ({ id: v.id, impact: v.impact, help: v.help,
                         nodes: v.nodes.map((n) => ({ target: n.target.join(" "), html: n.html,
                                                      summary: n.failureSummary })) }));
    }""")


@pytest.mark.parametrize("which", list(PAGES))
def test_no_serious_accessibility_violations(new_context, base_url, which):
    page = _open(new_context, base_url, which)
    violations = _serious_violations(page)
    assert violations == [], f"axe on {PAGES[which]}:\n" + json.dumps(violations, indent=1)
