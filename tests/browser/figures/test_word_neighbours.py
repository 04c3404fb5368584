"""word-neighbours in the browser: picking a word (mouse, touch, keys) shows the engine's ranking and
the model's text for that word."""
from __future__ import annotations

from engine.figures.fmt import fill

from ..conftest import expect
from .helpers import PhoneVisit

PAGE = "02-words-as-points.html"


def test_pick_words_with_keys_mouse_and_touch(open_chapter, base_url):
    visit = PhoneVisit(open_chapter, base_url + PAGE, "word-neighbours")
    chapter, data, figure = visit.chapter, visit.data, visit.figure
    words = data["words"]
    visit.opens_at(data["start"])
    first = chapter.numbers("word-neighbours")[0]
    assert first.startswith("Nearest to “tired”: sleepy 0.40")

    tired = figure.locator("[data-key-control]")
    assert tired.text_content() == "tired"
    tired.focus()
    tired.press("ArrowRight")  # next in reading order: sleepy
    sleepy = figure.get_by_role("radio", name="sleepy")
    expect(sleepy).to_be_focused()
    expect(sleepy).to_have_attribute("aria-checked", "true")
    visit.shows(words.index("sleepy"))

    cat = figure.get_by_role("radio", name="cat")
    cat.click()
    visit.shows(words.index("cat"))
    assert chapter.numbers("word-neighbours")[0].startswith("Nearest to “cat”: dog 0.46, horse 0.27")

    wide = figure.get_by_role("radio", name="wide")
    visit.taps(wide, words.index("wide"))
    expect(wide).to_have_attribute("aria-checked", "true")
    # The bars are drawn in the same order as the key numbers list them.
    shown = figure.locator("svg text.rank-word").all_text_contents()
    assert shown == [w for w, _ in data["rankings"][words.index("wide")]]
    # and each bar's label is the model's part filled with its similarity
    labels = figure.locator("svg text.value").all_text_contents()
    part = data["text"]["parts"]["similarity"]
    assert labels == [fill(part, {"v": s}) for _, s in data["rankings"][words.index("wide")]]
    visit.fits()
