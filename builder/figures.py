"""Figure occurrences on a page: compute the model, draw the fallback, and the HTML around the view."""
from __future__ import annotations

import copy
import json
import re
from dataclasses import dataclass
from pathlib import Path

from engine import figures as models
from engine import given as inputs
from engine.given import NOTHING, Given
from . import fallbacks
from .errors import BuildError


@dataclass
class RenderedFigure:
    name: str
    line: int  # where the directive stands, for errors
    label: str  # "Figure 4.1"
    attributes: dict  # attributes of the <figure> element
    body: dict  # what theme/templates/directives/figure.html shows: data, drawing, alt, numbers ("" in a draft)
    svg_path: str  # dist-relative path of the fallback
    svg: bytes
    files: dict  # dist-relative path -> bytes: the given files its worker fetches (engine/given.py)

    @property
    def live(self) -> bool:
        return "data-live" in self.attributes


def model_file(name: str) -> Path:
    """The figure's model module, beside the engine.figures the build imports (the code that ran,
    wherever the build reads its theme and content): where errors about its output and facts point."""
    return Path(models.__file__).with_name(f"{name.replace('-', '_')}.py")


def parts(name: str, theme: Path) -> dict[str, Path]:
    """The three files every figure needs: its model and its static fallback (code the build
    imports), and its view in the theme."""
    return {"model": model_file(name), "fallback": fallbacks.source(name), "view": theme / "figures" / f"{name}.js"}


def check_parts(name: str, theme: Path) -> None:
    """A figure with a part missing is a BuildError that names the figure and the missing file."""
    for role, path in parts(name, theme).items():
        if not path.is_file():
            raise BuildError(path, None, f"figure '{name}' has no {role} module: every figure needs "
                                         f"engine/figures/<name>.py, builder/fallbacks/<name>.py and "
                                         f"theme/figures/<name>.js (see README, 'Writing a figure')")


def _check_output(data: dict) -> None:
    """The model's output must be JSON (finite numbers) and carry the text the page shows."""
    name = data["figure"]
    model = model_file(name)
    try:
        json.dumps(data, allow_nan=False)
    except (TypeError, ValueError) as err:
        raise BuildError(model, None, f"figure '{name}': compute() must return JSON-able data "
                                      f"(lists, dicts, str, finite numbers): {err}") from None
    text = data.get("text")
    if not (isinstance(text, dict) and isinstance(text.get("alt"), str)
            and isinstance(text.get("numbers"), list) and all(isinstance(n, str) for n in text["numbers"])):
        raise BuildError(model, None, f"figure '{name}': text() must return {{'alt': str, 'numbers': [str, ...]}}")


def _key(params, given: Given):
    """A figure's cache key: its Params, and for a model that reads more (its GIVEN), the digests of
    what it was given, so an edit to any chapter recomputes a model that reads the prose."""
    names = models.given_names(params)
    return (params, given.only(names)) if names else params


def given_files(params, given: Given) -> dict[str, str]:
    """The files the figure's worker is given, by name: their addresses in the site, named by their
    content so that no cache keeps an old one."""
    return {name: f"files/{name}-{given.digest(name)}.bin" for name in models.given_names(params) if name in inputs.MADE}


def _computed(params, given: Given) -> dict:
    data = models.compute(params, given)
    _check_output(data)
    return data


class FigureCache:
    """Model outputs, prose facts and fallback SVGs by Params (a frozen dataclass, hashable, and of
    its figure's own class) and, for models that read more (their GIVEN), the digests of what they
    were given; and the files made from the prose. Shared across rebuilds in `serve`. With a
    `store` (builder/figure_store.py), what earlier runs computed from the same code and inputs is
    read from disk rather than computed, and what this one computes is kept there."""

    store = None  # as an instance pickled before there were stores has it

    def __init__(self, store=None):
        self._data: dict = {}
        self._facts: dict = {}
        self._svg: dict[str, bytes] = {}
        self._made: dict = {}  # (name, the prose's digest) -> the file made from it, the latest last
        self.store = store
        self.drafting = False  # `serve`'s: a file made from the prose outlives edits to it (made())

    def data(self, params, given: Given = NOTHING) -> dict:
        """What the page embeds and the view draws."""
        key = _key(params, given)
        if key not in self._data:
            self._data[key] = self._stored(lambda: _computed(params, given), "data", params, given)
        return self._data[key]

    def lookup(self, params, given: Given = NOTHING) -> dict:
        """What an inline expression may read: the figure's data and its build-time facts."""
        data = self.data(params, given)
        key = _key(params, given)
        if key not in self._facts:
            self._facts[key] = self._stored(lambda: models.facts(params, data, given), "facts", params, given)
        return {**data, "facts": self._facts[key]}

    def computed(self, params, given: Given = NOTHING) -> bool:
        """Whether lookup(params, given) needs no model code: its data and facts are here."""
        key = _key(params, given)
        return key in self._data and key in self._facts

    def made(self, name: str, series: Given, drafting: bool = False) -> bytes:
        """The file engine.given.MADE[name] made from the prose `series` holds: made once per prose
        (and, with a store, per code of its maker, across runs). `drafting` (serve): when this prose
        has none yet, the latest made from earlier prose stays in use rather than being made again
        on every save (chapter 14's model: seconds of training for a sentence)."""
        key = (name, series.digest(inputs.SERIES))
        if key not in self._made:
            kept = [data for (n, _), data in self._made.items() if n == name]
            stored = self.store.find_made(name, series) if self.store else None
            if stored is None and drafting and kept:
                return kept[-1]
            if stored is None:
                stored = (self.store.made if self.store else _made_now)(name, series)
            self._made[key] = stored
            while len(self._made) > KEEP_MADE:
                del self._made[next(iter(self._made))]  # the oldest
        return self._made[key]

    def forget(self, modules: set[str]) -> int:
        """Drop what the code of `modules` computed (serve reloaded it): their models' figures, and
        the files their makers made; how many figures."""
        def stale(key) -> bool:
            return type(key[0] if isinstance(key, tuple) else key).__module__ in modules
        dropped = [key for key in self._data if stale(key)]
        for table in (self._data, self._facts):
            for key in [key for key in table if stale(key)]:
                del table[key]
        for key in [key for key in self._made if inputs.maker_module(key[0]) in modules]:
            del self._made[key]
        return len(dropped)

    def with_store(self, store) -> "FigureCache":
        """This cache, also reading from and keeping in `store`: the same tables, so what either
        computes both hold; this one is left without a store."""
        stored = copy.copy(self)
        stored.store = store
        return stored

    def svg(self, data: dict) -> bytes:
        key = json.dumps(data, sort_keys=True)
        if key not in self._svg:
            self._svg[key] = self._stored(lambda: fallbacks.render_svg(data["figure"], data), "svg", data["figure"], key)
        return self._svg[key]

    def _stored(self, make, kind: str, *key):
        """make(), or what the store holds from an earlier run that made it from the same inputs."""
        return getattr(self.store, kind)(*key, make) if self.store else make()


KEEP_MADE = 4  # made files kept per process: a test process switches between the series and small test chapters


def _made_now(name: str, series: Given) -> bytes:
    return inputs.make(name, series[inputs.SERIES])


# Inside <script>, "<!--" and "<script" change how the HTML parser finds the end of the element,
# and "</" can end it: escape every <, > and & (and the JS line separators) as \u escapes.
_JSON_ESCAPES = str.maketrans({"<": "\\u003c", ">": "\\u003e", "&": "\\u0026",
                               "\u2028": "\\u2028", "\u2029": "\\u2029"})


def embed_json(data) -> str:
    """JSON that is inert inside <script type="application/json">: nothing in it can end or alter the element."""
    return json.dumps(data, separators=(",", ":"), ensure_ascii=False).translate(_JSON_ESCAPES)


_SVG_TAG = re.compile(rb"<svg\b[^>]*>")
_LENGTH = re.compile(rb'\s(width|height)="([0-9.]+)(pt|px)?"')


def pixel_size(svg: bytes) -> tuple[int, int] | None:
    """The drawing's width and height in CSS px (matplotlib writes pt), or None if it does not say."""
    tag = _SVG_TAG.search(svg)
    sizes = {name: float(value) * (4 / 3 if unit == b"pt" else 1)
             for name, value, unit in _LENGTH.findall(tag.group() if tag else b"")}
    return (round(sizes[b"width"]), round(sizes[b"height"])) if len(sizes) == 2 else None


def _attributes(use, chapter_number: int, index: int) -> dict:
    layout = use.options.get("layout", "body")  # the directive's own option, checked as it was read (directives/figure.py)
    return {"class": "figure" + (" figure-wide" if layout == "wide" else ""), "id": f"figure-{chapter_number}-{index}",
            "data-figure": use.argument, "data-state": "static"}


def draft_figure(use, chapter_number: int, index: int) -> RenderedFigure:
    """The figure as its page is checked before any model runs: its element's id and label, no data."""
    return RenderedFigure(use.argument, use.line, f"Figure {chapter_number}.{index}", _attributes(use, chapter_number, index),
                          "", "", b"", {})


def render_figure(cache: FigureCache, use, chapter_number: int, index: int, page_slug: str,
                  given: Given = NOTHING) -> RenderedFigure:
    data = cache.data(use.params, given)
    text = data["text"]
    svg_path = f"figures/{page_slug}-{index}.svg"
    # A fallback that cannot draw these options raises: the builder names the chapter's line and
    # the line of our code that failed (build.py's _code_error), as for a model that raises.
    svg = cache.svg(data)
    # Its size on the <img>: the page keeps the drawing's room before the lazy image arrives (no
    # layout shift, and print.html's links land where they point while its drawings load).
    body = {"data": data, "svg_path": svg_path, "size": pixel_size(svg), "alt": text["alt"], "numbers": text["numbers"]}
    label = f"Figure {chapter_number}.{index}"
    attributes = _attributes(use, chapter_number, index)
    if models.is_live(use.params):
        attributes["data-live"] = ""  # its view can ask the worker: the page loads Python (figures.js)
    addresses = given_files(use.params, given)
    if addresses:  # fetched by the worker before the figure's first request (theme/js/context.js)
        attributes["data-given"] = json.dumps(addresses, sort_keys=True)
    reader = models.reader_given_names(use.params)
    if reader:  # files the reader makes in the browser, handed in by the page when it holds them (reader-files.js)
        attributes["data-reader-given"] = " ".join(reader)
    files = {address: given[name] for name, address in addresses.items()}
    return RenderedFigure(use.argument, use.line, label, attributes, body, svg_path, svg, files)
