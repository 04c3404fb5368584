"""Shared steps for the per-figure browser tests."""
from __future__ import annotations

import functools
import json
import re
import time
import urllib.request

from engine.figures.fmt import fill_all, scope_at
from tests.conftest import ROOT


def touch_drag(page, start, end, steps=6):
    """Drag with one finger from start to end (page pixels); Playwright's touchscreen only taps."""
    session = page.context.new_cdp_session(page)
    (x0, y0), (x1, y1) = start, end
    session.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x0, "y": y0}]})
    for k in range(1, steps + 1):
        x, y = x0 + (x1 - x0) * k / steps, y0 + (y1 - y0) * k / steps
        session.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [{"x": x, "y": y}]})
    session.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})


def mouse_drag(page, start, end, steps=6):
    page.mouse.move(*start)
    page.mouse.down()
    page.mouse.move(*end, steps=steps)
    page.mouse.up()


def centre(locator):
    box = locator.bounding_box()
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def text_lines(data: dict, state: int | None = None) -> list[str]:
    """The key numbers the model wrote for the figure's opening state (state None) or for state
    `state` (data.text.states[state], or the templates filled from its text.scope),
    followed by the lines that never change (text.fixed)."""
    text = data["text"]
    if state is None:
        return text["numbers"]
    if "templates" in text:
        return fill_all(text["templates"], scope_at(text["scope"], data, state)) + text.get("fixed", [])
    return text["states"][state]["numbers"] + text.get("fixed", [])


def two_heads_shown(figure) -> dict:
    """What a reader sees of two-heads: its key numbers, status line, note, progress, state and busy flag."""
    return figure.evaluate("""f => ({ numbers: [...f.querySelectorAll("ul.figure-numbers li")].map((li) => li.textContent),
      status: f.querySelector(".th-status").textContent, note: f.querySelector(".figure-note").textContent,
      progress: f.querySelector("progress").value, state: f.dataset.state, busy: f.getAttribute("aria-busy") })""")


# A few paragraphs of our own for pages that hold writing-training: the build gives the engine the
# prose of the chapters it builds and the model learns that, holding out its last tenth (a page of a
# figure alone has too few characters for that).
WRITING_PROSE = """\
The tide comes in twice a day along this coast. The fishers read it from the colour of the water and
the height of the weed on the harbour wall, and they rarely need a table to tell them when to leave.

The boats go out before dawn. The nets are checked on the quay the evening before, mended where a
seal has torn them, and folded so that they run out clean over the stern without catching.

The market opens at six. The buyers walk the length of the hall, lift a fish or two from each box,
and look at the eyes and the gills before they bid. The price is settled in a few words and a nod.

The gulls know the timetable better than anyone. They wait on the roofs of the sheds, and the moment
a crate is opened they come down in a crowd, shouting, and are chased off with a broom.

The winter storms keep the boats in for days at a time. The crews paint, splice rope, and argue
about the weather over tea, and the harbour master writes the wind speed on a board by the gate.
"""


# A text of the reader's own to fine-tune on, in characters the page's model knows (WRITING_PROSE's):
# its paragraphs, one a line, backwards then forwards, cut to a length fine-tuning takes
_PARAGRAPHS = [p.replace("\n", " ") for p in WRITING_PROSE.split("\n\n") if p.strip()]
OWN_TEXT = "\n".join(_PARAGRAPHS[::-1] + _PARAGRAPHS)[:1_200]


def writing_chapter(options: dict | None = None) -> str:
    """A chapter of WRITING_PROSE with writing-training under it, with `options`."""
    lines = "".join(f"    {k}: {v}\n" for k, v in (options or {}).items())
    return f"# A page\n\n{WRITING_PROSE}\n/// figure | writing-training\n{lines}\nA caption.\n///\n"


def writing_training_shown(figure) -> dict:
    """What a reader sees of writing-training, all that Cancel must restore: its key numbers, the chart
    as drawn, the sample, the stepper and the progress bar."""
    return figure.evaluate("""f => ({
      numbers: [...f.querySelectorAll("ul.figure-numbers li")].map((li) => li.textContent),
      chart: f.querySelector(".wt-chart").innerHTML,
      head: f.querySelector(".wt-sample-head").textContent, sample: f.querySelector(".wt-sample-text").textContent,
      step: f.querySelector("input[type=range]").value, max: f.querySelector("input[type=range]").max,
      label: f.querySelector(".figure-controls output").textContent,
      progress: f.querySelector("progress").value })""")


def given_from(files: dict[str, str] | None):
    """What a worker was given for a request (its `files`: name -> absolute URL in the test's site),
    fetched from the site, for the engine on CPython to compute from the same files."""
    from engine.given import Given

    return Given({name: _fetched(url) for name, url in (files or {}).items()})


@functools.lru_cache(maxsize=16)
def _fetched(url: str) -> bytes:
    """A file of the site: named by its content, so the same URL always gives the same bytes."""
    with urllib.request.urlopen(url, timeout=60) as response:
        return response.read()


def figure_given(page, figure):
    """The Given a page's `figure` hands its worker (its data-given files), as given_from fetches it."""
    base = page.url.rsplit("/", 1)[0]
    return given_from({name: f"{base}/{address}" for name, address in json.loads(figure.get_attribute("data-given")).items()})


def warm_up_changes_nothing(open_live_chapter, url: str, name: str, shown) -> None:
    """The warm-up the page asks for near a training figure runs in the worker (the stand-in's through
    the site's server.js, on CPython) and ends; `shown(figure)`, what a reader sees, is the same after."""
    from ..conftest import expect

    chapter = open_live_chapter(url)
    figure = chapter.figure(name)
    before = shown(figure)
    expect(figure).to_have_attribute("data-warm", "done", timeout=30_000)
    assert shown(figure) == before


def watch_progress(figure) -> None:
    """Record every value the figure's <progress> takes from now on, for progress_streamed."""
    figure.evaluate("""(fig) => { window.__steps = [];
      new MutationObserver(() => window.__steps.push(Number(fig.querySelector('progress').value)))
        .observe(fig.querySelector('progress'), { attributes: true }); }""")


def progress_streamed(page) -> None:
    """The values watch_progress recorded: a run drawn as it learned, in several steps, never backwards."""
    steps = page.evaluate("window.__steps")
    assert len(steps) >= 3 and steps == sorted(steps), steps


def mark_element(locator) -> None:
    """Tag the DOM node itself, so a later check can tell it from a fresh copy drawn in its place."""
    locator.evaluate("el => { el.__sameNode = true; }")


def press_in_place(control, key: str) -> None:
    """Tag the control (mark_element), focus it and press `key`, as a keyboard reader does; the test
    then checks what changed and that focus stayed on this node (expect_same_node_focused)."""
    mark_element(control)
    control.focus()
    control.press(key)


def expect_same_node_focused(page) -> None:
    """Focus is on the very node mark_element tagged: the view updated it in place (no redraw
    replaced it and no workaround moved focus to a copy)."""
    assert page.evaluate("document.activeElement && document.activeElement.__sameNode === true"), \
        "focus is not on the original element: it was replaced or focus moved"


def opened(open_chapter, url: str, name: str, **context_options):
    """The scratch chapter at url with its figures drawn: (chapter, figure `name`'s data, its locator)."""
    chapter = open_chapter(url, **context_options)
    chapter.wait_prerendered()
    return chapter, chapter.data(name), chapter.figure(name)


# The text of a figure's view drawn under 12 px, as "size: text" (an SVG text's size as scaled on screen).
SMALL_TEXT = """(f) => {
  const found = [], walk = document.createTreeWalker(f.querySelector(".figure-view"), NodeFilter.SHOW_TEXT);
  while (walk.nextNode()) {
    const el = walk.currentNode.parentElement;
    if (!walk.currentNode.textContent.trim() || !el.getClientRects().length || el.closest(".visually-hidden")) continue;
    const m = el instanceof SVGGraphicsElement ? el.getScreenCTM() : null;
    const px = parseFloat(getComputedStyle(el).fontSize) * (m ? Math.hypot(m.a, m.b) : 1);
    if (px < 11.95) found.push(`${px.toFixed(1)} px: ${walk.currentNode.textContent.trim().slice(0, 20)}`);
  }
  return found.slice(0, 6);  // enough to say what is small
}"""


class PhoneVisit:
    """The visit most figure tests share, on a phone (PHONE: 375 px, touch; or a touch screen `width`
    px wide): the figure opens on the model's
    opening state, its key control changes the state in place (focus stays on the node), a tap
    changes it again, and at the end nothing is wider than the screen and the page raised nothing.
    Each step checks the key numbers against the model's text for the state (text_lines of the data
    embedded in the page); a test adds its figure's own checks between the steps."""

    def __init__(self, open_chapter, url: str, name: str, width: int = 375):
        from ..conftest import PHONE

        screen = {**PHONE, "viewport": {**PHONE["viewport"], "width": width}}
        self.chapter, self.data, self.figure = opened(open_chapter, url, name, **screen)
        self.name, self.page, self.width = name, self.chapter.page, width

    def opens_at(self, state: int) -> None:
        assert self.chapter.numbers(self.name) == self.data["text"]["numbers"] == text_lines(self.data, state)

    def shows(self, state: int, timeout: float = 5.0) -> None:
        """The key numbers become state `state`'s (a view may redraw a frame after the event)."""
        want, end = text_lines(self.data, state), time.monotonic() + timeout
        while self.chapter.numbers(self.name) != want and time.monotonic() < end:
            self.page.wait_for_timeout(50)
        assert self.chapter.numbers(self.name) == want

    def keys(self, control, key: str, state: int | None) -> None:
        """`control` is the figure's key control for `key`; pressed in place, it keeps focus and the
        figure shows `state` (None: a state the test checks itself)."""
        assert control.get_attribute("data-key-control") == key
        press_in_place(control, key)
        expect_same_node_focused(self.page)
        if state is not None:
            self.shows(state)

    def taps(self, target, state: int | None) -> None:
        """A finger taps the middle of `target` (scrolled into view); the figure shows `state`."""
        target.scroll_into_view_if_needed()
        self.page.touchscreen.tap(*centre(target))
        if state is not None:
            self.shows(state)

    def reads(self) -> None:
        """No text of the figure's view is drawn under 12 px."""
        small = self.figure.evaluate(SMALL_TEXT)
        assert small == [], small

    def fits(self) -> None:
        """Nothing in the figure or on the page is wider than the phone's screen (that the page raised
        nothing is checked once the test has passed: open_chapter)."""
        assert self.figure.evaluate("f => f.scrollWidth <= f.clientWidth + 1")
        assert self.chapter.scroll_width() <= self.width


def cancel_restores_the_model_shown_before(open_live_chapter, url: str, name: str, start: str) -> None:
    """A training figure's run started by keyboard (button `start`) and cancelled mid-run: focus goes to
    Cancel while it runs and back to `start` after, the previous model's numbers come back, and the
    status says it stopped."""
    from ..conftest import expect

    chapter = open_live_chapter(url, slow_jobs=True)
    figure = chapter.figure(name)
    before = chapter.numbers(name)
    figure.get_by_role("button", name=start).press("Enter")
    chapter.page.wait_for_function("(fig) => fig.querySelector('progress').value > 5", arg=figure.element_handle())
    cancel = figure.get_by_role("button", name="Cancel")
    expect(cancel).to_be_focused()  # the start button is disabled while it runs: the keyboard moved to Cancel
    cancel.press("Enter")
    expect(figure).not_to_have_attribute("aria-busy", "true")
    expect(figure.get_by_role("button", name=start)).to_be_focused()  # the keyboard keeps its place
    assert chapter.numbers(name) == before
    assert figure.get_attribute("data-state") == "prerendered"
    expect(figure.locator(".th-status")).to_contain_text("stopped")


def first_request_on_intent(open_live_chapter, url: str, name: str, first, again) -> None:
    """For a view whose worker's first request trains its model: focusing `first` (a function of the
    figure giving a control) asks once, with the embedded options, so the training overlaps the
    reader's typing; the answer is the embedded data, so nothing is redrawn, and focusing `again`
    (another control) asks nothing more. A view asks as focus enters (reader-input.js askOnIntent),
    within the focus event: a second ask would be among the messages the page posted to its worker
    by the time focus() returns (RECORD_POSTS), before any answer could come."""
    from ..conftest import RECORD_POSTS

    chapter = open_live_chapter(url, init_script=RECORD_POSTS)
    figure = chapter.figure(name)
    before = chapter.numbers(name)
    first(figure).focus()
    chapter.page.wait_for_function("(fig) => !fig.hasAttribute('aria-busy')", arg=figure.element_handle(),
                                   timeout=120_000)
    assert chapter.stand_in.params("compute") == [chapter.data(name)["params"]]  # answered: the stand-in was asked
    assert chapter.numbers(name) == before and figure.get_attribute("data-state") == "prerendered"
    first(figure).blur()
    again(figure).focus()
    assert [n for t, n in chapter.page.evaluate("window.__posted") if t == "compute"] == [name]


def without_javascript(open_chapter, url: str, name: str):
    """The page read with scripts off: figure `name` shows its static drawing with the model's alt text
    and lists the model's key numbers. Returns (chapter, the figure's data, its locator)."""
    from ..conftest import expect

    chapter = open_chapter(url, java_script_enabled=False)
    figure, data = chapter.figure(name), chapter.data(name)
    expect(figure.locator(".figure-fallback img")).to_be_visible()
    assert figure.locator(".figure-fallback img").get_attribute("alt") == data["text"]["alt"]
    assert chapter.numbers(name) == data["text"]["numbers"]
    return chapter, data, figure


def without_python(open_chapter, url: str):
    """The page with its figures drawn and Python started and settled as unavailable (Pyodide's files
    refused, as a network that drops them would: test_runtime.py shows that a boot that gets as far
    as numpy's CDN settles the same way)."""
    chapter = open_chapter(url)
    chapter.wait_prerendered()
    chapter.start_runtime()
    assert chapter.wait_settled()["state"] == "unavailable"
    return chapter


HOLDS = re.compile(r"\bdrag\((?![^\n]*hold: false)|\bscoreBars\(|\bscoreEditor\(")  # a drag() that holds the finger, or score bars (bars.js)


def may_hold_touches(name: str) -> bool:
    """Whether figure `name`'s view may draw a handle (an element that holds a touch: svg.js holdTouch
    marks it data-handle): its code calls drag() without `hold: false`, or draws score bars. The
    tests of handles open the pages of these figures; the sweep over every page (test_state_links)
    checks that no other figure draws one."""
    return bool(HOLDS.search((ROOT / "theme" / "figures" / f"{name}.js").read_text()))


def handle_pages() -> list[str]:
    """The chapter pages (reading order) holding a figure whose view may draw a handle."""
    from builder.site_config import load_site_config

    from engine.figures import FIGURES

    holding = [name for name in FIGURES if may_hold_touches(name)]
    return [f"{entry.path.stem}.html" for entry in load_site_config(ROOT / "content").chapters
            if any(f"/// figure | {name}\n" in entry.path.read_text() + "\n" for name in holding)]
