"""The series in the two other engines readers use, Firefox (Gecko) and WebKitGTK (Safari's engine),
from Debian's packages (tests/browser/engines.py drives them): every page read without a page error,
a live figure per live chapter computed in Pyodide with real numpy as the engine computes it on
CPython, an exercise graded, saving for offline, and a page read with JavaScript off.

Each engine visits every page once, in one document: the first page loads, then every link is
followed in place (theme/js/nav.js), so Python boots once per engine and errors are collected from
that document for the whole visit (the first page's own start-up runs before the collector exists).
Without a browser the tests skip, saying why; with ATTN_REQUIRE_BROWSER set (CI) they fail."""
from __future__ import annotations

import json
import re
import time

import pytest

from engine.figures import module
from tests.engine.exercises.test_graders import SOFTMAX

from . import asks, engines
from .conftest import _unavailable, chapter_pages
from .test_real_python import RECORD, _check_answers

PAGE_S = 30  # a page shown in place, its figures' views loaded
BOOT_S = 180  # Python's boot, or one answer of a live figure, in a loaded 2-core machine
EXERCISE = ("04-scores-to-weights.html", "softmax")  # the exercise graded in each engine
SHOWN = "return performance.getEntriesByName('attention:page-shown').length"


def _wait(engine, script: str, seconds: float, *args, what: str = ""):
    """Run `script` in the page until it returns something truthy; that value."""
    deadline = time.monotonic() + seconds
    while True:
        value = engine.run(script, *args)
        if value:
            return value
        assert time.monotonic() < deadline, f"{engine.name}: timed out waiting for {what or script}"
        time.sleep(0.1)


@pytest.fixture(scope="module", params=["firefox", "webkit"])
def engine(request):
    reason = engines.missing(request.param)
    if reason:
        _unavailable(f"{request.param}: {reason}")
    browser = engines.start(request.param)
    yield browser
    browser.quit()


def _show_in_place(engine, url: str) -> None:
    """Follow a link to `url` as a reader clicks one, and wait until nav.js shows it in place."""
    before = engine.run(SHOWN)
    engine.run("const a = document.createElement('a'); a.href = arguments[0]; document.body.append(a); a.click(); a.remove();", url)
    _wait(engine, SHOWN + " > arguments[0]", PAGE_S, before, what=f"{url} shown in place")


def _figure_to_ask(site, page: str) -> str | None:
    """The page's first live figure whose question is one computation (no training job): cheap to ask."""
    live = re.findall(r'data-figure="([a-z0-9-]+)"[^>]*\bdata-live\b', (site / page).read_text())
    return next((n for n in live if not getattr(module(n), "JOBS", None)), None)


def _ask(engine, name: str) -> None:
    """Do to figure `name` what its ASK (asks.py) says a reader does to make it ask Python."""
    data = json.loads(engine.run(f'return document.querySelector(\'[data-figure="{name}"] .figure-data\').textContent'))
    ask = asks.ask(name, data)
    # The target, marked so the driver can reach it as an element (by role and name, as a reader finds
    # it), once the figure's view, which loads as the figure nears the screen, has drawn it.
    _wait(engine, """
      const [fig, ask] = [document.querySelector(`[data-figure="${arguments[0]}"]`), arguments[1]];
      fig.scrollIntoView({block: "center"});
      let el;
      if (ask.button) el = [...fig.querySelectorAll("button")].find((b) => b.textContent.trim() === ask.button);
      else if (ask.label) el = [...fig.querySelectorAll("label")].find((l) => l.textContent.trim().startsWith(ask.label))?.control
                              || fig.querySelector(`[aria-label^="${ask.label}"]`);
      else el = [...fig.querySelectorAll(ask.on)].at(ask.nth ?? 0);
      document.querySelectorAll("[data-engine-target]").forEach((e) => e.removeAttribute("data-engine-target"));
      el?.setAttribute("data-engine-target", "");
      return !!el;
    """, PAGE_S, name, ask, what=f"figure {name}'s control")
    target = engine.element("[data-engine-target]")
    if "press" in ask:
        target.send_keys({"ArrowUp": engine.ARROW_UP, "Enter": engine.ENTER}[ask["press"]])
    elif "select" in ask:  # a menu's choice as the page receives it (drivers differ on native menus)
        engine.run("const s = arguments[0]; s.value = arguments[1]; s.dispatchEvent(new Event('input', {bubbles: true}));"
                   "s.dispatchEvent(new Event('change', {bubbles: true}));", target, ask["select"])
    elif "fill" in ask:
        target.clear()
        target.send_keys(ask["fill"] + engine.ENTER)
    else:
        target.click()


def _grade(engine, name: str, code: str, state: str) -> str:
    """Type `code` into exercise `name`'s editor over what it holds, press Run, and return the verdict
    once it is `state`. Each line is typed without its indent, which the editor adds as it does for a
    reader (a synthetic paste is no way in: Firefox gives a script's clipboard data to no page)."""
    engine.run("""document.querySelector(`[data-exercise="${arguments[0]}"] .exercise-code`)
                    .shadowRoot.querySelector(".cm-content").focus()""", name)
    engine.replace_focused_text(engine.ENTER.join(line.lstrip() for line in code.strip().splitlines()))
    typed = engine.run("""return [...document.querySelector(`[data-exercise="${arguments[0]}"] .exercise-code`)
                                     .shadowRoot.querySelectorAll(".cm-line")].map((l) => l.textContent).join("\\n")""", name)
    # the editor indents by its own unit (two spaces), which Python reads the same
    assert typed.split() == code.split(), f"{engine.name}: the editor holds {typed!r}"
    engine.element(f'[data-exercise="{name}"] [data-action="run"]').click()
    return _wait(engine, """const r = document.querySelector(`[data-exercise="${arguments[0]}"] [data-exercise-result]`);
                            return r.dataset.state === arguments[1] && r.textContent""", BOOT_S, name, state,
                 what=f"exercise {name} {state}")


def _save_for_offline(engine) -> None:
    """The foot's "Save for offline reading" saves every file (both engines run service workers on
    127.0.0.1; an engine without them would hide the control, which offline.js says, and fail here)."""
    engine.run("document.querySelector('footer').scrollIntoView()")  # near: the service worker registers
    _wait(engine, "return !document.querySelector('[data-offline]').hidden", PAGE_S, what="the offline control")
    engine.element("[data-offline-save]").click()
    note = _wait(engine, "const b = document.querySelector('[data-offline]');"
                 "return b.dataset.state === 'saved' && b.querySelector('[data-offline-note]').textContent", BOOT_S,
                 what="saved for offline")
    assert "available offline" in note, note


class _Answers:
    """What _check_answers reads: the worker's answers the page recorded (test_real_python.RECORD)."""

    def __init__(self, engine):
        self.engine = engine

    def answers(self) -> list[dict]:
        return self.engine.run("return window.__answers")


def test_every_page_reads_and_python_answers_as_on_cpython(engine, real_site):
    site, url = real_site["out"], real_site["url"]
    started = time.monotonic()
    engine.goto(url + "index.html")
    engine.run(engines.COLLECT_ERRORS + RECORD)
    pages = ["index.html", *chapter_pages(), "bibliography.html", "search.html"]
    asked = []
    for page in pages:
        if page != pages[0]:  # the first is the page loaded
            _show_in_place(engine, url + page)
        assert engine.run("return location.pathname.endsWith('/' + arguments[0]) && document.querySelector('main h1') !== null", page), page
        name = _figure_to_ask(site, page)
        if name:
            engine.run("document.querySelector('[data-figure][data-live]').scrollIntoView()")  # near: Python boots
            state = _wait(engine, "const s = document.querySelector('[data-runtime-status]').dataset.state;"
                          "return ['ready', 'unavailable'].includes(s) && s", BOOT_S, what=f"{page}: Python")
            assert state == "ready", engine.run("return document.querySelector('[data-runtime-status]').textContent")
            _ask(engine, name)
            _wait(engine, f'const f = document.querySelector(\'[data-figure="{name}"]\');'
                  'return f.dataset.state === "live" && f.getAttribute("aria-busy") !== "true"', BOOT_S, what=f"{page}: {name} live")
            asked.append(name)
        if page == EXERCISE[0]:
            name = EXERCISE[1]
            engine.run(f'document.querySelector(\'[data-exercise="{name}"]\').scrollIntoView()')
            _wait(engine, f'return document.querySelector(\'[data-exercise="{name}"] .exercise-code\')?.shadowRoot?.querySelector(".cm-content") != null',
                  PAGE_S, what="the editor")
            assert SOFTMAX["right"][2] in _grade(engine, name, SOFTMAX["right"][0], "passed")
            assert SOFTMAX["wrong axis"][2] in _grade(engine, name, SOFTMAX["wrong axis"][0], "failed")
        assert engine.run("return window.__engineErrors") == [], f"{engine.name}: {page}"
        assert engine.run("return window.__csp") == [], f"{engine.name}: {page}"
    _save_for_offline(engine)
    live_pages = [p for p in pages if "data-live" in (site / p).read_text()]
    assert len(asked) == len(live_pages), f"every live chapter asks one figure: {asked} on {live_pages}"
    assert _check_answers(_Answers(engine), engine.name) >= len(asked)
    engine.goto(url + "print.html")  # the print edition is loaded, never shown in place
    assert engine.run("return document.querySelectorAll('main h1, main h2').length") > len(chapter_pages())
    print(f"\n{engine.name}: {len(pages) + 1} pages, {len(asked)} live figures and an exercise in {time.monotonic() - started:.0f} s")


# Read in a browser with the page's scripts off: every figure its drawing (loaded, alt text with a
# number) and its key numbers, every formula laid out as MathML, the exercise's starter and solution.
WHOLE_WITHOUT_SCRIPTS = """
const problems = [];
for (const fig of document.querySelectorAll("[data-figure]")) {
  const name = fig.dataset.figure, img = fig.querySelector(".figure-fallback img");
  if (fig.dataset.state !== "static") problems.push(name + ": state " + fig.dataset.state);
  if (!img || !img.complete || !img.naturalWidth || !img.checkVisibility()) problems.push(name + ": no drawing shown");
  else if (!/\\d/.test(img.alt)) problems.push(name + ": alt text without a number");
  if (![...fig.querySelectorAll("ul.figure-numbers li")].some((li) => /\\d/.test(li.textContent))) problems.push(name + ": no key numbers");
}
const maths = [...document.querySelectorAll("math")];
if (!maths.length) problems.push("no formulas");
for (const m of maths) if (!(m.getBoundingClientRect().width > 0)) problems.push("a formula is not laid out: " + m.textContent.slice(0, 40));
const ex = document.querySelector("[data-exercise]");
if (!ex || !ex.querySelector(".exercise-starter").textContent.includes("def ")) problems.push("no starter code");
else if (!ex.querySelector(".exercise-answer").textContent.includes("return")) problems.push("no solution");
if (ex && ex.querySelector('[data-action="run"]').checkVisibility()) problems.push("a Run button that cannot run");
return problems;
"""


@pytest.mark.parametrize("name", ["firefox", "webkit"])
def test_a_chapter_reads_whole_without_javascript(name, real_site):
    reason = engines.missing(name)
    if reason:
        _unavailable(f"{name}: {reason}")
    browser = engines.start(name, javascript=False)
    try:
        browser.goto(real_site["url"] + EXERCISE[0])
        # lazy images: each figure scrolled to, as a reader reaches it, and given time to load
        for i in range(browser.run("return document.querySelectorAll('[data-figure]').length")):
            browser.run("document.querySelectorAll('[data-figure]')[arguments[0]].scrollIntoView()", i)
            _wait(browser, "const i = document.querySelectorAll('[data-figure] .figure-fallback img')[arguments[0]];"
                  "return i.complete", PAGE_S, i, what="a drawing")
        assert browser.run(WHOLE_WITHOUT_SCRIPTS) == []
    finally:
        browser.quit()
