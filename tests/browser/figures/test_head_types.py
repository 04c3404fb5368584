"""head-types in the browser: the head radios and the token chips (mouse, touch, keyboard) show the
model's precomputed state for (head, token); leading spaces are visible marks; masked tokens are empty."""
from __future__ import annotations

from ..conftest import expect
from .helpers import PhoneVisit, opened, text_lines

PAGE = "07-many-heads.html"
NAME = "head-types"


def _state(data, head: str, row: int) -> int:
    return [h["name"] for h in data["heads"]].index(head) * len(data["tokens"]) + row


def test_heads_and_tokens_by_keyboard_and_mouse(open_chapter, base_url):
    chapter, data, figure = opened(open_chapter, base_url + PAGE, NAME)
    # it opens on the previous-word head, the one the chapter describes first
    assert chapter.numbers(NAME) == data["text"]["numbers"] == text_lines(data, _state(data, "previous", 8))
    expect(figure.locator("input[type=radio]").nth(0)).to_be_checked()
    chips = figure.locator(".ht-chip")
    expect(chips).to_have_count(len(data["tokens"]))
    expect(chips.nth(3).locator(".ht-space")).to_have_text("·")  # " the" keeps its space
    expect(chips.nth(0).locator(".ht-space")).to_have_count(0)  # "The" has none
    expect(chips.nth(8)).to_have_attribute("aria-pressed", "true")
    expect(chips.nth(7)).to_have_class("ht-chip chip chip-target")  # the previous-word head's target: " the"
    expect(chips.nth(9).locator(".ht-num")).to_have_text("")  # masked: a later token
    expect(figure.locator(".ht-wrote").first).to_be_hidden()  # layer 1's writing shows with the induction head

    # the marked control: ArrowRight on the first head's radio moves to the same-word head
    first = figure.locator("[data-key-control]")
    assert first.get_attribute("data-key-control") == "ArrowRight"
    first.focus()
    first.press("ArrowRight")
    expect(figure.locator("input[type=radio]").nth(1)).to_be_checked()
    assert chapter.numbers(NAME) == text_lines(data, _state(data, "same", 8))
    expect(chips.nth(1)).to_have_class("ht-chip chip chip-target")

    # the induction head: its target at the second " dog" is " chased", and under each token what
    # layer 1 added to its vector
    figure.get_by_label("induction head").check()
    assert chapter.numbers(NAME) == text_lines(data, _state(data, "induction", 8))
    expect(chips.nth(2)).to_have_class("ht-chip chip chip-target")
    weight = data["heads"][2]["weights"][8][2]
    expect(chips.nth(2).locator(".ht-num")).to_have_text(f"{weight:.2f}")
    assert chips.nth(2).locator(".ht-fill").evaluate("(el) => el.style.getPropertyValue('--w')") == f"{100 * weight:.1f}%"
    expect(figure.locator(".ht-wrote").nth(3)).to_have_text("·chased")  # what layer 1 wrote at " the"
    figure.get_by_label("same-word head").check()

    # arrow keys on a chip step through the tokens and keep focus on the chip shown
    chips.nth(8).focus()
    chips.nth(8).press("ArrowRight")
    expect(chips.nth(9)).to_be_focused()
    assert chapter.numbers(NAME) == text_lines(data, _state(data, "same", 9))
    expect(figure.locator(".ht-verdict")).to_have_text(data["text"]["states"][_state(data, "same", 9)]["label"])

    # the mouse: pointing at a chip shows it, clicking a head label switches the head
    chips.nth(4).hover()
    assert chapter.numbers(NAME) == text_lines(data, _state(data, "same", 4))
    figure.get_by_label("previous-word head").check()
    assert chapter.numbers(NAME) == text_lines(data, _state(data, "previous", 4))


def test_tap_a_token_at_375px(open_chapter, base_url):
    visit = PhoneVisit(open_chapter, base_url + PAGE, NAME)
    visit.opens_at(_state(visit.data, "previous", 8))
    chip = visit.figure.locator(".ht-chip").nth(10)
    visit.taps(chip, _state(visit.data, "previous", 10))
    expect(chip).to_have_attribute("aria-pressed", "true")
    expect(visit.figure.locator(".ht-chip.chip-target")).to_have_count(1)  # " chased", just before
    visit.fits()
