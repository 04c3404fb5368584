"""A figure's state is a link (theme/js/links.js, figures.js): "Link to this view" copies an address
holding the figure's options and step; opening it shows the figure in that state, scrolled to;
back and forward move between the states linked; a hostile link is refused in one line, the figure
in its opening state and nothing of the address made markup. Chapter 4's softmax-temperature: its
slider walks precomputed states, and a nudged score is recomputed by the worker (here the CPython
stand-in; with real Pyodide and numpy at the end)."""
from __future__ import annotations

import base64
import json

from engine.figures import compute, parse

from .conftest import SETTLE_MS, expect, live_routes
from .figures.test_softmax_temperature import _expect_state

PAGE = "04-scores-to-weights.html"
NAME = "softmax-temperature"
REFUSED = "The linked view could not be opened: "
CLIPBOARD = {"permissions": ["clipboard-read", "clipboard-write"]}
# A browser that gives pages no clipboard: the link is shown in a box instead
NO_CLIPBOARD = "Object.defineProperty(Navigator.prototype, 'clipboard', { get: () => undefined });"


def _view(figure_id: str, state) -> str:
    """A link's ?view= value as links.js writes it (state: a JSON-able value, or raw text)."""
    text = state if isinstance(state, str) else json.dumps(state)
    return figure_id + "." + base64.urlsafe_b64encode(text.encode()).decode().rstrip("=")


def _link(figure) -> str:
    """Press the figure's "Link to this view" and read the copied link back from the clipboard."""
    figure.get_by_role("button", name="Link to this view").click()
    expect(figure.locator(".figure-link-status")).to_have_text("Link copied.")
    return figure.page.evaluate("navigator.clipboard.readText()")


def _in_view(figure) -> bool:
    return figure.evaluate("el => { const r = el.getBoundingClientRect(); return r.top < innerHeight && r.bottom > 0; }")


def test_a_step_linked_opens_in_that_step_without_python(open_chapter, base_url):
    chapter = open_chapter(base_url + PAGE, **CLIPBOARD)
    chapter.wait_prerendered()
    figure = chapter.figure(NAME)
    data = chapter.data(NAME)
    slider = figure.locator("input[type=range]")
    slider.focus()
    for _ in range(3):
        slider.press("ArrowLeft")
    link = _link(figure)
    figure_id = figure.get_attribute("id")
    assert link.endswith("#" + figure_id) and "?view=" + figure_id + "." in link
    assert chapter.page.url == link  # the address of the page is the link: a history entry

    reader = open_chapter(link, **CLIPBOARD)
    opened = reader.figure(NAME)
    expect(opened).to_have_attribute("data-state", "prerendered")  # the embedded data: no Python
    assert _in_view(opened)
    _expect_state(reader, data, data["start"] - 3)
    expect(opened.locator(".figure-note")).to_be_hidden()


def test_recomputed_options_restore_through_the_worker(open_live_chapter, open_chapter, base_url):
    chapter = open_live_chapter(base_url + PAGE, **CLIPBOARD)
    figure = chapter.figure(NAME)
    data = chapter.data(NAME)
    bar = figure.locator("g.score-bar").nth(3)
    bar.focus()
    bar.press("ArrowUp")
    expect(figure).to_have_attribute("data-state", "live")
    expect(figure.locator("output")).not_to_contain_text("recomputing")
    slider = figure.locator("input[type=range]")
    slider.focus()
    slider.press("ArrowRight")
    link = _link(figure)
    scores = list(data["scores"])
    scores[3] += data["schema"]["scores"]["step"]
    want = compute(parse(NAME, {**data["params"], "scores": scores}))

    reader = open_chapter(link, routes=live_routes())
    opened = reader.figure(NAME)
    expect(opened).to_have_attribute("data-state", "live", timeout=SETTLE_MS)
    _expect_state(reader, want, want["start"] + 1)
    assert _in_view(opened)


HOSTILE = {
    "not base64": lambda fid: fid + ".%%%",
    "not JSON": lambda fid: _view(fid, "{p: 1"),
    "not an object": lambda fid: _view(fid, [1, 2]),
    "foreign key": lambda fid: _view(fid, {"p": {}, "x": "<b>bold</b>"}),
    "markup in the id": lambda fid: "<img src=x onerror=alert(1)>." + _view(fid, {"i": 1}).split(".")[1],
    "too long": lambda fid: _view(fid, {"p": {"labels": ["a" * 3000]}}),
    "step out of range": lambda fid: _view(fid, {"i": 9999}),
    "negative step": lambda fid: _view(fid, {"i": -1}),
    "unknown figure": lambda fid: _view("figure-99-1", {"i": 1}),
    "option refused by the model": lambda fid: _view(fid, {"p": {"temperature": 50}}),
    "unknown option": lambda fid: _view(fid, {"p": {"<script>x</script>": 1}}),
}


def test_hostile_links_are_refused_in_one_line(open_live_chapter, base_url):
    chapter = open_live_chapter(base_url + PAGE)
    data = chapter.data(NAME)
    figure_id = chapter.figure(NAME).get_attribute("id")
    page = chapter.page
    for what, make in HOSTILE.items():
        page.goto(base_url + PAGE + "?view=" + make(figure_id) + "#" + figure_id)
        chapter.wait_prerendered()
        figure = chapter.figure(NAME)
        page_note = page.locator("[data-link-note]")
        note = page_note if what in ("unknown figure", "markup in the id") else figure.locator(".figure-note")
        expect(note).to_contain_text(REFUSED, timeout=SETTLE_MS)
        text = note.text_content()
        assert "\n" not in text and len(text) < 200, (what, text)
        if what == "option refused by the model":
            assert "temperature" in text, text  # the model's own words
        _expect_state(chapter, data, data["start"])
        expect(figure).to_have_attribute("data-state", "prerendered")
        assert page.locator("main img:not(.figure-fallback img), main script:not([src]):not([type])").count() == 0, what
        assert page.locator("b").count() == 0, what


def test_markup_in_accepted_options_stays_text(open_live_chapter, base_url):
    """Labels are the model's to accept: accepted, they are drawn as text, never as elements."""
    chapter = open_live_chapter(base_url + PAGE)
    figure_id = chapter.figure(NAME).get_attribute("id")
    labels = ["<img src=x onerror=alert(1)>", "<b>sat</b>", "mat", "the"]
    chapter.page.goto(base_url + PAGE + "?view=" + _view(figure_id, {"p": {"labels": labels}}) + "#" + figure_id)
    figure = chapter.figure(NAME)
    expect(figure).to_have_attribute("data-state", "live", timeout=SETTLE_MS)
    expect(figure.locator("svg text.tick")).to_have_text(labels)
    assert chapter.page.locator("main img[src=x], main b").count() == 0


def test_back_and_forward_move_between_linked_states(open_chapter, base_url):
    chapter = open_chapter(base_url + PAGE, **CLIPBOARD)
    chapter.wait_prerendered()
    page = chapter.page
    page.evaluate("window.__same = true")  # gone if a move reloaded the document
    figure = chapter.figure(NAME)
    data = chapter.data(NAME)
    start = data["start"]
    slider = figure.locator("input[type=range]")
    slider.focus()
    slider.press("ArrowRight")
    first = _link(figure)
    slider.focus()
    for _ in range(4):  # slider ticks: no history entries of their own
        slider.press("ArrowRight")
    second = _link(figure)
    assert first != second
    page.go_back()
    expect(page).to_have_url(first)
    _expect_state(chapter, data, start + 1)
    page.go_back()
    _expect_state(chapter, data, start)  # the entry before any link: the figure's own state
    assert "view=" not in page.url
    page.go_forward()
    page.go_forward()
    expect(page).to_have_url(second)
    _expect_state(chapter, data, start + 5)
    assert page.evaluate("window.__same") is True


def test_keyboard_only_and_a_browser_without_clipboard(open_chapter, base_url):
    """Tab reaches the control, Enter makes the link; with no clipboard it stands selected in a box."""
    chapter = open_chapter(base_url + PAGE, init_script=NO_CLIPBOARD, viewport={"width": 375, "height": 800})
    chapter.wait_prerendered()
    page = chapter.page
    figure = chapter.figure(NAME)
    slider = figure.locator("input[type=range]")
    slider.focus()
    slider.press("End")
    for _ in range(12):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.textContent") == "Link to this view":
            break
    page.keyboard.press("Enter")
    expect(figure.locator(".figure-link-status")).to_have_text("Copy the link from the box.")
    box = figure.locator(".figure-link-field input")
    expect(box).to_be_focused()
    link = box.input_value()
    assert page.evaluate("getSelection().toString() || (document.activeElement.selectionEnd - document.activeElement.selectionStart)") in (link, len(link))
    assert link == page.url
    assert page.evaluate("document.documentElement.scrollWidth") <= 375
    data = chapter.data(NAME)
    page.goto(link)
    chapter.wait_prerendered()
    _expect_state(chapter, data, len(data["temperatures"]) - 1)


def _state(link: str) -> dict:
    """The state a link holds (links.js's format)."""
    from urllib.parse import parse_qs, urlsplit

    body = parse_qs(urlsplit(link).query)["view"][0].split(".", 1)[1]
    return json.loads(base64.urlsafe_b64decode(body + "=" * (-len(body) % 4)))


def test_every_view_with_states_opens_at_a_linked_one(open_chapter, base_url, site):
    """Each chapter once, the series followed in place in one tab: every figure that steps through
    states is sent, in place (a history entry of the page, as back and forward give), a link to a
    state other than its opening one; it must show that state's key numbers, and its own link must
    then hold that state. On the way, every figure that draws a drag handle must be one whose page
    test_handles opens."""
    from engine.figures import module

    from .conftest import chapter_pages, follow
    from .figures.helpers import may_hold_touches, text_lines

    linked, handles = 0, set()
    pages = chapter_pages()
    chapter = open_chapter(base_url + pages[0], **CLIPBOARD)
    for n, name in enumerate(pages):
        if n:
            follow(chapter.page, chapter.page.locator("a[rel=next]"))
        if not chapter.figure_names():
            continue
        chapter.wait_prerendered()
        for figure in chapter.page.locator("[data-figure]").all():
            fig = figure.get_attribute("data-figure")
            if figure.locator("[data-handle]").count():
                handles.add(fig)
            data = json.loads(figure.locator(".figure-data").text_content())
            mod = module(fig)
            if not hasattr(mod, "state_count") or mod.state_count(data) < 2:
                continue
            opening = mod.opening_state(parse(fig, data["params"]), data)
            i = mod.state_count(data) - 1 if opening != mod.state_count(data) - 1 else 0
            figure_id = figure.get_attribute("id")
            url = base_url + name + "?view=" + _view(figure_id, {"i": i}) + "#" + figure_id
            chapter.page.evaluate("(u) => { history.pushState(null, '', u); dispatchEvent(new PopStateEvent('popstate')); }", url)
            where = f"{name} {fig} state {i}"
            expect(figure.locator(".figure-note")).to_be_hidden()
            assert [t.strip() for t in figure.locator("ul.figure-numbers li").all_text_contents()] == text_lines(data, i), where
            assert _state(_link(figure)) == {"i": i}, where
            linked += 1
    assert linked >= 30, linked
    assert handles, "no figure drew a handle (svg.js holdTouch marks each data-handle)"
    untested = sorted(name for name in handles if not may_hold_touches(name))
    assert not untested, (f"{untested} draw drag handles that test_handles does not open: teach "
                          "tests/browser/figures/helpers.py may_hold_touches how their views make them")


def test_real_python_restores_a_linked_score_and_refuses_what_the_model_refuses(new_context, real_site):
    """With real Pyodide and numpy: a link with a nudged score opens the figure as CPython computes
    it, at the linked step; then (in place, Python booted) a link whose temperature the model
    refuses is refused in the model's own words, the figure back at its own state."""
    from engine.figures import compute_json

    from .figures.helpers import text_lines
    from .test_real_python import Reader

    url = real_site["url"] + PAGE
    probe = Reader(new_context, url)
    figure = probe.page.locator(f"[data-figure={NAME}]")
    data = json.loads(figure.locator(".figure-data").text_content())
    figure_id = figure.get_attribute("id")
    probe.context.close()
    scores = list(data["scores"])
    scores[0] -= 2 * data["schema"]["scores"]["step"]
    want = compute(parse(NAME, {**data["params"], "scores": scores}))
    step = want["start"] - 2

    reader = Reader(new_context, url + "?view=" + _view(figure_id, {"p": {"scores": scores}, "i": step}) + "#" + figure_id)
    figure = reader.page.locator(f"[data-figure={NAME}]")
    expect(figure).to_have_attribute("data-state", "live", timeout=SETTLE_MS)
    assert [t.strip() for t in figure.locator("ul.figure-numbers li").all_text_contents()] == text_lines(want, step)
    expect(figure.locator("input[type=range]")).to_have_value(str(step))

    refused = {"temperature": 50}
    message = json.loads(compute_json(NAME, json.dumps({**data["params"], **refused})))["error"]
    link = url + "?view=" + _view(figure_id, {"p": refused}) + "#" + figure_id
    reader.page.evaluate("(u) => { history.pushState(null, '', u); dispatchEvent(new PopStateEvent('popstate')); }", link)
    note = figure.locator(".figure-note")
    expect(note).to_have_text(REFUSED + message.rstrip(".") + ".", timeout=SETTLE_MS)
    expect(figure).to_have_attribute("data-state", "prerendered")
    assert [t.strip() for t in figure.locator("ul.figure-numbers li").all_text_contents()] == text_lines(data, data["start"])
    reader.assert_clean("a linked view in real Python")
