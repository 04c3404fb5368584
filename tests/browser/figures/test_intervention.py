"""intervention in the browser: the ablation radios (keyboard, mouse, touch) and the word menus show
the model's precomputed state for (ablation, edit), one word changed at a time; fits 375 px."""
from __future__ import annotations

from ..conftest import expect
from .helpers import PhoneVisit, opened, text_lines

PAGE = "12-what-attention-is-and-is-not.html"
NAME = "intervention"


def _state(data, ablation: str, position: int = -1, word: str | None = None) -> int:
    a = [x["key"] for x in data["ablations"]].index(ablation)
    e = 0 if position < 0 else data["edit_of"][position][data["choices"][position].index(word)]
    return a * len(data["edits"]) + e


def test_ablate_and_swap_by_keyboard_and_mouse(open_chapter, base_url):
    chapter, data, figure = opened(open_chapter, base_url + PAGE, NAME)
    assert chapter.numbers(NAME) == text_lines(data, _state(data, "none"))
    n = len(data["words"])
    expect(figure.locator(".th-cell")).to_have_count(2 * n * n)
    expect(figure.locator(".iv-bar-value").first).to_have_text(data["held_out"]["shown"][0]["attached"])

    # the marked control: ArrowRight on the checked radio ablates head 1
    key = figure.locator("[data-key-control]")
    assert key.get_attribute("data-key-control") == "ArrowRight"
    key.focus()
    key.press("ArrowRight")
    expect(figure.locator("input[type=radio]").nth(1)).to_be_checked()
    assert chapter.numbers(NAME) == text_lines(data, _state(data, "head1"))
    expect(figure.locator(".iv-bar-value").first).to_have_text(data["held_out"]["shown"][1]["attached"])
    expect(figure.locator(".iv-ablated")).to_have_count(1)
    expect(figure.locator(".iv-named-attached.iv-wrong")).to_have_count(
        data["edits"][0]["right"][1]["attached"].count(0))

    # a word menu: swap the noun; the grids' labels and the readouts follow
    noun = data["words"].index("dog")
    figure.get_by_label(f"Word {noun + 1} (dog)").select_option(label="cat")
    assert chapter.numbers(NAME) == text_lines(data, _state(data, "head1", noun, "cat"))
    expect(figure.locator(".th-grid").first.locator("tbody th").nth(noun)).to_have_text("cat")

    # one word at a time: changing another word puts the noun back
    figure.get_by_label("Word 2 (old)").select_option(label="red")
    assert chapter.numbers(NAME) == text_lines(data, _state(data, "head1", 1, "red"))
    expect(figure.get_by_label(f"Word {noun + 1} (dog)")).to_have_value(str(data["choices"][noun].index("dog")))

    # the mouse: clicking a label ablates both heads
    figure.get_by_label("both").check()
    assert chapter.numbers(NAME) == text_lines(data, _state(data, "both", 1, "red"))
    expect(figure.locator(".iv-ablated")).to_have_count(2)


def test_tap_at_375px_fits(open_chapter, base_url):
    visit = PhoneVisit(open_chapter, base_url + PAGE, NAME)
    visit.opens_at(_state(visit.data, "none"))
    radio = visit.figure.locator("input[type=radio]").nth(2)
    visit.taps(radio, _state(visit.data, "head2"))
    expect(radio).to_be_checked()
    visit.fits()
