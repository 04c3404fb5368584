"""residual-stream in the browser: stage radios, Back/Next, keyboard and taps on words show the model's
precomputed state for (stage, word); the columns stack only the stages reached; the readout bars show
the model's probabilities."""
from __future__ import annotations

from ..conftest import expect
from .helpers import PhoneVisit, opened, text_lines

PAGE = "10-stacking-it-up.html"
NAME = "residual-stream"


def _state(data, stage: int, word: int) -> int:
    return stage * len(data["tokens"]) + word


def test_stages_and_words_by_keyboard_and_mouse(open_chapter, base_url):
    chapter, data, figure = opened(open_chapter, base_url + PAGE, NAME)
    last = len(data["tokens"]) - 1
    assert chapter.numbers(NAME) == data["text"]["numbers"] == text_lines(data, _state(data, 0, last))
    words = figure.locator(".rs-word")
    expect(words).to_have_count(len(data["tokens"]))
    expect(words.nth(last)).to_have_attribute("aria-pressed", "true")
    expect(words.nth(last).locator(".rs-seg.rs-off")).to_have_count(len(data["stages"]) - 1)  # only the embedding

    # the marked control: ArrowRight on the first stage radio moves to attention 1
    first = figure.locator("[data-key-control]")
    assert first.get_attribute("data-key-control") == "ArrowRight"
    first.focus()
    first.press("ArrowRight")
    expect(figure.locator("input[type=radio]").nth(1)).to_be_checked()
    assert chapter.numbers(NAME) == text_lines(data, _state(data, 1, last))
    expect(words.nth(last).locator(".rs-prev")).to_have_text("↤ so")  # what attention 1 wrote

    # Next twice: attention 2 has copied "Lovelace" into the next slot, and the readout says so
    figure.locator(".rs-next").click()
    figure.locator(".rs-next").click()
    assert chapter.numbers(NAME) == text_lines(data, _state(data, 3, last))
    expect(words.nth(last).locator(".rs-next-slot")).to_have_text("↦ Lovelace")
    target = data["words"].index("Lovelace")
    row = figure.locator(".rs-readout li").nth(target)
    expect(row.locator(".rs-rnum")).to_have_text(f"{data['probs'][3][last][target]:.2f}")
    expect(row).to_have_class("rs-top")
    expect(figure.locator(".rs-added")).to_have_text(data["text"]["states"][_state(data, 3, last)]["label"])
    seg = words.nth(last).locator(".rs-seg").nth(3)
    assert seg.evaluate("(el) => el.style.getPropertyValue('--h')") == \
        f"{100 * data['norms'][3][last] / data['bar_max']:.2f}%"

    # arrow keys on a word step through the words and keep focus on the word shown
    words.nth(last).focus()
    words.nth(last).press("ArrowLeft")
    expect(words.nth(last - 1)).to_be_focused()
    assert chapter.numbers(NAME) == text_lines(data, _state(data, 3, last - 1))

    # the mouse: Back, then pointing at a word
    figure.locator(".rs-back").click()
    words.nth(3).hover()
    assert chapter.numbers(NAME) == text_lines(data, _state(data, 2, 3))
    expect(words.nth(3).locator(".rs-next-slot")).to_have_text("↦ the")  # FFN 1's memory of "wrote"
    figure.get_by_label("+ FFN 2").check()
    expect(figure.locator(".rs-next")).to_be_disabled()
    assert chapter.numbers(NAME) == text_lines(data, _state(data, 4, 3))


def test_tap_at_375px(open_chapter, base_url):
    visit = PhoneVisit(open_chapter, base_url + PAGE, NAME)
    data, figure = visit.data, visit.figure
    visit.opens_at(_state(data, 0, len(data["tokens"]) - 1))
    for _ in range(4):
        visit.taps(figure.locator(".rs-next"), None)
    word = figure.locator(".rs-word").nth(2)
    visit.taps(word, _state(data, 4, 2))
    expect(word).to_have_attribute("aria-pressed", "true")
    visit.fits()
