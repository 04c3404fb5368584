"""The pages' Content-Security-Policy: every page declares it, and nothing the site does breaks it.

Contexts here keep the policy enforced (bypass_csp=False). Violations are caught twice: by the
page's own `securitypolicyviolation` events, recorded from before any page script runs, and by
Chromium's console errors. Waits poll from Python (page.evaluate runs outside the page's
policy), since Playwright's wait_for_function evaluates a string in the page, which the policy
refuses.
"""
from __future__ import annotations

import html.parser
import re

import pytest

from .conftest import CHAPTER, LIVE_ROUTES, PYODIDE_FILES, SETTLE_MS, Visit, chapter_pages, draw_every_figure, expect

WIDTHS = (1200, 375)
# What the policy must say (the whole policy lives in theme/templates/base.html).
REQUIRED = {"default-src": "'none'", "script-src": "'self'", "object-src": "'none'", "base-uri": "'none'"}



SNAPSHOT = """(fig) => fig.querySelector(".figure-view").innerHTML + "\\n" + fig.querySelector(".figure-numbers").textContent"""


def _use_every_figure(visit: Visit, where: str, live: bool) -> None:
    """Focus each figure's key control (the one its view marks with data-key-control="<key>"), press
    the key, and wait until the figure shows something new: the control takes focus, nothing overflows
    the screen afterwards, and with Python `live` no note says something went wrong."""
    page = visit.page
    for fig in page.locator("[data-figure]").all():
        name = fig.get_attribute("data-figure")
        control = fig.locator("[data-key-control]")
        assert control.count() == 1, f"{where}: figure {name} marks {control.count()} controls with data-key-control"
        key = control.get_attribute("data-key-control")
        before = fig.evaluate(SNAPSHOT)
        control.focus()
        expect(control).to_be_focused()
        control.press(key)
        # A live figure may wait for the worker, which a loaded machine slows: allow it 30 s.
        changed = visit.poll(f"([fig, before]) => ({SNAPSHOT})(fig) !== before", [fig.element_handle(), before], timeout=30.0)
        assert changed, f"{where}: pressing {key} in figure {name} changed nothing"
        if live:
            expect(fig.locator(".figure-note")).to_be_hidden()
    width = page.viewport_size["width"]
    scroll_width = page.evaluate("document.documentElement.scrollWidth")
    assert scroll_width <= width, f"{where}: the page overflows to {scroll_width}px after using the figures"


def _boot_runtime(visit: Visit, want: str) -> dict:
    """Scroll the first live figure on screen (which starts Python) and wait for the runtime to settle."""
    page = visit.page
    draw_every_figure(page)
    page.locator("[data-figure][data-live]").first.scroll_into_view_if_needed()
    status = page.locator("[data-runtime-status]")
    expect(status).to_have_attribute("data-state", want, timeout=SETTLE_MS)
    return status.evaluate("e => ({state: e.dataset.state, stage: e.dataset.stage, text: e.textContent})")


def _uses_python(site, name: str) -> bool:
    """A chapter with a live figure or an exercise: a page that fetches the runtime (the print
    edition's figures and exercises are static: it uses nothing)."""
    html = (site / name).read_text()
    return name in chapter_pages() and ("data-live" in html or "data-exercise" in html)


def _pages(site) -> list[str]:
    pages = sorted(p.name for p in site.glob("*.html"))
    assert {"index.html", "bibliography.html", CHAPTER} <= set(pages), pages
    return pages


# --- the policy as written -------------------------------------------------------------------

class _Scan(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.policies, self.inline_scripts, self.style_attrs = [], 0, 0

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "meta" and (a.get("http-equiv") or "").lower() == "content-security-policy":
            self.policies.append(a.get("content") or "")
        if tag == "script" and not a.get("src") and a.get("type") != "application/json":
            self.inline_scripts += 1
        if "style" in a:
            self.style_attrs += 1


def test_every_page_declares_a_strict_policy(site):
    for name in _pages(site):
        scan = _Scan()
        scan.feed((site / name).read_text())
        assert len(scan.policies) == 1, f"{name}: {len(scan.policies)} CSP meta tags"
        policy = dict((d.split()[0], " ".join(d.split()[1:])) for d in scan.policies[0].split(";") if d.strip())
        for directive, value in REQUIRED.items():
            assert policy.get(directive) == value, f"{name}: {directive} is {policy.get(directive)!r}, not {value!r}"
        assert not re.search(r"'unsafe-(inline|eval)'|\*|data:|https?:", scan.policies[0]), f"{name}: {scan.policies[0]}"
        assert scan.inline_scripts == 0, f"{name}: {scan.inline_scripts} inline script(s)"
        assert scan.style_attrs == 0, f"{name}: {scan.style_attrs} inline style attribute(s)"


# --- the site under the policy ---------------------------------------------------------------

RUNTIME_FILES = ("/pyodide/", "/runtime/worker.js", "/runtime/runtime.js")


@pytest.mark.parametrize("width", WIDTHS)
def test_no_violation_on_any_page_with_the_live_runtime(csp_visit, base_url, site, width):
    """Every page at this width, read to its end. On chapters every figure's key control answers the
    keyboard; where a figure is live, the stand-in worker reaches "ready" first, so views draw worker
    results (the engine on CPython). Python only where it can be used: the pages that fetch anything
    of the runtime are exactly those with a live figure ([data-live]) or an exercise; the others
    never load the runtime's module and carry no status line about Python."""
    chapters = set(chapter_pages())
    expected = {name for name in _pages(site) if _uses_python(site, name)}
    fetched = set()
    for name in _pages(site):
        visit = csp_visit(base_url + name, width, routes=LIVE_ROUTES)
        page = visit.page
        live = page.locator("[data-figure][data-live]").count() > 0  # pages that use Python
        if live:
            assert _boot_runtime(visit, "ready")["state"] == "ready"  # every figure drawn first
        else:
            assert page.locator("[data-runtime-status]").count() == 0, f"{name}: a status line about Python it never starts"
        if name in chapters:
            if not live:
                draw_every_figure(page)
            _use_every_figure(visit, f"{name} at {width}px", live=True)
        visit.scroll_through()  # an exercise in view starts its grader's Python
        # A page that uses Python has fetched the runtime once its start has run; one that does not
        # is given long enough for a start that waits a frame and a task.
        for _ in range(60 if name in expected else 6):
            if any(part in url for url in visit.requests for part in RUNTIME_FILES):
                fetched.add(name)
                break
            page.wait_for_timeout(50)
        assert visit.violations() == [], f"{name} at {width}px"
        assert visit.errors == [], f"{name} at {width}px"
        visit.page.context.close()  # its renderer and worker are done with
    assert expected and expected != set(_pages(site)), "every page or none uses Python: nothing to tell apart"
    assert fetched == expected


def test_no_violation_while_pyodide_boots_from_the_site(csp_visit, base_url, site, width=1200):
    """The default build: on the first chapter that uses Python, the real worker boots Pyodide's core
    from the site, then finds numpy's CDN unreachable (routed away) and says so; figures keep working
    on their embedded data. The boot is the same code on every page, so the other pages refuse
    Pyodide's files (as a network that drops them would): each figure's way of saying Python is
    unavailable is used under the policy there. One width: the boot does not depend on it, and the
    test above covers both widths' views. Once booted, a page that uses nothing of Python reads as it
    does in the test above (which finds it fetches nothing of the runtime), so it is not read again."""
    booted = False
    for name in _pages(site):
        if booted and not _uses_python(site, name):
            continue
        refuse = [] if not booted else [(PYODIDE_FILES, lambda route: route.abort())]
        visit = csp_visit(base_url + name, width, routes=refuse)
        if visit.page.locator("[data-figure][data-live]").count():  # pages that use Python
            status = _boot_runtime(visit, "unavailable")
            if not booted:
                assert status["stage"] == "numpy", status  # Pyodide itself started under the policy
                booted = True
            _use_every_figure(visit, f"{name} at {width}px", live=False)
        visit.scroll_through()
        assert visit.violations() == [], f"{name} at {width}px"
        assert visit.errors == [], f"{name} at {width}px"
        visit.page.context.close()
    assert booted, "no page uses Python"


def test_file_url_status_line_runs_under_the_policy(csp_visit, site):
    """From file:// the classic status script (an external file, not inline) still says why."""
    visit = csp_visit(site.as_uri() + "/" + CHAPTER, 1200)
    status = visit.page.locator("[data-runtime-status]")
    expect(status).to_have_attribute("data-state", "unavailable")
    assert "file" in status.text_content().lower(), status.text_content()
    assert visit.violations() == []


# --- the checks above can fail ---------------------------------------------------------------

def _with_violations(route):
    """The real chapter, plus an inline script, an inline style and an image from elsewhere."""
    response = route.fetch()
    body = response.text().replace(
        "</main>",
        '<script>window.__inlineRan = true;</script><p style="color: red">x</p>'
        '<img src="https://example.invalid/x.png" alt=""></main>', 1)
    route.fulfill(response=response, body=body)


def test_a_violating_page_is_caught(csp_visit, base_url):
    visit = csp_visit(base_url + CHAPTER, 1200, routes=[("**/" + CHAPTER, _with_violations)])
    assert visit.poll("() => window.__csp.length >= 3"), visit.violations()
    found = " ".join(visit.violations())
    for directive in ("script-src-elem", "style-src-attr", "img-src"):
        assert directive in found, found
    assert visit.page.evaluate("window.__inlineRan === undefined")
