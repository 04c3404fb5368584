"""word-map in the browser: the probe moves by keys, touch and mouse; its nearest words are the engine's,
and the key numbers are the model's text for the probe's grid cell."""
from __future__ import annotations

import re

import pytest

from engine.tasks.corpus import word_space

from ..conftest import expect
from .helpers import centre, expect_same_node_focused, mouse_drag, opened, press_in_place, text_lines, touch_drag

PAGE = "02-words-as-points.html"


def _probe(chapter):
    """(x, y) and the nearest words as the key numbers state them."""
    line = chapter.numbers("word-map")[0]
    m = re.match(r"Probe at \((-?[\d.]+), (-?[\d.]+)\), nearest: (.*)$", line)
    assert m, line
    return (float(m.group(1)), float(m.group(2))), [part.rsplit(" ", 1) for part in m.group(3).split(", ")]


def _assert_engine_agrees(chapter, data):
    (x, y), shown = _probe(chapter)
    ix = min(range(len(data["grid"]["xs"])), key=lambda i: abs(data["grid"]["xs"][i] - x))
    iy = min(range(len(data["grid"]["ys"])), key=lambda i: abs(data["grid"]["ys"][i] - y))
    point = (data["grid"]["xs"][ix], data["grid"]["ys"][iy])
    expected = word_space().nearest_on_map(point, len(shown))
    assert [w for w, _ in shown] == [w for w, _ in expected]
    for (_, d), (_, e) in zip(shown, expected):
        assert abs(float(d) - e) <= 0.005 + 1e-9
    return ix, iy


def test_probe_by_keyboard_touch_and_mouse(open_chapter, base_url):
    chapter, data, figure = opened(open_chapter, base_url + PAGE, "word-map", has_touch=True,
                                    viewport={"width": 375, "height": 900})
    columns = len(data["grid"]["xs"])
    assert chapter.numbers("word-map") == data["text"]["numbers"]
    assert _assert_engine_agrees(chapter, data) == tuple(data["start"])

    probe = figure.locator(".probe")
    press_in_place(probe, "ArrowRight")
    ix, iy = _assert_engine_agrees(chapter, data)
    assert (ix, iy) == (data["start"][0] + 1, data["start"][1])
    assert chapter.numbers("word-map") == text_lines(data, iy * columns + ix)
    probe.press("ArrowUp")
    assert _assert_engine_agrees(chapter, data) == (ix, iy + 1)
    assert chapter.numbers("word-map") == text_lines(data, (iy + 1) * columns + ix)
    expect(probe).to_have_attribute("aria-valuetext", text_lines(data, (iy + 1) * columns + ix)[0])
    expect_same_node_focused(chapter.page)

    # A finger drags the probe onto "tired": the nearest word becomes tired.
    tired = figure.locator("svg text.map-word", has_text=re.compile("^tired$"))
    figure.scroll_into_view_if_needed()
    target = _point_of(chapter, data, "tired")
    touch_drag(chapter.page, centre(probe), target)
    _assert_engine_agrees(chapter, data)
    assert _probe(chapter)[1][0][0] == "tired"
    expect(tired).to_have_class(re.compile(r"\bnear\b"))

    # A mouse press on empty map moves the probe there, then drags it to "hungry".
    mouse_drag(chapter.page, _point_of(chapter, data, "quiet"), _point_of(chapter, data, "hungry"))
    _assert_engine_agrees(chapter, data)
    assert _probe(chapter)[1][0][0] == "hungry"


def _point_of(chapter, data, word):
    """Page position of a word's point: the map's scale from its grid (xs/ys ends at the svg edges)."""
    svg = chapter.figure("word-map").locator(".figure-plot svg")
    box = svg.bounding_box()
    xs, ys = data["grid"]["xs"], data["grid"]["ys"]
    x, y = data["coords"][data["words"].index(word)]
    return (box["x"] + (x - xs[0]) / (xs[-1] - xs[0]) * box["width"],
            box["y"] + (ys[-1] - y) / (ys[-1] - ys[0]) * box["height"])


# Steps the probe over every grid cell with its own arrow keys (the view moves it at once) and lists,
# per cell, the labels drawn under the probe's cross or on another label (their boxes on screen).
CROWDED_CELLS = """(f) => {
  const probe = f.querySelector(".probe"), cross = f.querySelector(".probe-cross");
  const key = (k) => probe.dispatchEvent(new KeyboardEvent("keydown", { key: k, bubbles: true }));
  const columns = Number(probe.getAttribute("aria-valuemax")) + 1;
  for (let i = 0; i < columns; i++) { key("ArrowLeft"); key("ArrowDown"); }
  const meets = (a, b) => a.left < b.right && a.right > b.left && a.top < b.bottom && a.bottom > b.top;
  const found = [];
  for (let row = 0; row < columns; row++) {
    for (let col = 0; col < columns; col++) {
      const labels = [...f.querySelectorAll("text.map-word")].map((t) => [t.textContent, t.getBoundingClientRect()]);
      const under = cross.getBoundingClientRect(), at = `${row % 2 ? columns - 1 - col : col},${row}`;
      labels.forEach(([word, box], i) => {
        if (meets(box, under)) found.push(`probe at ${at} covers ${word}`);
        labels.slice(i + 1).forEach(([other, b]) => { if (meets(box, b)) found.push(`${word} on ${other} at ${at}`); });
      });
      key(row % 2 ? "ArrowLeft" : "ArrowRight");
    }
    key("ArrowUp");
  }
  return found;
}"""


@pytest.mark.parametrize("screen", [{"viewport": {"width": 375, "height": 900}, "has_touch": True, "is_mobile": True},
                                    {"viewport": {"width": 1280, "height": 900}}], ids=["phone", "wide"])
def test_no_label_lies_under_the_probe_or_another_label(open_chapter, base_url, screen):
    _, _, figure = opened(open_chapter, base_url + PAGE, "word-map", **screen)
    figure.scroll_into_view_if_needed()
    assert figure.evaluate(CROWDED_CELLS) == []
