"""colour-tokens in the browser: every toggle combination shows the engine's numbers, the
gathering token can be picked by touch and keyboard, and editing a colour recomputes. The key
numbers are the model's text for the case on screen (data.text.states, flattened like the cases)."""
from __future__ import annotations

import itertools

import pytest

from engine.figures import compute, parse

from ..conftest import expect
from .conftest import alone
from .helpers import PhoneVisit, expect_same_node_focused, opened, press_in_place, without_python

NAME = "colour-tokens"


@pytest.mark.parametrize("controls, key_control", [
    ("[]", ".ct-row-pick"), ("[positions]", "input[type=checkbox]"), ("[tokens]", "select")])
def test_a_chapter_offers_only_the_controls_it_names(open_chapter, scratch_page, controls, key_control):
    chapter = open_chapter(scratch_page(alone(NAME).replace(f"| {NAME}\n", f"| {NAME}\n    controls: {controls}\n")))
    chapter.wait_prerendered()
    figure = chapter.figure(NAME)
    shown = figure.evaluate("""(fig) => [...fig.querySelectorAll(".figure-controls > label, .figure-controls > legend")]
        .filter((el) => el.checkVisibility()).map((el) => [...el.childNodes].find((n) => n.nodeType === 3).data.trim())""")
    names = {"[]": [], "[positions]": ["Add positional encoding"],
             "[tokens]": ["Tokens", "Change a token’s colour", "1", "2", "3"]}  # a menu per token
    assert shown == names[controls]
    marked = figure.locator("[data-key-control]")
    expect(marked).to_have_count(1)
    assert marked.evaluate(f"(el) => el.matches({key_control!r})")


def _expected(data: dict, **state) -> list[str]:
    """The key-number lines the model wrote for the case `state` (the opening case, changed by state)."""
    s = {**data["start"], **state}
    index = ((s["sequence"] * 2 + s["heads"] - 1) * 2 + int(s["causal"])) * 2 + int(s["positions"])
    return data["text"]["states"][index]["numbers"]


def test_every_combination_shows_the_engine_numbers(open_chapter, url):
    chapter, data, figure = opened(open_chapter, url, NAME)
    assert chapter.numbers(NAME) == data["text"]["numbers"] == _expected(data)  # the same lines as the no-JavaScript page
    worked = figure.locator(".ct-steps").first
    expect(worked).to_contain_text("0.3837 = e0.5000 / (e0.5000 + e0 + e0.5000) = 1.6487 / 4.2974")
    expect(worked).to_contain_text("total = 1.6487 + 1 + 1.6487 = 4.2974")

    causal = figure.get_by_label("Block future tokens")
    positions = figure.get_by_label("Add positional encoding")
    for seq, heads, c, p in itertools.product(range(len(data["sequences"])), (1, 2), (False, True), (False, True)):
        figure.locator("select").nth(0).select_option(str(seq))
        figure.locator("select").nth(1).select_option(str(heads))
        causal.set_checked(c)
        positions.set_checked(p)
        want = _expected(data, sequence=seq, heads=heads, causal=c, positions=p, row=0)
        assert chapter.numbers(NAME) == want, (seq, heads, c, p)
        assert want[0].startswith("Tokens: " + ", ".join(data["sequences"][seq]["tokens"]) + " ("), want[0]
        expect(figure.locator(".ct-steps")).to_have_count(heads if heads == 1 else 3)  # two heads: + concat, W_O
        expect(figure.locator(".ct-project")).to_have_count(heads - 1)
    assert figure.get_attribute("data-state") == "prerendered"  # all of that was embedded: no Python


def test_blue_row_by_touch_and_keyboard(open_chapter, url):
    visit = PhoneVisit(open_chapter, url, NAME)
    chapter, figure = visit.chapter, visit.figure
    blue = figure.locator(".ct-pick").nth(1)
    visit.taps(blue, None)
    expect(blue).to_have_attribute("aria-pressed", "true")
    steps = figure.locator(".ct-steps")
    expect(figure.locator(".ct-who")).to_have_text("How blue (2) gathers")
    case = chapter.data(NAME)["sequences"][0]["cases"][0][0][0]
    shares = case["heads"][0]["shares"][1]
    assert [round(s, 4) for s in shares] == [0.2741, 0.4519, 0.2741]
    expect(steps).to_contain_text("blue (2): 0.4519 = e0.5000 / (e0 + e0.5000 + e0) = 1.6487 / 3.6487")
    expect(steps).to_contain_text("= [0.5481, 0.4519, 0, 0]")
    expect(figure.locator("svg.ct-bars")).to_have_attribute(
        "aria-label", "Shares of blue (2): red (1) 0.2741, blue (2) 0.4519, red (3) 0.2741")

    # the third token from the table's row buttons, with the keyboard
    third = figure.locator(".ct-row-pick").nth(2)
    press_in_place(third, "Enter")
    expect(figure.locator(".ct-who")).to_have_text("How red (3) gathers")
    expect(figure.locator(".ct-row-pick").nth(2)).to_be_focused()
    expect_same_node_focused(chapter.page)  # the row's button is marked in place, never redrawn
    expect(third).to_have_attribute("aria-pressed", "true")

    # the marked key control: space blocks future tokens
    box = figure.locator("[data-key-control]")
    box.focus()
    box.press(box.get_attribute("data-key-control"))
    expect(box).to_be_checked()
    assert chapter.numbers(NAME) == _expected(chapter.data(NAME), causal=True)
    expect(figure.locator("td.ct-blocked")).to_have_count(3)  # the three cells above the diagonal
    expect(figure.locator(".ct-steps")).to_contain_text("Scaled scores: divide by √4 = 2, block future tokens")
    figure.locator(".ct-pick").first.tap()
    expect(figure.locator(".ct-steps")).to_contain_text("blue (2): blocked, scaled score = −∞")
    expect(figure.locator(".ct-steps")).to_contain_text("total = 1.6487 + 0 + 0 = 1.6487")
    visit.fits()


def test_editing_a_colour_recomputes_in_the_worker(open_live_chapter, url):
    chapter = open_live_chapter(url)
    figure = chapter.figure(NAME)
    params = chapter.data(NAME)["params"]
    figure.get_by_label("Block future tokens").check()
    figure.locator(".ct-edit select").nth(2).select_option("green")
    expect(figure).to_have_attribute("data-state", "live")
    want = compute(parse(NAME, {**params, "tokens": ["red", "blue", "green"], "causal": True}))
    assert want["sequences"][want["start"]["sequence"]]["tokens"] == ["red", "blue", "green"]
    expect(figure.locator("ul.figure-numbers li").first).to_have_text(
        "Tokens: red, blue, green (one head, future tokens blocked, no positional encoding)")
    assert chapter.numbers(NAME) == _expected(want)
    expect(figure.locator(".ct-edit select").nth(2)).to_have_value("green")
    expect(figure.locator("select").first).to_have_value(str(want["start"]["sequence"]))
    expect(figure.locator(".figure-note")).to_be_hidden()

    # back to a precomputed sequence: found in the data, no request needed
    figure.locator(".ct-edit select").nth(2).select_option("red")
    expect(figure.locator("ul.figure-numbers li").first).to_have_text(
        "Tokens: red, blue, red (one head, future tokens blocked, no positional encoding)")


def test_an_edit_without_python_says_so_and_keeps_the_tokens(open_chapter, url):
    chapter = without_python(open_chapter, url)
    figure = chapter.figure(NAME)
    before = chapter.numbers(NAME)
    figure.locator(".ct-edit select").nth(0).select_option("yellow")
    expect(figure.locator(".figure-note")).to_contain_text("unavailable")
    expect(figure.locator(".ct-edit select").nth(0)).to_have_value("red")
    assert chapter.numbers(NAME) == before
    assert figure.get_attribute("data-state") == "prerendered"


def test_two_heads_show_the_concatenation_times_w_o(open_chapter, scratch_page):
    """With `controls: [heads]` (chapter 7) the heads menu is the key control; two heads add the
    concatenation and the output projection for the gathering token, numbers as the model prints them."""
    url = scratch_page(alone(NAME).replace(f"| {NAME}\n", f"| {NAME}\n    controls: [heads]\n"))
    chapter, data, figure = opened(open_chapter, url, NAME, viewport={"width": 375, "height": 800})
    expect(figure.locator(".ct-project")).to_have_count(0)
    heads = figure.locator("[data-key-control]")
    assert heads.evaluate("(el) => el.matches('select')") and heads.get_attribute("data-key-control") == "ArrowDown"
    heads.focus()
    heads.press("ArrowDown")
    expect(figure.locator(".ct-steps")).to_have_count(3)  # head 1, head 2, then concat and W_O
    assert chapter.numbers(NAME) == _expected(data, heads=2)
    project = figure.locator(".ct-project")
    expect(project.locator(".ct-who-o")).to_have_text("Concatenate, then project: red (1)")
    expect(project).to_contain_text("head 1 [0.8022, 0.1978] ‖ head 2 [0, 0] = [0.8022, 0.1978, 0, 0]")
    expect(project).to_contain_text(
        "out 2 = (0.8022 × 0.5000) + (0.1978 × -0.5000) + (0 × 0.5000) + (0 × -0.5000) = 0.3022")
    expect(project.locator("table.ct-wo tbody td")).to_have_count(16)
    case = data["sequences"][0]["cases"][1][0][0]
    expect(project).to_contain_text("result: " + "[" + ", ".join(
        f"{v:.4f}" for v in case["projected"][0]) + "]")
    figure.locator(".ct-row-pick").nth(1).click()  # blue gathers: the projection follows the row
    expect(figure.locator(".ct-who-o")).to_have_text("Concatenate, then project: blue (2)")
    scroll_width = chapter.scroll_width()
    assert scroll_width <= 375, f"the page is {scroll_width}px wide at 375px"
