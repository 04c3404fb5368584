"""The Python runtime in the page: deferred start, Pyodide booting from the npm core in a worker,
and what readers see when it cannot run (no numpy offline, a broken download)."""
from __future__ import annotations

import json
import re
import urllib.request

import pytest

from .conftest import CHAPTER, SETTLE_MS, after_a_frame, expect

IDLE_TEXT_HINT = "precomputed"  # the status line before Python starts


def _subsequence(wanted: list[str], seen: list[str]) -> bool:
    it = iter(seen)
    return all(stage in it for stage in wanted)


def _original_scores_line(chapter) -> str:
    return next(t for t in chapter.numbers("softmax-temperature") if t.startswith("Scores"))


def test_pyodide_boots_from_the_npm_core_then_reports_numpy_missing(open_chapter, site):
    """Pyodide itself starts (stages core -> python), numpy cannot come from the CDN (routed
    away as on any offline machine), and the page says so while the figures keep working."""
    version = json.loads((site / "runtime.json").read_text())["pyodideVersion"]
    chapter = open_chapter(pyodide=True)
    chapter.wait_prerendered()
    chapter.start_runtime()
    status = chapter.wait_settled()

    assert status["state"] == "unavailable", status
    assert status["stage"] == "numpy", status
    assert "numpy" in status["text"].lower(), status
    stages = chapter.stages()
    assert _subsequence(["core", "python", "numpy"], stages), f"stages seen: {stages}"
    assert chapter.cdn_requests, "Pyodide never asked the CDN for numpy"
    assert all(f"/pyodide/v{version}/full/" in u for u in chapter.cdn_requests), chapter.cdn_requests
    assert any("numpy" in u for u in chapter.cdn_requests), chapter.cdn_requests

    assert set(chapter.figure_states().values()) == {"prerendered"}, chapter.figure_states()
    figure = chapter.figure("softmax-temperature")
    readout = figure.locator(".figure-controls output")
    before = readout.text_content()
    figure.locator(".figure-controls input[type=range]").press("ArrowLeft")
    expect(readout).not_to_have_text(before)


def test_score_change_without_python_says_so_and_keeps_working(open_chapter):
    chapter = open_chapter()
    chapter.wait_prerendered()
    chapter.start_runtime()
    assert chapter.wait_settled()["state"] == "unavailable"

    figure = chapter.figure("softmax-temperature")
    note = figure.locator(".figure-note")
    expect(note).to_be_hidden()
    scores_before = _original_scores_line(chapter)
    bar = figure.locator("g.score-bar").first
    bar.focus()
    bar.press("ArrowUp")

    expect(note).to_be_visible()
    expect(note).to_contain_text("Python")
    expect(note).to_contain_text("unavailable")
    assert figure.get_attribute("data-state") == "prerendered"
    # The figure shows what it can compute honestly: the embedded scores, not the edited one.
    expect(figure.locator("ul.figure-numbers li").first).to_have_text(scores_before)
    expect(figure.locator("g.score-bar").first).to_be_focused()  # focus survives the redraw

    readout = figure.locator(".figure-controls output")
    before = readout.text_content()
    figure.locator(".figure-controls input[type=range]").press("ArrowRight")
    expect(readout).not_to_have_text(before)
    assert figure.get_attribute("data-state") == "prerendered"


def test_new_draw_asked_while_python_loads_ends_with_a_note(open_chapter):
    """A request made while Python is still loading shows the boot's progress in the figure,
    waits for it, then says it is unavailable. Pyodide's wasm is held back until the request has
    been made, so Python is still loading then however fast or slow the machine is."""
    held, released = [], []

    def hold(route):
        if released:
            route.continue_()
        else:
            held.append(route)

    chapter = open_chapter(pyodide=True, routes=[("**/pyodide.asm.wasm", hold)])
    chapter.wait_prerendered()
    figure = chapter.figure("scaling-experiment")
    button = figure.get_by_role("button", name="Draw new random vectors")
    button.click()  # also starts Python, if nearing the figure has not: a first interaction
    note = figure.locator(".figure-note")
    expect(note).to_contain_text("starting")  # the boot's progress, in the figure itself
    released.append(True)
    for route in held:
        route.continue_()
    expect(note).to_contain_text("unavailable", timeout=SETTLE_MS)
    assert chapter.status()["state"] == "unavailable"
    expect(button).to_be_enabled()
    assert figure.get_attribute("data-state") == "prerendered"

    keys = figure.locator("select")
    shown = keys.input_value()
    other = next(o for o in keys.locator("option").all_inner_texts() if o != shown)
    keys.select_option(other)
    expect(note).to_contain_text("Python")
    expect(keys).to_have_value(shown)  # back to the value the shown data was computed with
    assert figure.get_attribute("data-state") == "prerendered"


# --- deferred start ------------------------------------------------------------------------

# Wraps Worker to note, when the page creates one, whether DOMContentLoaded had fired.
RECORD_WORKERS = """
window.__workers = [];
window.__dcl = false;
document.addEventListener("DOMContentLoaded", () => { window.__dcl = true; });
const NativeWorker = window.Worker;
window.Worker = class extends NativeWorker {
  constructor(url, options) {
    window.__workers.push({ url: String(url), afterDCL: window.__dcl, at: performance.now() });
    super(url, options);
  }
};
"""


def test_status_is_idle_in_the_html(base_url):
    with urllib.request.urlopen(base_url + CHAPTER, timeout=10) as response:
        html = response.read().decode()
    tags = re.findall(r"<[^>]*\bdata-runtime-status\b[^>]*>", html)
    assert len(tags) == 1, tags
    assert 'data-state="idle"' in tags[0], tags[0]
    # Nothing in the HTML itself fetches the runtime: no preload, no script of Pyodide.
    assert not re.search(r"<(?:link|script)\b[^>]*\b(?:href|src)=\"[^\"]*pyodide", html, re.I)


def test_runtime_starts_after_the_page_is_parsed(open_chapter):
    """With a figure on screen Python starts by itself, but only once the page has been parsed
    and the figures drew their embedded data (the worker is created after DOMContentLoaded).

    Request timestamps from Playwright proved unreliable for this (the worker's requests come
    from another target, so their order against the page's events is not guaranteed); the page
    is instrumented instead: Worker is wrapped to note when it is created."""
    chapter = open_chapter(init_script=RECORD_WORKERS, viewport={"width": 1280, "height": 2400})
    page = chapter.page
    expect(chapter.status_el).not_to_have_attribute("data-state", "idle")  # nobody touched the page
    workers = page.evaluate("window.__workers")
    assert len(workers) == 1, workers
    assert workers[0]["url"].endswith("worker.js"), workers
    assert workers[0]["afterDCL"], "the Python worker was created before DOMContentLoaded"
    dcl_end = page.evaluate("performance.getEntriesByType('navigation')[0].domContentLoadedEventEnd")
    assert workers[0]["at"] >= dcl_end, (workers, dcl_end)
    early = page.evaluate("""(end) => performance.getEntriesByType("resource")
        .filter((e) => e.name.includes("/pyodide/") && e.startTime < end).map((e) => e.name)""", dcl_end)
    assert early == [], f"Pyodide files fetched by the page before DOMContentLoaded: {early}"


def test_runtime_waits_until_a_figure_nears_the_viewport(open_chapter):
    """In a short window with the figures far below, Python does not start until one nears."""
    requests: list[str] = []
    chapter = open_chapter(init_script=RECORD_WORKERS, viewport={"width": 1280, "height": 300})
    page = chapter.page
    page.context.on("request", lambda r: requests.append(r.url))
    first = chapter.figure(chapter.figure_names()[0])
    top = first.evaluate("e => e.getBoundingClientRect().top + scrollY")
    assert top > 300 + 200 + 50, f"precondition: the first figure (top {top}px) must start well below the viewport"
    # What would start Python must come first: near.js hears of the figures within a screen below
    # (a frame), their views load and draw, figures.js's observer hears of them (a frame), and a
    # start it asked for waits a frame and a task (startSoon).
    page.wait_for_load_state("load")
    after_a_frame(page)
    for figure in page.locator("[data-figure]").all():
        if figure.evaluate("e => e.getBoundingClientRect().top < 2 * innerHeight"):
            expect(figure).to_have_attribute("data-state", "prerendered")
    after_a_frame(page)
    assert chapter.status()["state"] == "idle", chapter.status()
    assert page.evaluate("window.__workers") == []
    assert not [u for u in requests if "/pyodide/" in u or u.endswith("worker.js")], requests

    first.scroll_into_view_if_needed()
    expect(chapter.status_el).not_to_have_attribute("data-state", "idle")
    assert len(page.evaluate("window.__workers")) == 1


# --- broken runtime ------------------------------------------------------------------------

def _not_found(route):
    route.fulfill(status=404, content_type="text/plain", body="not found")


BROKEN = [
    pytest.param("**/assets/*/runtime/worker.js", ("failed",), "worker could not be loaded", id="worker.js"),
    pytest.param("**/pyodide/*/pyodide.mjs", ("core",), "could not start", id="pyodide.mjs"),
    pytest.param("**/pyodide/*/python_stdlib.zip", ("core",), "could not start", id="python_stdlib.zip"),
    # loadPyodide itself never settles on a missing wasm; worker.js checks for the file first.
    pytest.param("**/pyodide/*/pyodide.asm.wasm", ("core",), "HTTP 404", id="pyodide.asm.wasm"),
]


@pytest.mark.parametrize("pattern, stages, words", BROKEN)
def test_broken_runtime_download_is_reported(open_chapter, pattern, stages, words):
    """A runtime file that answers 404 makes the runtime unavailable with a reason, quickly
    (everything is served from 127.0.0.1, so 20 s is ample), and the figures keep working."""
    chapter = open_chapter(routes=[(pattern, _not_found)], pyodide=True)
    chapter.wait_prerendered()
    chapter.start_runtime()
    status = chapter.wait_settled(timeout=20_000)
    assert status["state"] == "unavailable", status
    assert status["stage"] in stages, status
    assert status["text"] and IDLE_TEXT_HINT not in status["text"], status
    assert words in status["text"], status
    assert set(chapter.figure_states().values()) == {"prerendered"}, chapter.figure_states()
    # Pyodide itself leaves an uncaught rejection in the worker when python_stdlib.zip fails, which
    # Playwright reports as a page error: that one is expected, and nothing else (open_chapter).
    if pattern.endswith("python_stdlib.zip"):
        assert all("python_stdlib.zip" in err for err in chapter.page_errors), chapter.page_errors
        chapter.page_errors.clear()


# A figure's ctx (theme/js/context.js) on a runtime of the test's own, booting until the test says it
# is ready, whose answer comes when the test gives it: what the note says on the way.
BOOTING = """async () => {
  const { figureContext } = await import(new URL("js/context.js", document.querySelector("link[rel=icon]").href).href);
  const el = document.querySelector("[data-figure][data-live]");
  const listeners = new Set();
  let answer;
  const runtime = {
    state: "loading", text: "Loading the attention engine… 85%",
    subscribe(fn) { listeners.add(fn); return () => listeners.delete(fn); },
    ask() { return { result: new Promise((resolve) => { answer = resolve; }), cancel() {} }; },
  };
  const set = (state, text) => { Object.assign(runtime, { state, text }); for (const fn of [...listeners]) fn(state, text); };
  const { ctx } = figureContext(el, el.querySelector(".figure-view"), runtime, () => true);
  const note = el.querySelector(".figure-note");
  const seen = () => ({ text: note.hidden ? "" : note.textContent, kind: note.dataset.kind ?? null,
                        colour: getComputedStyle(note).color, busy: el.getAttribute("aria-busy") });
  const asked = ctx.request({}); // its note is set as it asks, before its first await
  const loading = seen();
  set("ready", "Ready");
  const ready = seen(); // the worker is up; its answer has not come yet
  answer(null);
  await asked;
  ctx.note("Could not recompute: a reason");
  return { loading, ready, failed: seen() };
}"""


def test_a_figure_shows_pythons_progress_as_news_until_the_worker_is_ready(open_live_chapter, scratch_page):
    """While Python boots for a figure's request, its note gives the boot's progress in the note's
    neutral colour, and gives way the moment the worker is ready, while the figure still waits for
    its answer (it kept "85%" for seconds after the status line said ready, in the warning colour)."""
    chapter = open_live_chapter(scratch_page("# A page\n\n/// figure | two-heads\n\nThe model.\n///\n"))
    out = chapter.page.evaluate(BOOTING)
    assert out["loading"]["text"] == "Loading the attention engine… 85%" and out["loading"]["kind"] == "progress"
    assert out["ready"] == {**out["ready"], "text": "", "busy": "true"}
    assert out["failed"]["text"] == "Could not recompute: a reason" and out["failed"]["kind"] is None
    assert out["loading"]["colour"] != out["failed"]["colour"]  # progress is not said in the warning colour
