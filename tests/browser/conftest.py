"""Browser tests: build the site once, serve it on 127.0.0.1, drive Debian's Chromium.

Fixtures (sync Playwright API):

- `site`: the built site (a folder), built once per test run with the npm Pyodide core;
- `serve_folder(folder)`: a function that serves a folder for the rest of the session and
  returns its base URL; `base_url` is the built site's;
- `browser`: one Chromium per session (never downloaded: /usr/bin/chromium);
- `new_context(**options)`: a fresh browser context, closed after the test;
- `open_chapter(...)`: a `ChapterPage` on the chapter with figures, requests to the CDN
  aborted so that "numpy cannot be downloaded" happens fast and the same way every time; once
  the test has passed, every page it opened must have raised no uncaught error.

Without Playwright or Chromium the tests are skipped with the reason, unless
ATTN_REQUIRE_BROWSER is set (as CI does), where they fail instead.
"""
from __future__ import annotations

import hashlib
import itertools
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from builder.serve import static_server
from tests.conftest import once_per_run, pyodide_kit  # noqa: F401 (browser tests import pyodide_kit from here too)

from . import chromium

try:
    from playwright.sync_api import TimeoutError as PlaywrightTimeout, expect
except ImportError:  # the browser fixture skips (or fails) with the reason
    expect = PlaywrightTimeout = None

ROOT = Path(__file__).resolve().parents[2]
CHAPTER = "04-scores-to-weights.html"  # the chapter the runtime tests open
PYODIDE_FILES = "**/pyodide/**"  # where a build puts Pyodide's own files
REFUSE_PYODIDE = (PYODIDE_FILES, lambda route: route.abort())  # a route: Python unavailable at once
# An init script: a browser that cannot start a worker (so Python never starts, and says why)
NO_WORKERS = "window.Worker = class { constructor() { throw new Error('workers are off in this browser'); } };"


def chapter_pages() -> list[str]:
    """Every chapter page of the series, in reading order (from content/site.toml)."""
    from builder.site_config import load_site_config

    return [f"{entry.path.stem}.html" for entry in load_site_config(ROOT / "content").chapters]

FIGURES = ("softmax-bars", "softmax-temperature", "scaling-experiment")  # the figures that chapter holds
CDN = "https://cdn.jsdelivr.net/**"  # where Pyodide fetches numpy when the build does not vendor it
AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
# axe from a page's own origin (a route), for a page whose policy refuses the inline script
# serious_violations adds otherwise
AXE_URL = "/__test/axe.min.js"
AXE_ROUTE = ("**" + AXE_URL, lambda route: route.fulfill(path=str(AXE), content_type="text/javascript"))
SETTLE_MS = 90_000  # how long the runtime may take to reach ready or unavailable
PHONE = {"viewport": {"width": 375, "height": 800}, "has_touch": True}  # context options: a phone's screen and touch

# Records every data-stage the runtime status passes through in window.__runtimeStages.
RECORD_STAGES = """
window.__runtimeStages = [];
document.addEventListener("DOMContentLoaded", () => {
  const el = document.querySelector("[data-runtime-status]");
  if (!el) return;
  const note = () => {
    const s = el.dataset.stage;
    if (s && window.__runtimeStages[window.__runtimeStages.length - 1] !== s) window.__runtimeStages.push(s);
  };
  note();
  new MutationObserver(note).observe(el, { attributes: true, attributeFilter: ["data-stage"] });
});
"""


# An init script: window.__posted lists [type, name] of every message the page posts to any of its
# workers, as it posts it (a figure's ask posts within the event that asked: context.js ask()).
RECORD_POSTS = """(() => {
  window.__posted = [];
  const post = Worker.prototype.postMessage;
  Worker.prototype.postMessage = function (m) { window.__posted.push([m.type, m.name ?? null]); return post.call(this, m); };
})();"""


def after_a_frame(page) -> None:
    """Wait until the page has rendered a frame after this call, and the next one, and run a task
    queued after them: by then the callbacks of its observers (ResizeObserver, run in the frame;
    IntersectionObserver, a task the frame queues) have run for whatever changed before the call,
    and so has what figures.js starts after a frame and a task (startSoon)."""
    page.evaluate("() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(r))))")


def wait_for_fallback(page, img) -> None:
    """Scroll a fallback <img> into view and wait until it has loaded: fallbacks load lazily."""
    img.scroll_into_view_if_needed()
    page.wait_for_function("i => i.complete && i.naturalWidth > 0", arg=img.element_handle(), timeout=5_000)


def serious_violations(page, rules: tuple[str, ...] = (), from_origin: bool = False) -> list[dict]:
    """axe-core's serious and critical findings on the page: by every rule it runs by default, or
    by `rules` alone. axe is added once, inline, or `from_origin` (AXE_URL, for a page whose policy
    refuses inline scripts: AXE_ROUTE must be among its routes)."""
    assert AXE.is_file(), f"{AXE} is missing: run 'npm ci' (axe-core is a dev dependency)"
    if not page.evaluate("typeof axe !== 'undefined'"):
        page.add_script_tag(**({"url": AXE_URL} if from_origin else {"path": str(AXE)}))
    return page.evaluate("""async (rules) => {
        const result = await axe.run(document, { resultTypes: ["violations"], ...(rules.length ? { runOnly: rules } : {}) });
        return result.violations
          .filter((v) => v.impact === "serious" || v.impact === "critical")
          .map((v) => ({ id: v.id, impact: v.impact, help: v.help,
                         nodes: v.nodes.map((n) => ({ target: n.target.join(" "), html: n.html,
                                                      summary: n.failureSummary })) }));
    }""", list(rules))


def rgb(hex_colour: str) -> tuple[int, int, int]:
    """A palette colour ("#rrggbb", theme/palette.toml) as the red, green and blue a screenshot's pixels hold."""
    return tuple(int(hex_colour[i:i + 2], 16) for i in (1, 3, 5))


def figure_numbers(figure) -> list[str]:
    """The key numbers a figure (a locator) lists under its view."""
    return [t.strip() for t in figure.locator("ul.figure-numbers li").all_text_contents()]


def draw_every_figure(page, timeout: float = 15_000) -> None:
    """Wait until every figure of the page has drawn its embedded data ("prerendered"). A view loads
    as its figure nears the screen (theme/js/figures.js), so each figure is scrolled to in turn, as
    a reader would, then the page goes back to where it was."""
    y = page.evaluate("scrollY")
    for figure in page.locator("[data-figure]").all():
        figure.scroll_into_view_if_needed()
        expect(figure).to_have_attribute("data-state", "prerendered", timeout=timeout)
    page.evaluate("(y) => scrollTo(0, y)", y)


def _unavailable(reason: str):
    if os.environ.get("ATTN_REQUIRE_BROWSER"):
        pytest.fail(reason + " (ATTN_REQUIRE_BROWSER is set, so browser tests must run)")
    pytest.skip(reason)


# --- the site and its server -------------------------------------------------------------

@pytest.fixture(scope="session", autouse=True)
def _figures_computed_once(shared_figure_cache):
    """Every build in these tests computes and draws a figure once per session (tests/conftest.py)."""


@pytest.fixture(scope="session")
def serve_folder():
    """serve_folder(folder) -> base URL ending in '/'; every server is shut down at session end."""
    servers = []

    def serve(folder: Path) -> str:
        server = static_server(folder)  # the same server as `build.py serve`
        servers.append(server)
        return f"http://127.0.0.1:{server.server_address[1]}/"

    yield serve
    for server in servers:
        server.shutdown()
        server.server_close()


def _built_once(request, tmp_path_factory, name: str, pyodide_dist: Path | None) -> Path:
    """The series built once per test run (tests/conftest.py once_per_run). Builds are reproducible,
    and no test writes into these folders (a test that changes a site builds its own)."""
    from builder.build import Paths, build

    return once_per_run(request, tmp_path_factory, name,
                        lambda folder: build(Paths.at(ROOT), folder / "dist", pyodide_dist=pyodide_dist)) / "dist"


@pytest.fixture(scope="session")
def site(request, tmp_path_factory) -> Path:
    """The site built from this repository with the npm Pyodide core (numpy not vendored)."""
    return _built_once(request, tmp_path_factory, "browser-site", None)


@pytest.fixture(scope="session")
def base_url(site, serve_folder) -> str:
    return serve_folder(site)


@pytest.fixture(scope="session")
def real_site(request, tmp_path_factory, serve_folder) -> dict:
    """The site built with Pyodide and numpy vendored from pyodide_kit(), as readers get it from
    the published site: {"out": its folder, "url": its base URL}."""
    out = _built_once(request, tmp_path_factory, "browser-site-real", pyodide_kit())
    return {"out": out, "url": serve_folder(out)}


@pytest.fixture(scope="session")
def stand_in_distribution(tmp_path_factory) -> Path:
    """A Pyodide distribution folder: the npm core, and a lock whose numpy entry is a tiny pure-Python
    wheel. It exercises everything on the vendored path that does not need numpy's code."""
    return make_stand_in_distribution(tmp_path_factory.mktemp("pyodide-stand-in"))


def make_stand_in_distribution(folder: Path) -> Path:
    """stand_in_distribution's folder, made in `folder` (benchmarks/site.py makes one too)."""
    import base64
    import hashlib
    import json
    import shutil
    import zipfile

    from builder.runtime import loaded_files

    core = ROOT / "node_modules" / "pyodide"
    folder.mkdir(parents=True, exist_ok=True)
    for name in loaded_files(core):
        shutil.copyfile(core / name, folder / name)
    lock = json.loads((core / "pyodide-lock.json").read_text())
    entry = lock["packages"]["numpy"]
    files = {"numpy/__init__.py": b"__version__ = '0.0+stand-in'\nSTAND_IN = True\n",
             f"numpy-{entry['version']}.dist-info/METADATA": f"Metadata-Version: 2.1\nName: numpy\nVersion: {entry['version']}\n".encode(),
             f"numpy-{entry['version']}.dist-info/WHEEL": b"Wheel-Version: 1.0\nRoot-Is-Purelib: true\nTag: py3-none-any\n"}
    record = "".join(f"{n},sha256={base64.urlsafe_b64encode(hashlib.sha256(d).digest()).rstrip(b'=').decode()},{len(d)}\n"
                     for n, d in files.items()) + f"numpy-{entry['version']}.dist-info/RECORD,,\n"
    files[f"numpy-{entry['version']}.dist-info/RECORD"] = record.encode()
    wheel = folder / entry["file_name"]
    with zipfile.ZipFile(wheel, "w") as zf:
        for n, d in files.items():
            zf.writestr(n, d)
    entry["sha256"] = hashlib.sha256(wheel.read_bytes()).hexdigest()
    (folder / "pyodide-lock.json").write_text(json.dumps(lock))
    return folder


@pytest.fixture(scope="session")
def scratch_page(serve_folder, tmp_path_factory):
    """scratch_page(markdown, pyodide_dist=None) -> the URL of a one-chapter site built from
    `markdown`: a figure tested with options no chapter uses, or before a chapter holds it
    (with `pyodide_dist`, Pyodide and numpy vendored from it, as pyodide_kit() gives)."""
    from builder.build import Paths, build

    def make(markdown: str, pyodide_dist: Path | None = None) -> str:
        folder = tmp_path_factory.mktemp("scratch-site")
        content = folder / "content"
        content.mkdir()
        (content / "site.toml").write_text('[site]\ntitle = "Scratch"\n\n[[chapters]]\nfile = "01-scratch.md"\n')
        (content / "01-scratch.md").write_text(markdown)
        build(Paths.at(ROOT, content), folder / "dist", pyodide_dist=pyodide_dist)  # its model: the run's store
        return serve_folder(folder / "dist") + "01-scratch.html"
    return make


# --- the browser ---------------------------------------------------------------------------

@pytest.fixture(scope="session")
def browser():
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _unavailable("the Python package playwright is not installed (pip install -e '.[test]')")
    if not chromium.CHROMIUM.is_file():
        _unavailable(f"no Chromium at {chromium.CHROMIUM} (apt-get install chromium); browsers are never downloaded")
    pw = sync_playwright().start()
    try:
        browser = chromium.launch(pw)
    except BaseException:
        pw.stop()
        raise
    yield browser
    browser.close()
    pw.stop()


def browser_context(browser, **options):
    """A fresh BrowserContext with the tests' default timeout."""
    context = browser.new_context(**options)
    context.set_default_timeout(15_000)
    return context


@pytest.fixture
def new_context(browser):
    """new_context(**options) -> a fresh BrowserContext, closed when the test ends."""
    contexts = []

    def make(**options):
        # Playwright's wait_for_function and add_script_tag run code in the page that the pages'
        # strict Content-Security-Policy (rightly) refuses; test_csp.py passes bypass_csp=False.
        options.setdefault("bypass_csp", True)
        context = browser_context(browser, **options)
        contexts.append(context)
        return context

    yield make
    for context in contexts:
        context.close()


# --- steps several test files take -------------------------------------------------------

def save_for_offline(page) -> None:
    """Press "Save for offline reading" and wait until every file is saved, the size shown first."""
    box = page.locator("[data-offline]")
    page.locator("footer").scroll_into_view_if_needed()  # the control's service worker registers as it nears
    expect(box).to_be_visible(timeout=15_000)
    button = page.get_by_role("button", name="Save for offline reading")
    expect(box.locator("[data-offline-note]")).to_contain_text(" MB")  # the size, before saving
    button.click()
    expect(box).to_have_attribute("data-state", "saved", timeout=60_000)
    expect(box.locator("[data-offline-note]")).to_contain_text("available offline")
    bar = box.locator("progress")
    assert bar.evaluate("b => b.value === b.max && b.max > 1e6"), "the progress bar did not reach the size"


SHOWN = "() => performance.getEntriesByName('attention:page-shown').length"  # pages shown in place (nav.js)


def follow(page, link) -> None:
    """Click `link` and wait until its page is shown in place."""
    before = page.evaluate(SHOWN)
    link.click()
    page.wait_for_function(f"(n) => ({SHOWN})() > n", arg=before)


def type_code(section, code: str) -> None:
    """Replace the code in an exercise's editor, as typed (test_real_python.py pastes instead)."""
    editor = section.locator(".cm-content")
    editor.click()
    editor.press("Control+a")
    editor.page.keyboard.insert_text(code)


# --- a page under its Content-Security-Policy ------------------------------------------------

RECORD_VIOLATIONS = """
window.__csp = [];
document.addEventListener("securitypolicyviolation", (e) => {
  window.__csp.push(e.effectiveDirective + " blocked " + (e.blockedURI || "?") + " at " + e.sourceFile + ":" + e.lineNumber);
});
"""


class Visit:
    """One page opened with the policy enforced (bypass_csp=False), and every violation, error and
    request it reports. `new_context(**options)` makes its context (VIEW: a screen's options)."""

    def __init__(self, new_context, url: str, routes=(), **view):
        # a routed file is not this build's: the service worker would rightly refuse it
        context = new_context(bypass_csp=False, **({"service_workers": "block"} if routes else {}), **view)
        context.route(CDN, lambda route: route.abort())  # numpy's CDN is unreachable here anyway
        for pattern, handler in routes:
            context.route(pattern, handler)
        self.page = context.new_page()
        self.console: list[str] = []
        self.errors: list[str] = []
        self.requests: list[str] = []  # every URL the page asked for, routed or aborted ones too
        self.page.on("request", lambda r: self.requests.append(r.url))
        self.page.on("console", lambda m: self.console.append(f"{m.type}: {m.text}"))
        self.page.on("pageerror", lambda err: self.errors.append(str(err)))
        self.page.add_init_script(RECORD_VIOLATIONS)
        self.page.goto(url)
        self.page.wait_for_load_state("load")

    def violations(self) -> list[str]:
        events = self.page.evaluate("window.__csp")
        logged = [m for m in self.console if "Content Security Policy" in m or "Content-Security-Policy" in m]
        return events + logged

    def poll(self, script: str, arg=None, timeout: float = 10.0) -> bool:
        """Evaluate `script` (a function of arg) until it returns true; False on timeout."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.page.evaluate(script, arg):
                return True
            time.sleep(0.05)
        return False

    def scroll_through(self) -> None:
        """Scroll to the end a screen at a time, so that lazy images load and every figure comes on
        screen: each part of the page is in view for one frame, whose rendering runs the page's
        intersection observers, before the next scroll."""
        self.page.evaluate("""async () => {
            for (let y = 0; y < document.documentElement.scrollHeight; y += innerHeight) {
              scrollTo(0, y);
              await new Promise((r) => requestAnimationFrame(() => setTimeout(r)));  // after the frame
            }
            // Hidden lazy images (fallbacks behind a drawn view) never load: wait for the shown ones.
            const shown = [...document.images].filter((i) => i.checkVisibility());
            await Promise.all(shown.map((i) => i.decode().catch(() => {})));
        }""")

    def fetched_runtime(self, expected: bool) -> bool:
        """Whether the page has asked for anything of the runtime. One that uses Python has once its
        start has run: polled until it has, for up to a minute (on chapter 6, whose only use is its
        exercise, that start is the exercise's code loading as scroll_through brings it near, then its
        grader's worker, a chain of fetches a loaded machine took longer than the 3 s once allowed).
        One that does not is asked once what would have to come first
        has happened: scroll_through brought every part near the screen, and a frame and a task more
        let a start that waits for them run (figures.js startSoon); the requests Playwright reported
        and the page's own record of what it loaded are read."""
        runtime = lambda url: any(part in url for part in RUNTIME_FILES)  # noqa: E731
        asked = lambda: any(runtime(url) for url in self.requests)  # noqa: E731
        if expected:
            if asked():
                return True
            try:  # the page's next request for the runtime, within a minute
                self.page.wait_for_event("request", predicate=lambda r: runtime(r.url), timeout=60_000)
            except PlaywrightTimeout:
                return False
            return True
        after_a_frame(self.page)
        loaded = self.page.evaluate("""(parts) => performance.getEntriesByType("resource")
                                         .some((e) => parts.some((p) => e.name.includes(p)))""", list(RUNTIME_FILES))
        return loaded or asked()

    def use_every_figure(self, where: str, live: bool) -> None:
        """Focus each figure's key control (the one its view marks with data-key-control="<key>"), press
        the key, and wait until the figure shows something new: the control takes focus, nothing overflows
        the screen afterwards, and with Python `live` no note says something went wrong."""
        page = self.page
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
            changed = self.poll(f"([fig, before]) => ({SNAPSHOT})(fig) !== before", [fig.element_handle(), before], timeout=30.0)
            assert changed, f"{where}: pressing {key} in figure {name} changed nothing"
            if live:
                expect(fig.locator(".figure-note")).to_be_hidden()
        width = page.viewport_size["width"]
        scroll_width = page.evaluate("document.documentElement.scrollWidth")
        assert scroll_width <= width, f"{where}: the page overflows to {scroll_width}px after using the figures"

    def boot_runtime(self, want: str) -> dict:
        """Every figure drawn, then the first live figure scrolled on screen (which starts Python);
        returns the runtime's status once it is `want`."""
        draw_every_figure(self.page)
        self.page.locator("[data-figure][data-live]").first.scroll_into_view_if_needed()
        status = self.page.locator("[data-runtime-status]")
        expect(status).to_have_attribute("data-state", want, timeout=SETTLE_MS)
        return status.evaluate("e => ({state: e.dataset.state, stage: e.dataset.stage, text: e.textContent})")


RUNTIME_FILES = ("/pyodide/", "/runtime/worker.js", "/runtime/runtime.js")  # what a page that uses Python fetches
SNAPSHOT = """(fig) => fig.querySelector(".figure-view").innerHTML + "\\n" + fig.querySelector(".figure-numbers").textContent"""


def uses_python(site: Path, name: str) -> bool:
    """A chapter with a live figure or an exercise: a page that fetches the runtime (the print
    edition's figures and exercises are static: it uses nothing)."""
    html = (site / name).read_text()
    return name in chapter_pages() and ("data-live" in html or "data-exercise" in html)


@pytest.fixture
def csp_visit(new_context):
    """csp_visit(url, width, routes=()) -> a Visit: the page at that width, its policy enforced."""
    return lambda url, width, routes=(): Visit(new_context, url, routes, viewport={"width": width, "height": 800})


class ChapterPage:
    """The chapter page with figures, and what the tests ask of it."""

    def __init__(self, page, cdn_requests: list[str], page_errors: list[str]):
        self.page = page
        self.cdn_requests = cdn_requests  # requests to the CDN (all aborted)
        self.page_errors = page_errors  # uncaught exceptions in the page

    # figures
    def figure(self, name: str):
        return self.page.locator(f'[data-figure="{name}"]')

    def figure_names(self) -> list[str]:
        return self.page.eval_on_selector_all("[data-figure]", "els => els.map(e => e.dataset.figure)")

    def figure_states(self) -> dict[str, str]:
        return dict(self.page.eval_on_selector_all(
            "[data-figure]", "els => els.map(e => [e.dataset.figure, e.dataset.state])"))

    def data(self, name: str) -> dict:
        """The figure's data as embedded by the build."""
        return json.loads(self.figure(name).locator(".figure-data").text_content())

    def numbers(self, name: str) -> list[str]:
        return figure_numbers(self.figure(name))

    def scroll_width(self) -> int:
        """How wide the page scrolls: wider than the screen means something overflows."""
        return self.page.evaluate("document.documentElement.scrollWidth")

    def wait_prerendered(self, timeout: float = 15_000) -> None:
        assert self.figure_names(), "the chapter page has no [data-figure]"
        draw_every_figure(self.page, timeout)

    # runtime
    @property
    def status_el(self):
        return self.page.locator("[data-runtime-status]")

    def status(self) -> dict:
        return self.status_el.evaluate(
            "e => ({state: e.dataset.state, stage: e.dataset.stage ?? null, text: e.textContent.trim()})")

    def stages(self) -> list[str]:
        return self.page.evaluate("window.__runtimeStages || []")

    def start_runtime(self) -> None:
        """Bring the first live figure into view, which is what starts Python without interaction."""
        self.page.locator("[data-figure][data-live]").first.scroll_into_view_if_needed()

    def wait_settled(self, timeout: float = SETTLE_MS) -> dict:
        """Wait until the runtime is ready or unavailable; returns the status."""
        self.page.wait_for_function(
            """() => ["ready", "unavailable"].includes(
                 document.querySelector("[data-runtime-status]").dataset.state)""",
            timeout=timeout)
        return self.status()


OPENED = pytest.StashKey[list]()  # the ChapterPages a test opened, whose pages must raise nothing


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item):
    """Once a test's own steps have passed, no chapter it opened (open_chapter) raised an uncaught
    error at any point: every test of a chapter checks this, once, here."""
    result = yield
    for chapter in item.stash.get(OPENED, ()):
        assert chapter.page_errors == [], f"{chapter.page.url}: uncaught errors in the page: {chapter.page_errors}"
    return result


@pytest.fixture
def open_chapter(request, new_context, base_url):
    """open_chapter(url=None, routes=(), init_script=None, pyodide=False, **context_options) -> ChapterPage.

    `routes` is a list of (pattern, handler) added to the context before the page opens;
    the CDN is always routed away (aborted). Pyodide's files are refused too unless `pyodide`:
    booting it costs a page several CPU-seconds, which tests of the embedded data do not need, and
    without it the page finds Python unavailable at once, as on a network that drops those files
    (the tests of the boot itself ask for it). The page is loaded, not yet waited on. Once the test
    has passed, its pages must have raised no uncaught error (pytest_runtest_call above).
    """
    opened = request.node.stash.setdefault(OPENED, [])

    def open_(url: str | None = None, routes=(), init_script: str | None = None, pyodide: bool = False,
              **context_options):
        if routes:  # a routed file is not this build's: the service worker would rightly refuse it
            context_options.setdefault("service_workers", "block")
        context = new_context(**context_options)
        cdn_requests: list[str] = []

        def abort_cdn(route):
            cdn_requests.append(route.request.url)
            route.abort()

        context.route(CDN, abort_cdn)
        if not pyodide:
            context.route(*REFUSE_PYODIDE)
        for pattern, handler in routes:  # later routes win
            context.route(pattern, handler)
        page = context.new_page()
        page_errors: list[str] = []
        page.on("pageerror", lambda err: page_errors.append(str(err)))
        page.add_init_script(RECORD_STAGES)
        if init_script:
            page.add_init_script(init_script)
        page.goto(url or base_url + CHAPTER)
        opened.append(ChapterPage(page, cdn_requests, page_errors))
        return opened[-1]

    return open_


# --- the live path with the engine on CPython ----------------------------------------------
# numpy cannot be loaded into Pyodide here, so the real worker never reaches "ready". This
# stand-in worker is a third backend of the site's own server.js (the protocol, slices,
# throttling, cancelling): each call and each job's start, advance and drop crosses to CPython by
# a fetch to /__stand-in/<what> that the test fulfils with the engine's own entry points, so what
# runs is everything in the page and the server against real engine output. The calls are listed
# once, in StandIn.CALLS: the worker's script is made from that list.
FAKE_WORKER = """
import { serve } from "./server.js";

const held = {}; // name -> address of each file given: the engine on CPython holds none, each call carries them
// the files a message names, of those given, as the page's worker hands its engine (worker.js withGiven)
const part = (files) => Object.fromEntries(Object.keys(files ?? {}).filter((n) => n in held).map((n) => [n, held[n]]));
const call = async (what, body) => (await fetch("/__stand-in/" + what, { method: "POST", body: JSON.stringify(body) })).json();
serve({
  boot: () => {},
  // (a prepare names none, and reads all the worker holds, as worker.js's does)
  calls: Object.fromEntries(%s.map((what) => [what, (message) => call(what, { ...message, files: what === "prepare" ? held : part(message.files) })])),
  jobs: {
    start: async (name, job, params, warm, files) => (await call("start", { name, job, params, warm, files: part(files) })).handle,
    advance: (handle, seconds) => call("advance", { handle, seconds }),
    drop: (handle) => call("drop", { handle }),
  },
  give: async (name, url) => {  // the engine on CPython fetches it by its address, with each call
    const response = await fetch(url);
    if (!response.ok) throw new Error("The figure's model could not be downloaded: HTTP " + response.status);
    // a file the page made (an object URL, such as the reader's own model) travels as a data: URL
    held[name] = url.startsWith("blob:") ? new FileReaderSync().readAsDataURL(await response.blob())
      : new URL(url, self.location.href).href;
  },
});
"""


class StandIn:
    """The CPython side of the stand-in worker, one per page (its browser context): the routes that
    serve the page the stand-in's worker.js and answer its fetches, its own table of running jobs,
    and every request it was asked, in order. `slow_jobs`: a job's advance has no time budget, one
    training step per slice, so a job lasts long enough (a round trip per step) to watch its
    progress, pause or cancel it."""

    CALLS = ("compute", "prepare", "grade")  # the worker's calls (server.js backend.calls), the engine answering each below

    def __init__(self, slow_jobs: bool = False):
        self.slow_jobs = slow_jobs
        self.jobs: dict[int, object] = {}  # handle -> engine.figures.FigureJob, while it runs
        self.asked: list[tuple[str, dict]] = []  # (what, request) of every fetch but a give, in order
        self.dropped: dict[int, bool] = {}  # handle -> whether the job had run to its end when the worker dropped it
        self._handles = itertools.count(1)
        self._done: set[int] = set()  # handles whose last advance ended the job

    def routes(self) -> list:
        """(pattern, handler) pairs for a context (open_chapter's routes=)."""
        worker = FAKE_WORKER % json.dumps(list(self.CALLS))
        return [("**/assets/*/runtime/worker.js",
                 lambda route: route.fulfill(status=200, content_type="text/javascript", body=worker)),
                ("**/__stand-in/*", self._answer)]

    def params(self, what: str) -> list[dict]:
        """The options of every `what` (compute, prepare, start: a job, warm-ups left out) asked so far, in order."""
        return [request["params"] for asked, request in self.asked if asked == what and not request.get("warm")]

    def wait(self, page, condition, timeout: float = 15.0) -> None:
        """Until condition() holds: it reads what the stand-in was asked, so it is checked as each
        request of the page's context (the worker's fetches to the stand-in) finishes."""
        if condition():
            return
        try:
            page.context.wait_for_event("requestfinished", predicate=lambda _: condition(), timeout=timeout * 1000)
        except PlaywrightTimeout:
            raise AssertionError("the stand-in was never asked what the test waits for") from None

    def _answer(self, route) -> None:
        from engine.figures import FigureJob, compute_json, prepare_json

        from .figures.helpers import given_from

        what = route.request.url.rsplit("/", 1)[1]
        request = json.loads(route.request.post_data)
        self.asked.append((what, request))
        given = given_from(request.get("files"))  # what the worker was given, as the page's worker holds it
        if what == "compute":
            body = compute_json(request["name"], json.dumps(request["params"]), given)
        elif what == "prepare":
            prepare_json(request["name"], json.dumps(request["params"]), given)
            body = json.dumps({"ok": True, "data": None})
        elif what == "grade":
            body = _grade_in_a_process(request["exercise"], request["code"])
        elif what == "start":
            handle = next(self._handles)
            self.jobs[handle] = FigureJob.from_json(request["name"], request["job"], json.dumps(request["params"]),
                                                    request["warm"], given)
            body = json.dumps({"handle": handle})
        elif what == "advance":
            body = self.jobs[request["handle"]].advance_json(0.0 if self.slow_jobs else request["seconds"])
            if json.loads(body).get("data", {}).get("done"):
                self._done.add(request["handle"])
        else:  # drop
            self.jobs.pop(request["handle"], None)
            self.dropped[request["handle"]] = request["handle"] in self._done
            body = "{}"
        route.fulfill(status=200, content_type="application/json", body=body)


def live_routes(slow_jobs: bool = False) -> list:
    """The routes of a new StandIn: a page whose worker is the stand-in (its own job table)."""
    return StandIn(slow_jobs).routes()


GRADE_SECONDS = 7  # past the page's own limit (grader.js TIME_LIMIT_MS): the page gives up first


def _grade_in_a_process(exercise: str, code: str) -> str:
    """The reader's code graded by the engine in a child process, so a runaway loop in a test
    cannot hang the test run (in the browser the page stops the worker instead)."""
    try:
        done = subprocess.run([sys.executable, "-c", "import sys; from engine.exercises import grade_json; "
                               "print(grade_json(sys.argv[1], sys.stdin.read()))", exercise],
                              input=code, capture_output=True, text=True, timeout=GRADE_SECONDS, cwd=ROOT)
    except subprocess.TimeoutExpired:
        return json.dumps({"ok": False, "error": "the stand-in's grader ran out of time"})
    return done.stdout or json.dumps({"ok": False, "error": done.stderr.strip().splitlines()[-1]})


@pytest.fixture
def open_live_chapter(open_chapter):
    """open_live_chapter(url=None, routes=(), slow_jobs=False, **options) -> a ChapterPage whose worker
    is a StandIn of its own (chapter.stand_in: its jobs and what it was asked), prerendered; `routes`
    override the stand-in's (later routes win), `slow_jobs` gives it a step per slice (StandIn)."""

    def open_(url: str | None = None, routes=(), slow_jobs: bool = False, **options):
        stand_in = StandIn(slow_jobs)
        chapter = open_chapter(url, routes=[*stand_in.routes(), *routes], **options)
        chapter.stand_in = stand_in
        chapter.wait_prerendered()
        return chapter

    return open_
