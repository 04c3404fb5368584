"""With JavaScript on, every figure draws its embedded data at once and answers the keyboard; what it
lists under itself is the model's text for the state on screen."""
from __future__ import annotations

import re

import pytest

from .conftest import FIGURES, PHONE, after_a_frame, expect, wait_for_fallback
from .figures.helpers import touch_drag

TOLERANCE = 0.005 + 1e-9  # numbers are shown with two decimals


def _number(pattern: str, text: str) -> float:
    m = re.search(pattern, text)
    assert m, f"{pattern!r} not found in {text!r}"
    return float(m.group(1))


def test_every_figure_is_prerendered(open_chapter):
    chapter = open_chapter()
    names = chapter.figure_names()
    assert set(FIGURES) <= set(names), f"expected figures {FIGURES}, the page has {names}"
    chapter.wait_prerendered()
    for name in names:
        figure = chapter.figure(name)
        assert not figure.locator(".figure-fallback img").is_visible(), f"{name}: fallback still shown"
        view = figure.locator(".figure-view")
        expect(view).to_be_visible()
        expect(view.locator("svg").first).to_be_visible()
        assert chapter.numbers(name), f"{name}: key-numbers list is empty"
        assert figure.locator(".figure-note").is_hidden(), f"{name}: a note is shown without cause"


@pytest.mark.parametrize("refused", ["assets/*/js/figures.js", "assets/*/figures/scaling-experiment.js"])
def test_a_view_whose_script_never_arrives_leaves_the_drawing_in_its_place(open_chapter, refused):
    """On a network that drops a view's script, its figure shows the static drawing (hidden while a
    view may load) and says why; without the page's figure script no figure has a view at all."""
    chapter = open_chapter(routes=[("**/" + refused, lambda route: route.abort())])
    page = chapter.page
    no_views = refused.endswith("figures.js")
    if no_views:
        expect(page.locator("html")).to_have_attribute("data-no-views", "")
    failed = set(FIGURES) if no_views else {"scaling-experiment"}
    for name in FIGURES:
        figure = chapter.figure(name)
        figure.scroll_into_view_if_needed()
        img = figure.locator(".figure-fallback img")
        if name in failed:
            expect(figure).to_have_attribute("data-state", "static")
            expect(img).to_be_visible()
            wait_for_fallback(page, img)  # and it has loaded
            assert chapter.numbers(name), f"{name}: key-numbers list is empty"
        else:
            expect(figure).to_have_attribute("data-state", "prerendered")
            expect(img).to_be_hidden()
    if not no_views:
        figure = chapter.figure("scaling-experiment")
        expect(figure).to_have_attribute("data-view-failed", "")
        expect(figure.locator(".figure-note")).to_contain_text("could not start its interactive view")


def test_width_slider_moves_with_the_keyboard(open_chapter):
    chapter = open_chapter()
    chapter.wait_prerendered()
    figure = chapter.figure("scaling-experiment")
    data = chapter.data("scaling-experiment")
    rows = data["rows"]
    slider = figure.locator(".figure-controls input[type=range]")
    readout = figure.locator(".figure-controls output")

    index = int(slider.input_value())
    assert index == data["start"] and rows[index]["d"] == data["params"]["start_d"]
    expect(readout).to_have_text(data["text"]["states"][index]["label"])
    assert rows[index]["d"] == _number(r"d = (\d+)", readout.text_content())
    key, expected = ("ArrowLeft", index - 1) if index > 0 else ("ArrowRight", index + 1)
    before = readout.text_content()

    slider.focus()
    slider.press(key)

    expect(readout).not_to_have_text(before)
    row = rows[expected]
    text = readout.text_content()
    assert slider.input_value() == str(expected)
    assert _number(r"d = (\d+)", text) == row["d"], text
    assert abs(_number(r"largest weight ([\d.]+) as is", text) - row["unscaled"]) <= TOLERANCE, text
    assert abs(_number(r"([\d.]+) divided by", text) - row["scaled"]) <= TOLERANCE, text
    assert slider.get_attribute("aria-valuetext") == f"d = {row['d']}"
    assert text == data["text"]["states"][expected]["label"]
    # The key numbers list every width, whichever is selected.
    numbers = chapter.numbers("scaling-experiment")
    assert len(numbers) == len(rows) and all(n.startswith(f"d = {r['d']}:") for n, r in zip(numbers, rows)), numbers
    assert numbers == data["text"]["states"][expected]["numbers"] + data["text"]["fixed"]
    assert figure.get_attribute("data-state") == "prerendered"


def test_touch_picks_a_width_and_drags_a_score(open_chapter):
    """Touch: a tap on the scaling chart picks the nearest width; a drag on a score bar changes
    that score (which then needs Python: here it is unavailable, so the figure says so)."""
    chapter = open_chapter(**PHONE)
    chapter.wait_prerendered()
    figure = chapter.figure("scaling-experiment")
    readout = figure.locator(".figure-controls output")
    start = chapter.data("scaling-experiment")["start"]
    expect(readout).to_have_text(chapter.data("scaling-experiment")["text"]["states"][start]["label"])
    hit = figure.locator("svg rect.hit")
    hit.scroll_into_view_if_needed()
    box = hit.bounding_box()
    chapter.page.touchscreen.tap(box["x"] + 2, box["y"] + box["height"] / 2)
    expect(readout).to_contain_text(f"d = {chapter.data('scaling-experiment')['rows'][0]['d']}:")

    figure = chapter.figure("softmax-temperature")
    bar = figure.locator("g.score-bar").first
    bar.scroll_into_view_if_needed()
    box = bar.bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    touch_drag(chapter.page, (x, y), (x, y - 40), steps=2)
    data = chapter.data("softmax-temperature")
    expect(figure.locator(".figure-note")).to_contain_text("Needs Python", timeout=30_000)
    # Without Python the score goes back, and the list is the model's text for the state shown.
    expect(bar).to_have_attribute("aria-valuenow", f"{data['scores'][0]:g}")
    assert chapter.numbers("softmax-temperature") == data["text"]["states"][data["start"]]["numbers"]
    assert chapter.numbers("softmax-temperature")[0].startswith(f"Scores: {data['labels'][0]} {data['scores'][0]:g}")


def test_touch_drag_across_the_scaling_chart_keeps_picking(open_chapter):
    """A finger sliding along the chart walks through the widths: every redraw replaces the
    SVG under it, and the drag must survive that."""
    chapter = open_chapter(**PHONE)
    chapter.wait_prerendered()
    figure = chapter.figure("scaling-experiment")
    rows = chapter.data("scaling-experiment")["rows"]
    hit = figure.locator("svg rect.hit")
    hit.scroll_into_view_if_needed()
    box = hit.bounding_box()
    y = box["y"] + box["height"] / 2
    touch_drag(chapter.page, (box["x"] + 2, y), (box["x"] + box["width"] - 2, y), steps=10)
    expect(figure.locator(".figure-controls output")).to_contain_text(f"d = {rows[-1]['d']}:")


VIEWS_FETCHED = """() => performance.getEntriesByType("resource").map((e) => new URL(e.name).pathname)
  .filter((p) => /[/]assets[/][0-9a-f]+[/]figures[/]/.test(p)).map((p) => p.split("/").pop().replace(/[.]js$/, ""))"""


def test_a_figure_far_below_the_first_screen_loads_its_view_only_when_scrolled_to(open_chapter):
    """The first screen fetches the views of its own figures (and of those within a screen below
    it), not the view of a figure far down the page; scrolled to, that figure loads its view and
    draws its embedded data in place of the fallback."""
    height = 900
    chapter = open_chapter(viewport={"width": 1200, "height": height})
    page = chapter.page
    page.wait_for_load_state("load")
    # Where the figures are before their views draw: a view drawn only pushes the figures below it
    # further down, so each figure near now was near when the page's observers first looked.
    tops = page.eval_on_selector_all("[data-figure]", "els => els.map((e) => [e.dataset.figure, e.getBoundingClientRect().top])")
    near = {name for name, top in tops if top < height}
    within_two = {name for name, top in tops if top < 2 * height}  # a view shared with these is loaded anyway
    far = [i for i, (name, top) in enumerate(tops) if top > 3 * height and name not in within_two]
    assert near and far, f"precondition: figures on the first screen and far below it, with views of their own: {tops}"
    figures = page.locator("[data-figure]")
    for i in range(len(tops)):
        if tops[i][1] < height:
            expect(figures.nth(i)).to_have_attribute("data-state", "prerendered")
    after_a_frame(page)  # the observers have heard of every figure the drawn views moved
    fetched = set(page.evaluate(VIEWS_FETCHED))
    assert near <= fetched, f"the first screen's figures did not load their views: {near - fetched}"
    for i in far:
        expect(figures.nth(i)).to_have_attribute("data-state", "static")
    assert not {tops[i][0] for i in far} & fetched, f"views of figures far below fetched with the page: {fetched}"

    figure = figures.nth(far[-1])
    figure.scroll_into_view_if_needed()
    expect(figure).to_have_attribute("data-state", "prerendered")
    assert tops[far[-1]][0] in page.evaluate(VIEWS_FETCHED)
    expect(figure.locator(".figure-view svg").first).to_be_visible()
    expect(figure.locator(".figure-fallback img")).to_be_hidden()


def test_focus_on_a_figure_not_yet_drawn_stays_put_as_its_view_loads(open_chapter, base_url):
    """Keyboard focus reaching a figure far below (its "Numbers") loads its view, and focus stays
    where the reader put it while the view draws around it."""
    chapter = open_chapter(base_url + "09-learning-to-look.html", viewport={"width": 375, "height": 700})
    page = chapter.page
    page.wait_for_load_state("networkidle")
    figure = page.locator("[data-figure]").last
    expect(figure).to_have_attribute("data-state", "static")
    summary = figure.locator(".figure-numbers-box summary")
    summary.focus()
    expect(figure).to_have_attribute("data-state", "prerendered")
    expect(summary).to_be_focused()
    page.keyboard.press("Enter")
    expect(figure.locator(".figure-numbers")).to_be_visible()


WIDE = """() => { const r = (el) => el.getBoundingClientRect();
  const figure = document.querySelector(".figure-wide"), text = [...document.querySelectorAll("main article > p")].find((p) => p.textContent.length > 200);
  return { figure: [r(figure).left, r(figure).width], text: [r(text).left, r(text).width],
           caption: r(figure.querySelector("figcaption")).width, overflow: document.documentElement.scrollWidth - innerWidth }; }"""


@pytest.mark.parametrize("width", [1280, 375])
def test_a_wide_figure_takes_the_room_a_wide_screen_has_and_stays_within_a_narrow_one(new_context, base_url, width):
    """Figure 9.1 (layout: wide): beyond the text on a laptop, centred on it, its caption the text's
    length; the text's width on a phone, and in print, where the page is the text's width."""
    page = new_context(viewport={"width": width, "height": 800}).new_page()
    page.goto(base_url + "09-learning-to-look.html")
    at = page.evaluate(WIDE)
    (fig_left, fig_width), (text_left, text_width) = at["figure"], at["text"]
    assert at["overflow"] == 0
    if width == 1280:
        assert fig_width >= text_width + 200
        assert abs((fig_left + fig_width / 2) - (text_left + text_width / 2)) < 1
        assert at["caption"] <= text_width + 1
    else:
        assert (fig_left, fig_width) == pytest.approx((text_left, text_width), abs=1)
    page.emulate_media(media="print")
    at = page.evaluate(WIDE)
    assert at["figure"] == pytest.approx(at["text"], abs=1)


def test_chapter_1_shows_its_figure_on_a_laptop_s_first_screen(new_context, base_url):
    """The book's first figure is where a reader who opens it looks first, not two screens down."""
    page = new_context(viewport={"width": 1280, "height": 800}).new_page()
    page.goto(base_url + "01-why-attention.html")
    top = page.locator("[data-figure]").first.evaluate("f => f.getBoundingClientRect().top")
    assert top < 800 / 2, top


COUNT_WORKERS = "window.__workers = 0; window.Worker = class extends window.Worker { constructor(...a) { super(...a); window.__workers++; } };"


def test_the_contents_page_opens_with_a_figure_to_touch_and_no_python(new_context, base_url):
    """Chapter 1's figure on the contents page's first screen: drawn from its data, and a touch of its
    other last word moves the attention, with no worker started."""
    page = new_context(viewport={"width": 375, "height": 740}, has_touch=True).new_page()
    page.add_init_script(COUNT_WORKERS)
    page.goto(base_url + "index.html")
    figure = page.locator('[data-figure="winograd-head"]')
    expect(figure).to_have_attribute("data-state", "prerendered")
    assert figure.evaluate("f => f.getBoundingClientRect().top") < 740 / 2
    numbers = figure.locator(".figure-numbers")
    before = numbers.text_content()
    word = figure.locator("button[aria-pressed=false]").get_attribute("data-word")
    button = figure.locator(f'button[data-word="{word}"]')
    button.tap()
    expect(button).to_have_attribute("aria-pressed", "true")
    expect(numbers).not_to_have_text(before)
    assert page.evaluate("window.__workers") == 0


RECORD_SHIFTS = """window.__shift = 0;
new PerformanceObserver((list) => { for (const e of list.getEntries()) if (!e.hadRecentInput) window.__shift += e.value; })
  .observe({ type: "layout-shift", buffered: true });"""


@pytest.mark.parametrize("width", [1280, 412])
@pytest.mark.parametrize("path", ["index.html", "01-why-attention.html"])
def test_the_opening_figure_draws_without_moving_the_text_below_it(new_context, base_url, path, width):
    """The first screen's figure keeps its view's room while the view loads: held back until the page
    has painted and its faces have come (as on a slow phone), the view then draws with no layout shift."""
    context = new_context(viewport={"width": width, "height": 800})
    held = []
    context.route("**/figures/winograd-head.js", lambda route: held.append(route))
    page = context.new_page()
    page.add_init_script(RECORD_SHIFTS)
    with page.expect_request("**/figures/winograd-head.js"):
        page.goto(base_url + path)
    page.wait_for_function("() => performance.getEntriesByName('first-contentful-paint').length > 0")
    page.evaluate("document.fonts.ready.then(() => true)")
    after_a_frame(page)
    before = page.evaluate("window.__shift")
    held[0].continue_()
    expect(page.locator('[data-figure="winograd-head"]')).to_have_attribute("data-state", "prerendered")
    after_a_frame(page)
    assert page.evaluate("window.__shift") - before < 0.01
