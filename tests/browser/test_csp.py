"""The pages' Content-Security-Policy: every page declares it, and nothing the site does breaks it.
Every page is read under it with the live runtime, at both widths, by test_every_page.py; here, the
policy as written, Pyodide's own boot under it, and checks that can fail.

Contexts here keep the policy enforced (bypass_csp=False). Violations are caught twice: by the
page's own `securitypolicyviolation` events, recorded from before any page script runs, and by
Chromium's console errors. Waits poll from Python (page.evaluate runs outside the page's
policy), since Playwright's wait_for_function evaluates a string in the page, which the policy
refuses.
"""
from __future__ import annotations

import html.parser
import re

from .conftest import CHAPTER, REFUSE_PYODIDE, expect, uses_python

# What the policy must say (the whole policy lives in theme/templates/base.html).
REQUIRED = {"default-src": "'none'", "script-src": "'self'", "object-src": "'none'", "base-uri": "'none'"}


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

def test_no_violation_while_pyodide_boots_from_the_site(csp_visit, base_url, site, width=1200):
    """The default build: on the first chapter that uses Python, the real worker boots Pyodide's core
    from the site, then finds numpy's CDN unreachable (routed away) and says so; figures keep working
    on their embedded data. The boot is the same code on every page, so the other pages refuse
    Pyodide's files (as a network that drops them would): each figure's way of saying Python is
    unavailable is used under the policy there. One width: the boot does not depend on it, and
    test_every_page.py reads both widths' views. Once booted, a page that uses nothing of Python reads
    as it does there (where it fetches nothing of the runtime), so it is not read again."""
    booted = False
    for name in _pages(site):
        if booted and not uses_python(site, name):
            continue
        refuse = [REFUSE_PYODIDE] if booted else []
        visit = csp_visit(base_url + name, width, routes=refuse)
        if visit.page.locator("[data-figure][data-live]").count():  # pages that use Python
            status = visit.boot_runtime("unavailable")
            if not booted:
                assert status["stage"] == "numpy", status  # Pyodide itself started under the policy
                booted = True
            visit.use_every_figure(f"{name} at {width}px", live=False)
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
