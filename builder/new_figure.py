"""`python3 dev.py new-figure NAME`: a working figure to start from, so a new figure is not learned by
copying another one. It writes the model, the fallback, the view and both test files: the model's
module is what makes it a figure (engine.figures finds FIGURES from its modules), so no list is
edited; the figure builds and its tests pass as written (tests/builder/test_new_figure.py).

The skeleton shows the softmax weights of three fixed scores multiplied by a "sharpness" the reader
sets with a slider: one ranged option, every slider stop precomputed so the view works before
Python loads, key numbers per stop in text.states, and one template for the bars' labels.
"""
from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RE_NAME = re.compile(r"[a-z][a-z0-9]*(?:-[a-z0-9]+)*")


def files(name: str) -> dict[Path, str]:
    """Repository-relative path -> text of every new file for figure `name`."""
    mod = name.replace("-", "_")
    fill = {"name": name, "mod": mod}
    return {Path(path.format(**fill)): text.replace("__NAME__", name).replace("__MOD__", mod)
            for path, text in TEMPLATES.items()}


def create(root: Path, name: str) -> list[Path]:
    """Write figure `name` into the repository at `root`; the files written."""
    if not RE_NAME.fullmatch(name):
        raise SystemExit(f"new-figure: '{name}' is not a figure name: lower-case words joined by dashes, "
                         "as in 'softmax-temperature'")
    new = files(name)
    taken = [p for p in new if (root / p).exists()]
    if taken:
        raise SystemExit(f"new-figure: {taken[0]} already exists; choose another name or remove it")
    for path, text in new.items():
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_text(text)
    return list(new)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python3 dev.py new-figure", description="Start a new figure from a working skeleton.")
    ap.add_argument("name", help="the figure's name: lower-case words joined by dashes, e.g. 'value-mix'")
    args = ap.parse_args(argv)
    name = args.name
    written = create(ROOT, name)
    mod = name.replace("-", "_")
    print(f"new figure '{name}':", *(f"  {p}" for p in written), sep="\n")
    print(f"""next:
  1. put it on a page: a chapter line with '/// figure | {name}', a caption, then '///'
  2. .venv/bin/python -m pytest tests/engine/figures/test_{mod}.py tests/browser/figures/test_{mod}.py -q
  3. python3 dev.py serve, and make it yours: the model first (each option's doc= is what the catalogue
     says of it: python3 dev.py catalogue), then the view, fallback and tests""")
    return 0


TEMPLATES = {
    "engine/figures/{mod}.py": '''"""__NAME__: the softmax weights of a few scores, multiplied by a sharpness the reader sets.

(A skeleton from `python3 dev.py new-figure`: replace what it shows, keep the shape.)
Precomputed states: state i of text.states holds the key numbers at sharpnesses[i], the slider's stop i,
so the view never asks Python: a view that does also states LIVE (engine/figures/__init__.py), and its
ASK in tests/browser/asks.py.
`text.parts` are the templates of the short texts the view places: a bar's label (`weight`) and the
slider's readout (`sharpness`).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..attention import softmax_forward
from .fmt import fill, fixed, rounded
from .params import field

LABELS = ["cat", "sat", "mat"]  # one word per score
SCORES = [2.0, 1.0, 0.5]
LO, HI, STEP = 0.0, 4.0, 0.25  # the sharpness slider: its ends and its step
PARTS = {"weight": "{v:2}", "sharpness": "sharpness {v:2}"}  # shipped as text.parts: the view prints by them


@dataclass(frozen=True)
class Params:
    sharpness: float = field(1.0, lo=LO, hi=HI, step=STEP, doc="the slider's starting position")


EXAMPLE = {"sharpness": 2.5}  # options other than the defaults: the shared tests run the figure with them too
# A Params with rules across its options (a __post_init__ raising ParamError) also states
# BROKEN = ({options that break one}, "the option named"): the shared tests check the rule refuses them.


def compute(p: Params) -> dict:
    """Every stop of the slider, so the view needs no Python to move it."""
    sharpnesses = np.linspace(LO, HI, round((HI - LO) / STEP) + 1)  # (S,)
    scores = np.asarray(SCORES)  # (n,)
    weights, _ = softmax_forward(sharpnesses[:, None] * scores[None, :])  # (S, n); the cache is for backward
    return {
        "labels": LABELS,
        "scores": SCORES,
        "sharpnesses": sharpnesses.tolist(),
        "weights": rounded(weights, 4),
        "start": int(np.argmin(np.abs(sharpnesses - p.sharpness))),
    }


def _line(data: dict, i: int) -> str:
    """The key numbers at stop i, each weight as the view labels its bar."""
    weights = ", ".join(f"{label} {fill(PARTS['weight'], {'v': w})}" for label, w in zip(data["labels"], data["weights"][i]))
    return f"Sharpness {fixed(data['sharpnesses'][i])}: {weights}"


def text(p: Params, data: dict) -> dict:
    states = [{"numbers": [_line(data, i)]} for i in range(len(data["sharpnesses"]))]
    fixed_lines = ["Scores: " + ", ".join(f"{label} {s:g}" for label, s in zip(data["labels"], data["scores"]))]
    opening = states[opening_state(p, data)]["numbers"]
    return {
        "alt": (f"Bars of the softmax weights of the words {', '.join(data['labels'])} with scores "
                f"{', '.join(f'{s:g}' for s in data['scores'])}. {opening[0]}."),
        "numbers": opening + fixed_lines,  # a state's key numbers are its own lines, then the fixed ones
        "states": states,
        "fixed": fixed_lines,
        "parts": PARTS,
    }


def state_count(data: dict) -> int:
    """How many states the view steps through: one per stop of the slider."""
    return len(data["sharpnesses"])


def opening_state(p: Params, data: dict) -> int:
    """The state the view opens in: the stop nearest the option's sharpness."""
    return data["start"]
''',
    "builder/fallbacks/{mod}.py": '''"""Fallback for __NAME__: the weights at the opening sharpness, one labelled bar per word."""
from __future__ import annotations

import numpy as np

from engine.figures.fmt import fill

from . import COLOURS


def draw(fig, data):
    i = data["start"]
    weights, parts = data["weights"][i], data["text"]["parts"]
    x = np.arange(len(data["labels"]))
    ax = fig.subplots()
    ax.bar(x, weights, color=COLOURS["prediction"])
    ax.set_xticks(x, data["labels"])
    ax.set_ylim(0, 1.12)  # room for the label of a bar at 1
    ax.set_ylabel("weight")
    ax.set_title(fill(parts["sharpness"], {"v": data["sharpnesses"][i]}))
    for xi, w in zip(x, weights):
        ax.text(xi, w + 0.02, fill(parts["weight"], {"v": w}), ha="center", fontsize=8)  # as the view labels it
''',
    "theme/figures/{name}.js": '''// __NAME__: one bar per word, its softmax weight at the sharpness the slider sets. The slider steps
// through data.sharpnesses (keyboard, mouse and touch, as any range input); every stop is
// precomputed by the model: stop i is state i of data.text.states.
import { html, rangeControl, set, svg } from "../js/svg.js";
import { fill } from "../js/text.js";

const W = 300, H = 150, TOP = 18, BOTTOM = 20; // the drawing's viewBox: it scales to the column

export function mount(root, ctx) {
  const data = ctx.data;
  const n = data.labels.length;
  let stop = ctx.opening(data.start); // its own opening stop, or the one a link to this view names

  const controls = html("div", { class: "figure-controls" }, root);
  const { input: slider, output } = rangeControl(controls, ctx.figure.id + "-sharpness", "Sharpness ",
    { max: data.sharpnesses.length - 1, value: stop, "data-key-control": "ArrowRight" });
  slider.addEventListener("input", () => { stop = Number(slider.value); update(); });

  const plot = html("div", { class: "figure-plot" }, root);
  const s = svg("svg", { viewBox: `0 0 ${W} ${H}`, role: "img" }, plot);
  const band = W / n;
  const bars = data.labels.map((label, j) => {
    const x = j * band + band / 2;
    const rect = svg("rect", { class: "prediction", x: x - band * 0.3, width: band * 0.6 }, s);
    const value = svg("text", { class: "value", x, "text-anchor": "middle" }, s);
    svg("text", { class: "tick", x, y: H - 5, "text-anchor": "middle" }, s).textContent = label;
    return { rect, value };
  });

  function update() {
    const weights = data.weights[stop];
    slider.value = String(stop);
    output.textContent = fill(data.text.parts.sharpness, { v: data.sharpnesses[stop] });
    bars.forEach((b, j) => {
      const h = weights[j] * (H - TOP - BOTTOM);
      set(b.rect, { y: H - BOTTOM - h, height: h });
      set(b.value, { y: H - BOTTOM - h - 4 });
      b.value.textContent = fill(data.text.parts.weight, { v: weights[j] });
    });
    s.setAttribute("aria-label", data.text.states[stop].numbers[0]);
    ctx.setText(data.text, stop);
  }

  update();
  return {};
}
''',
    "tests/engine/figures/test_{mod}.py": '''"""__NAME__: the weights are the engine's softmax at every stop of the slider, and the text says them."""
from __future__ import annotations

import numpy as np
import pytest

from engine.figures import ParamError, compute, parse


def test_every_stop_is_the_softmax_of_the_sharpened_scores():
    data = compute(parse("__NAME__"))
    scores = np.array(data["scores"])
    for s, w in zip(data["sharpnesses"], data["weights"]):
        e = np.exp(s * scores - (s * scores).max())
        np.testing.assert_allclose(w, e / e.sum(), atol=1e-4)
    assert data["weights"][0] == pytest.approx([1 / len(scores)] * len(scores), abs=1e-4)  # sharpness 0: uniform


def test_the_opening_stop_is_the_option_and_its_numbers_are_listed():
    data = compute(parse("__NAME__", {"sharpness": 2.0}))
    i = data["start"]
    assert data["sharpnesses"][i] == 2.0
    assert data["text"]["numbers"] == data["text"]["states"][i]["numbers"] + data["text"]["fixed"]
    assert data["text"]["numbers"][0].startswith("Sharpness 2.00: cat ")
    assert len(data["text"]["states"]) == len(data["sharpnesses"])


def test_a_sharpness_out_of_range_is_refused():
    with pytest.raises(ParamError, match="'sharpness' must lie between"):
        parse("__NAME__", {"sharpness": 9})
''',
    "tests/browser/figures/test_{mod}.py": '''"""__NAME__ in the browser: the slider steps by keyboard and by touch, the numbers and bar labels are
the model's, and it fits a 375 px screen."""
from __future__ import annotations

from engine.figures import compute, parse

from ..conftest import expect
from .helpers import text_lines

NAME = "__NAME__"  # the url fixture (conftest.py) builds a page that shows it


def test_slider_by_keyboard_and_touch_at_375_px(open_chapter, url):
    chapter = open_chapter(url, has_touch=True, viewport={"width": 375, "height": 800})
    chapter.wait_prerendered()
    data = compute(parse(NAME))
    figure = chapter.figure(NAME)
    start = data["start"]
    assert chapter.numbers(NAME) == text_lines(data, start)

    slider = figure.locator("[data-key-control]")
    slider.focus()
    slider.press(slider.get_attribute("data-key-control"))
    expect(slider).to_have_value(str(start + 1))
    assert chapter.numbers(NAME) == text_lines(data, start + 1)
    expect(figure.locator("text.value").first).to_have_text(f"{data['weights'][start + 1][0]:.2f}")

    box = slider.bounding_box()
    chapter.page.touchscreen.tap(box["x"] + 2, box["y"] + box["height"] / 2)  # the slider's left end
    expect(slider).to_have_value("0")
    assert chapter.numbers(NAME) == text_lines(data, 0)
    assert chapter.page.evaluate("document.documentElement.scrollWidth") <= 375
''',
}


if __name__ == "__main__":
    sys.exit(main())
