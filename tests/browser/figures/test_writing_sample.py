"""writing-sample in the browser: the embedded text draws at once and the slider and a tap pick the
character written (keys and numbers follow), Generate sends the reader's prompt and options to the
worker and writes its answer out a character at a time before the figure is live, and a prompt the
model cannot read keeps the figure and the typed text and says why in one line, as text; a model the
reader trained in figure 14.1 is kept in the browser and can write. (The real worker with real
numpy: test_real_python.py.)"""
from __future__ import annotations

import base64

import pytest

from engine.figures import FigureJob, compute, parse

from ..conftest import expect, serious_violations
from .helpers import PhoneVisit, figure_given, opened, text_lines, touch_drag

NAME = "writing-sample"


@pytest.fixture(scope="module")
def url(base_url) -> str:
    """Chapter 14 as the series builds it: the figure with the model the site ships, learned from the
    series' own prose and kept in models/ (a page of its own would have a model trained for it, which
    takes minutes)."""
    return base_url + "14-a-model-that-writes.html"


def _cells(figure, h: int) -> list:
    """Head h's row as drawn: [character, weight] for each cell, the first "…" (all it read before
    the row's characters) or None when the row shows all it read."""
    return figure.locator(".ws-strip").nth(h).locator(".ws-cell").evaluate_all(
        "(cells) => cells.map((c) => c.hidden ? null : [c.textContent, Number(c.style.getPropertyValue('--w'))])")


def _row(data, i, h) -> list:
    """Head h's row for state i, from the figure's data: the last row_characters characters the step
    read with their weights, after "…" with the weight on all before them."""
    weights, chars = _decoded(data, i, h), [*(data["prompt"] + data["written"])]
    read = chars[data["starts"][i]:data["prompt_length"] + i]
    first = max(0, len(read) - data["row_characters"])
    earlier = ["…", pytest.approx(min(1, sum(weights[:first])), abs=1e-9)] if first else None
    return [earlier] + [[c.replace("\n", "↵"), pytest.approx(w, abs=1e-9)] for c, w in zip(read[first:], weights[first:])]


def _window(data, i):
    return data["prompt_length"] + i - data["starts"][i]


def _decoded(data, i, h):
    w = _window(data, i)
    return [data["alphabet"].index(c) / data["levels"] for c in data["attention"][i][h * w:(h + 1) * w]]


def _written(figure) -> str:
    """The text the figure shows: the prompt and what the model wrote (a line break shown as ↵)."""
    return "".join(figure.locator(".ws-char").all_text_contents())


@pytest.mark.parametrize("width", [1200, 375])
def test_the_embedded_text_the_slider_and_a_tap(open_chapter, url, width):
    visit = PhoneVisit(open_chapter, url, NAME, width)
    chapter, data, figure = visit.chapter, visit.data, visit.figure
    k = data["start"]
    assert _written(figure) == (data["prompt"] + data["written"]).replace("\n", "↵")
    expect(figure.locator(".ws-char.ws-prompt")).to_have_count(data["prompt_length"])
    expect(figure.locator(".ws-head")).to_have_count(data["layers"] * data["heads"])
    visit.opens_at(k)
    assert _cells(figure, 5) == _row(data, k, 5)
    expect(figure.locator(".ws-next-row:not([hidden])")).to_have_count(len(data["top"][k]))
    slider = figure.get_by_label("Character", exact=True)
    visit.keys(slider, "ArrowLeft", k - 1)
    assert _cells(figure, 0) == _row(data, k - 1, 0)
    visit.taps(figure.locator(".ws-char.ws-written").nth(4), 4)
    expect(slider).to_have_value("4")
    expect(figure.locator(".ws-char.ws-current")).to_have_text(data["written"][4].replace("\n", "↵"))
    visit.taps(figure.locator(".ws-head").nth(6), 4)  # another head tints the text; the state stays
    expect(figure.locator(".ws-head").nth(6)).to_have_attribute("aria-pressed", "true")
    assert _cells(figure, 6) == _row(data, 4, 6)  # a step that read fewer characters than a row holds: no "…"
    tints = figure.locator(".ws-char").evaluate_all("(spans) => spans.map((s) => Number(s.style.getPropertyValue('--w')))")
    read = slice(data["starts"][4], data["prompt_length"] + 4)  # what the step that wrote character 4 read
    assert tints[read] == pytest.approx(_decoded(data, 4, 6), abs=1e-9) and sum(tints) == pytest.approx(sum(tints[read]))
    assert serious_violations(chapter.page) == []
    visit.fits()


def test_on_a_touch_screen_a_finger_picks_the_character_nearest_it(open_chapter, url):
    """A character is about 10 px wide: on a touch screen each line of the text is a 44 px band, a tap
    anywhere in it picks the character nearest the finger, a finger that lands beside one slides onto
    it, and one that scrolls the page picks nothing."""
    chapter, data, figure = opened(open_chapter, url, NAME, viewport={"width": 375, "height": 800},
                                   has_touch=True, is_mobile=True)
    page, slider, text = chapter.page, figure.get_by_label("Character", exact=True), figure.locator(".ws-text")
    text.scroll_into_view_if_needed()
    assert text.evaluate("t => parseFloat(getComputedStyle(t).lineHeight)") >= 44
    boxes = figure.locator(".ws-char.ws-written").evaluate_all(
        "(spans) => spans.map((s) => { const r = s.getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; })")
    # a character in the middle of its line, two characters either side of it
    i = next(j for j in range(len(boxes) // 2, len(boxes) - 2) if boxes[j - 2][1] == boxes[j][1] == boxes[j + 2][1])
    x, y = boxes[i]
    other = next(j for j in range(len(boxes)) if boxes[j][1] != y)  # a character on another line
    for dy in (-20, 20):  # above and below the character, in its band
        page.touchscreen.tap(*boxes[other])
        expect(slider).to_have_value(str(other))
        page.touchscreen.tap(x, y + dy)
        expect(slider).to_have_value(str(i))
    page.touchscreen.tap(*boxes[other])
    touch_drag(page, (x - 20, y), (x, y))  # lands on a neighbour, slides onto the character
    expect(slider).to_have_value(str(i))
    page.touchscreen.tap(*boxes[other])
    expect(slider).to_have_value(str(other))
    scrolled = page.evaluate("scrollY")
    touch_drag(page, (x, y), (x, y - 200))  # the page scrolls under the finger
    page.wait_for_function("(y) => scrollY !== y", arg=scrolled)
    expect(slider).to_have_value(str(other))


def test_generate_writes_the_readers_prompt_out_and_ends_live(open_live_chapter, url):
    chapter = open_live_chapter(url)
    figure = chapter.figure(NAME)
    box = figure.get_by_label("Your prompt")
    figure.get_by_label("Temperature").fill("0.5")
    figure.get_by_label("Seed").fill("7")
    box.fill("Each head reads ")
    box.press("Enter")
    skip = figure.get_by_role("button", name="Show all")
    expect(skip).to_be_visible(timeout=120_000)  # the answer is being written out, a character at a time
    assert figure.get_attribute("data-state") == "prerendered"
    skip.click()
    expect(figure).to_have_attribute("data-state", "live")
    want = compute(parse(NAME, {"prompt": "Each head reads ", "temperature": 0.5, "seed": 7}), figure_given(chapter.page, figure))
    assert chapter.numbers(NAME) == text_lines(want, want["start"])
    assert _written(figure) == (want["prompt"] + want["written"]).replace("\n", "↵")
    assert _cells(figure, 7) == _row(want, want["start"], 7)
    expect(skip).to_be_hidden()
    expect(figure.get_by_label("Character", exact=True)).to_be_focused()  # the keyboard lands where the steps are
    expect(figure.locator(".figure-note")).to_be_hidden()


def test_with_reduced_motion_the_answer_is_drawn_whole(open_live_chapter, url):
    chapter = open_live_chapter(url, reduced_motion="reduce")
    figure = chapter.figure(NAME)
    box = figure.get_by_label("Your prompt")
    box.fill("A query ")
    figure.get_by_role("button", name="Generate").click()
    expect(figure).to_have_attribute("data-state", "live", timeout=120_000)
    want = compute(parse(NAME, {"prompt": "A query "}), figure_given(chapter.page, figure))
    assert chapter.numbers(NAME) == text_lines(want, want["start"])
    expect(figure.get_by_role("button", name="Show all")).to_be_hidden()


def test_markup_in_the_prompt_stays_text(open_live_chapter, url):
    chapter = open_live_chapter(url)
    figure = chapter.figure(NAME)
    data = chapter.data(NAME)
    before = chapter.numbers(NAME)
    box = figure.get_by_label("Your prompt")
    box.fill("<b>x</b> ")
    box.press("Enter")
    if "<" in data["vocab"] and ">" in data["vocab"]:  # the model knows them: it writes after them, as text
        expect(figure).to_have_attribute("data-state", "live", timeout=120_000)
        figure.get_by_role("button", name="Show all").click()
        assert _written(figure).startswith("<b>x</b> ")
    else:  # the model does not: the reason names them, as text
        expect(figure.locator(".figure-note")).to_contain_text("The model does not know “<”", timeout=120_000)
        assert chapter.numbers(NAME) == before and figure.get_attribute("data-state") == "prerendered"
        expect(box).to_have_value("<b>x</b> ")
    assert figure.locator("b").count() == 0


def test_a_prompt_the_model_cannot_read_gets_a_reason_and_nothing_is_lost(open_live_chapter, url):
    chapter = open_live_chapter(url)
    figure = chapter.figure(NAME)
    data = chapter.data(NAME)
    before = chapter.numbers(NAME)
    bad = next(c for c in "~^@#%&|{}" if c not in data["vocab"])
    box = figure.get_by_label("Your prompt")
    box.fill(f"The {bad} model")
    figure.get_by_role("button", name="Generate").click()
    expect(figure.locator(".figure-note")).to_contain_text(
        f"The model does not know “{bad}”: it learned only the {len(data['vocab'])} characters the series' text uses.",
        timeout=120_000)
    expect(box).to_have_value(f"The {bad} model")
    assert chapter.numbers(NAME) == before
    assert figure.get_attribute("data-state") == "prerendered"


def test_the_readers_own_model_is_kept_written_with_linked_and_forgotten(open_live_chapter, url):
    """Trained in figure 14.1, the reader's model survives a reload, Keep training takes it on as
    CPython does, figure 14.2 writes with it what CPython writes with the same file, a link to that state opened where no such model is kept says
    so in one line and shows the page's model, and Forget deletes it."""
    chapter = open_live_chapter(url)
    page, training, sample = chapter.page, chapter.figure("writing-training"), chapter.figure(NAME)
    writer = sample.get_by_role("group", name="Written by")
    training.scroll_into_view_if_needed()
    seed = int(training.get_by_label("Seed").input_value())
    training.get_by_role("button", name="Train from scratch").click()
    expect(training).to_have_attribute("data-state", "live", timeout=120_000)
    kept = training.locator(".wt-kept")
    expect(kept).to_contain_text("Your model is kept in this browser")
    assert page.evaluate(KEPT_NAMES) == ["reader-model"]

    page.reload()
    chapter.wait_prerendered()
    training.scroll_into_view_if_needed()
    expect(kept).to_contain_text("Your model is kept in this browser")  # it survived the reload
    given = figure_given(page, sample)
    first = base64.b64decode(compute(parse("writing-training", {"seed": seed}), given)["model_file"])

    # Keep training takes the kept run on: its curve goes on from the kept steps, as CPython's does.
    params = parse("writing-training", {"seed": seed})
    job = FigureJob(params, "keep", given=given.with_file("reader-model", first))
    while not (out := job.advance(60.0))["done"]:
        pass
    kept_on = out["result"]
    training.get_by_role("button", name="Keep training").click()
    expect(training.locator("progress")).to_have_attribute("max", str(kept_on["steps"]))  # the kept steps too
    expect(training).to_have_attribute("data-state", "live", timeout=120_000)
    assert chapter.numbers("writing-training") == text_lines(kept_on, kept_on["start"])
    assert kept_on["steps"] == params.steps + params.more and page.evaluate(KEPT_NAMES) == ["reader-model"]

    sample.scroll_into_view_if_needed()
    expect(writer).to_be_visible()
    sample.get_by_label("the model you trained").check()
    expect(sample).to_have_attribute("data-state", "live", timeout=120_000)
    theirs = given.with_file("reader-model", base64.b64decode(kept_on["model_file"]))  # the model kept last
    want = compute(parse(NAME, {"model": "yours"}), theirs)
    assert chapter.numbers(NAME) == text_lines(want, want["start"])
    assert want["written"] != chapter.data(NAME)["written"]  # not what the page's model wrote

    sample.get_by_role("button", name="Link to this view").click()
    elsewhere = open_live_chapter(page.url)  # another browser: nothing of the reader's is kept there
    other = elsewhere.figure(NAME)
    other.scroll_into_view_if_needed()
    expect(other.locator(".figure-note")).to_contain_text("no model of your own is kept in this browser")
    assert elsewhere.numbers(NAME) == text_lines(elsewhere.data(NAME), elsewhere.data(NAME)["start"])
    expect(other.get_by_role("group", name="Written by")).to_be_hidden()

    forget = training.get_by_role("button", name="Forget my model")
    forget.click()
    expect(kept).to_be_hidden()
    expect(training.get_by_role("button", name="Train from scratch")).to_be_focused()
    expect(writer).to_be_hidden()
    page.reload()
    chapter.wait_prerendered()
    sample.scroll_into_view_if_needed()
    expect(sample.locator(".ws-head").first).to_be_visible()  # the view has drawn; no choice of writer
    expect(writer).to_be_hidden()
    assert page.evaluate(KEPT_NAMES) == []  # gone from the browser's store, not only from the page


# The names of the files the site keeps in this browser's IndexedDB (theme/js/reader-files.js).
KEPT_NAMES = """async () => {
  const name = (await indexedDB.databases()).map((d) => d.name).find((n) => n.startsWith("attention:"));
  if (!name) return [];
  const db = await new Promise((resolve, reject) => { const r = indexedDB.open(name); r.onsuccess = () => resolve(r.result); r.onerror = reject; });
  const keys = await new Promise((resolve) => { const q = db.transaction("files").objectStore("files").getAllKeys(); q.onsuccess = () => resolve(q.result); });
  db.close();
  return keys;
}"""
