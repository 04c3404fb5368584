"""worked-mixture: the worked arithmetic shows the engine's numbers to 4 decimals, the head
switch works from the keyboard and with a tap, and the figure reads at 375 px. Both heads are
drawn once and the switch shows one of them, so the checks read the visible one (`:visible`); the
key numbers and the plot's label are the model's text.

The figure belongs in chapter 5; so that this test does not depend on where it is placed,
it builds a one-chapter site of its own around the figure.
"""
from __future__ import annotations

import json

import pytest

from engine.figures import compute, parse

from ..conftest import PHONE, ROOT, expect, serious_violations
from .helpers import text_lines

CHAPTER = """# Worked mixture

A chapter holding only the figure under test.

/// figure | worked-mixture

The calculation at bank, one head at a time.
///
"""


@pytest.fixture(scope="module")
def mixture_url(tmp_path_factory, serve_folder) -> str:
    from builder.build import Paths, build

    base = tmp_path_factory.mktemp("worked-mixture")
    content = base / "content"
    content.mkdir()
    (content / "site.toml").write_text(
        '[site]\ntitle = "Test"\ndescription = "One figure."\nauthor = "Tests"\n\n'
        '[[chapters]]\nfile = "03-mixture.md"\n')
    (content / "03-mixture.md").write_text(CHAPTER)
    out = base / "dist"
    build(Paths.at(ROOT, content=content), out, pyodide_dist=None)
    return serve_folder(out) + "03-mixture.html"


def _four(x: float) -> str:
    return f"{x + 0.0:.4f}"


def _expect_head(figure, head: dict, h: int, labels: list[str]) -> None:
    steps = figure.locator(".worked-mixture-steps > div:visible")
    expect(steps).to_have_count(1)
    expect(steps).to_contain_text(f"Head {h + 1}, at bank")
    text = steps.text_content()
    for j, word in enumerate(labels):
        # The dot product term by term, its sum, and the score after dividing by the square root of d.
        products = " + ".join(_four(p) for p in head["products"][j])
        assert f"= {products} = {_four(head['dots'][j])}; ÷ {_four(head['root_d'])} = {_four(head['scores'][j])}" in text
        assert f"{word}: e{_four(head['scores'][j])} = {_four(head['exps'][j])}" in text
        assert f"{word}: {_four(head['exps'][j])} ÷ {_four(head['exp_sum'])} = {_four(head['weights'][j])}" in text
    assert "total: " + " + ".join(_four(e) for e in head["exps"]) + f" = {_four(head['exp_sum'])}" in text
    for t, o in enumerate(head["output"]):
        terms = " + ".join(_four(row[t]) for row in head["weighted"])
        assert f"number {t + 1}: " in text and f"= {terms} = {_four(o)}" in text
    out = ", ".join(_four(o) for o in head["output"])
    assert f"Output of head {h + 1}: ({out})" in text


def test_the_arithmetic_is_the_engines_for_each_head(open_live_chapter, mixture_url):
    chapter = open_live_chapter(mixture_url)
    figure = chapter.figure("worked-mixture")
    data = chapter.data("worked-mixture")
    assert data == json.loads(json.dumps(compute(parse("worked-mixture"))))
    heads, labels = data["heads"], data["labels"]
    # The essay's numbers, as the figure prints them.
    assert [_four(w) for w in heads[0]["weights"]] == ["0.6652", "0.2447", "0.0900"]
    assert chapter.numbers("worked-mixture") == data["text"]["numbers"] == text_lines(data, 0)
    _expect_head(figure, heads[0], 0, labels)

    first = figure.get_by_role("radio", name="head 1")
    expect(first).to_be_checked()
    first.focus()
    first.press("ArrowRight")  # the radio group moves to head 2
    expect(figure.get_by_role("radio", name="head 2")).to_be_checked()
    _expect_head(figure, heads[1], 1, labels)
    expect(figure.locator(".worked-mixture-plot svg:visible")).to_have_attribute("aria-label", data["text"]["states"][1]["label"])
    assert chapter.numbers("worked-mixture") == text_lines(data, 1) == data["text"]["numbers"]  # both heads, always
    figure.get_by_role("radio", name="head 2").press("ArrowLeft")
    expect(first).to_be_checked()
    expect(first).to_be_focused()
    _expect_head(figure, heads[0], 0, labels)
    assert figure.get_attribute("data-state") == "prerendered"  # both heads are embedded: no Python needed


def test_a_tap_switches_heads_and_the_figure_stacks_at_375(open_chapter, mixture_url):
    chapter = open_chapter(mixture_url, **PHONE)
    chapter.wait_prerendered()
    figure = chapter.figure("worked-mixture")
    heads = chapter.data("worked-mixture")["heads"]
    figure.locator(".worked-mixture-heads label").nth(1).tap()
    expect(figure.get_by_role("radio", name="head 2")).to_be_checked()
    out = ", ".join(_four(o) for o in heads[1]["output"])
    expect(figure.locator(".wm-result:visible")).to_contain_text(f"({out})")
    plot = figure.locator(".worked-mixture-plot svg:visible")
    expect(plot).to_have_attribute("aria-label", f"Values and output of head 2 as points: "
                                   f"value of fisherman at (2, 0), value of net at (0, 2), value of bank at (1, 1); "
                                   f"output at ({out}); the other head's output at "
                                   f"({', '.join(_four(o) for o in heads[0]['output'])}).")
    steps = figure.locator(".worked-mixture-steps").bounding_box()
    box = plot.bounding_box()
    assert box["y"] >= steps["y"] + steps["height"] - 1, "at 375 px the plot should sit below the arithmetic"
    body = figure.locator(".figure-body").bounding_box()
    wide = figure.evaluate("""(fig) => [...fig.querySelectorAll("*")]
        .filter((e) => e.getBoundingClientRect().right > fig.getBoundingClientRect().right + 0.5)
        .map((e) => e.tagName + "." + e.className)""")
    assert wide == [], f"past the figure's right edge at 375 px: {wide}"
    assert body["x"] + body["width"] <= 375
    assert chapter.scroll_width() <= 375


def test_when_wide_the_plot_is_large_below_the_arithmetic_and_no_serious_axe_violations(open_chapter, mixture_url):
    """The arithmetic takes the figure's width (its long lines need it) and the plot, 300 px, follows:
    beside it, the plot was squeezed to ~180 px and its labels ran into each other."""
    chapter = open_chapter(mixture_url, viewport={"width": 1200, "height": 900})
    chapter.wait_prerendered()
    figure = chapter.figure("worked-mixture")
    steps = figure.locator(".worked-mixture-steps").bounding_box()
    plot = figure.locator(".worked-mixture-plot svg:visible").bounding_box()
    assert plot["y"] >= steps["y"] + steps["height"] - 1 and plot["width"] >= 300
    violations = serious_violations(chapter.page)
    assert violations == [], json.dumps(violations, indent=1)
