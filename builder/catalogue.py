"""The catalogue: every figure, quiz and exercise option, grader and expression path an author can use,
read from the registries (FIGURES, the directives' REGISTRY, EXERCISES) each time it is made.

`build.py catalogue` writes it as one HTML page outside dist/ (.cache/catalogue/index.html): an
author's reference, not a page of the series. Generated on demand rather than kept as a file in
docs/, because it cannot then drift (a figure or option added is in the next one with no edit), and
because the figures' default drawings are the build's own fallbacks, which only a page can hold and
which a test would need minutes of computing to prove current. The command shares the build's store
of computed figures (builder/figure_store.py): it computes only what no build or catalogue computed
from the same code. The page stands alone: styles in the
page, drawings as data: images, no script and no address outside it, so it reads offline.
"""
from __future__ import annotations

import base64
import dataclasses
import json
import types
import typing
from dataclasses import dataclass
from html import escape
from pathlib import Path

from engine import figures as models
from engine.exercises import EXERCISES
from engine.exercises import module as grader
from engine.figures.params import REQUIRED
from engine.given import NOTHING, Given
from . import fallbacks, palette
from .build import _code_error, read_chapter
from .directives import REGISTRY
from .errors import BuildError
from .figure_store import FigureStore
from .inputs import given_for
from .figures import FigureCache, model_file
from .paths import Paths
from .site_config import load_site_config

EXAMPLE_CHARS = 60  # a value shown as an example is cut to this many characters


@dataclass
class Option:
    name: str
    kind: str  # "whole number", "list of text", ...
    default: str  # as YAML would take it, or "required"
    allowed: str  # its range, length, choices, step
    doc: str  # what it does


@dataclass
class ReadablePath:
    path: str  # what follows the figure's name in an expression: "start", "facts.top"
    kind: str
    example: str


@dataclass
class FigureEntry:
    name: str
    shows: str  # the model's docstring, first paragraph
    live: bool  # the page loads Python for it at its defaults
    options: list[Option]
    uses: list[str]  # one per chapter: "04-scores-to-weights.md: line 77; quoted at lines 70, 71"
    paths: list[ReadablePath]
    alt: str = ""
    drawing: bytes = b""  # the fallback at the defaults, as SVG


@dataclass
class Catalogue:
    figures: list[FigureEntry]
    directives: list[tuple[str, str, list[Option], list[str]]]  # name, what it is, options, uses
    graders: list[tuple[str, str, str, list[str]]]  # name, function, what it checks, uses


def first_paragraph(doc: str | None) -> str:
    """A docstring's summary: its first paragraph, however its lines wrap, on one line."""
    return " ".join((doc or "").strip().split("\n\n")[0].split())


def _kind(hint) -> str:
    """An option's type in an author's words: what YAML must give."""
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin in (typing.Union, types.UnionType):
        return " or ".join(_kind(a) for a in args)
    if origin is tuple:
        inner = _kind(args[0])
        return f"list of {inner}" if inner.startswith("list") else f"list of {inner}s"
    if origin is dict:
        return f"mapping of name: {_kind(args[1])}"
    return {int: "whole number", float: "number", bool: "true or false", str: "text"}.get(hint, getattr(hint, "__name__", str(hint)))


def _allowed(meta) -> str:
    parts = []
    lo, hi = meta.get("lo"), meta.get("hi")
    if lo is not None or hi is not None:
        parts.append(f"{'' if lo is None else lo} to {'' if hi is None else hi}".strip())
    if meta.get("length"):
        a, b = meta["length"]
        parts.append(f"{a} to {b} items")
    if meta.get("choices"):
        parts.append("one of " + ", ".join(map(str, meta["choices"])))
    if meta.get("chars"):
        a, b = meta["chars"]
        parts.append("not blank" if b is None else f"at most {b} characters" + (", not blank" if a else ""))
    if meta.get("keys"):
        parts.append(f"each name {meta['keys'][1]}")
    if meta.get("step") is not None:
        parts.append(f"step {meta['step']}")
    return "; ".join(parts)


def _plain(value):
    """A default as YAML would give it: tuples (nested ones too) as lists."""
    return [_plain(v) for v in value] if isinstance(value, tuple) else value


def _rounded(value):
    """Floats to 4 significant digits, so an example shows the value, not its last bits."""
    if isinstance(value, float):
        return float(f"{value:.4g}")
    if isinstance(value, list):
        return [_rounded(v) for v in value]
    if isinstance(value, dict):
        return {k: _rounded(v) for k, v in value.items()}
    return value


def _short(value) -> str:
    text = json.dumps(_rounded(value), ensure_ascii=False, default=str)
    return text if len(text) <= EXAMPLE_CHARS else text[:EXAMPLE_CHARS - 1] + "…"


def options(cls) -> list[Option]:
    """Each field of a Params or Options dataclass, as the catalogue lists it."""
    hints = typing.get_type_hints(cls)
    out = []
    for f in dataclasses.fields(cls):
        required = f.default is REQUIRED and f.default_factory is REQUIRED
        default = "required" if required else _short(_plain(f.default))
        out.append(Option(f.name, _kind(hints[f.name]), default, _allowed(f.metadata), f.metadata.get("doc", "")))
    return out


def _value_kind(value) -> str:
    if isinstance(value, bool):
        return "true or false"
    if isinstance(value, (int, float)):
        return "number"
    if isinstance(value, str):
        return "text"
    if isinstance(value, list):
        return f"list of {len(value)}"
    if isinstance(value, dict):
        return f"mapping of {len(value)}"
    return "null" if value is None else type(value).__name__


WRAPPING = ("figure", "params", "schema", "text")  # what engine.figures.compute adds around a model's own data


def readable_paths(looked_up: dict) -> list[ReadablePath]:
    """The top-level keys of a model's own data an expression can read, and each of its facts."""
    out = []
    for key, value in looked_up.items():
        if key in WRAPPING:
            continue
        if key == "facts":
            out += [ReadablePath(f"facts.{k}", _value_kind(v), _short(v)) for k, v in value.items()]
        else:
            out.append(ReadablePath(key, _value_kind(value), _short(value)))
    return out


ANY = "*"  # in _uses' keys: every use of a directive, whatever its argument (no argument is "*")


def _lines(numbers: list[int]) -> str:
    numbers = sorted(set(numbers))
    return f"line{'s' if len(numbers) > 1 else ''} {', '.join(map(str, numbers))}"


def _uses(paths: Paths) -> tuple[dict[tuple[str, str], list[str]], list]:
    """(directive, argument) -> where chapters use it, one line per chapter in reading order:
    "file.md: line 77; quoted at lines 70, 71" (expressions quote figures). Also the chapters read."""
    found: dict[tuple[str, str], list[str]] = {}
    sources = []
    for entry in load_site_config(paths.content).chapters:
        source = read_chapter(entry)
        sources.append(source)
        blocks: dict[tuple[str, str], list[int]] = {}
        quoted: dict[tuple[str, str], list[int]] = {}
        for use in source.scanned.directives:
            blocks.setdefault((use.name, use.argument), []).append(use.line)
            blocks.setdefault((use.name, ANY), []).append(use.line)
        for use in source.scanned.expressions:
            quoted.setdefault(("figure", use.expression.name), []).append(use.line)
        for key in sorted(blocks.keys() | quoted.keys()):
            said = ([_lines(blocks[key])] if key in blocks else []) + (
                [f"quoted at {_lines(quoted[key])}"] if key in quoted else [])
            found.setdefault(key, []).append(f"{entry.path.name}: {'; '.join(said)}")
    return found, sources


def reading_order(names, sources: list) -> list[str]:
    """`names` in the order the chapters first show them (FIGURES has none of its own), then those no
    chapter shows yet, by name."""
    first: dict[str, int] = {}
    for source in sources:
        for use in sorted(source.scanned.directives, key=lambda u: u.line):
            if use.name == "figure":
                first.setdefault(use.argument, len(first))
    return sorted(names, key=lambda name: (first.get(name, len(first)), name))


def _drawn(name: str, params, cache: FigureCache, given: Given, paths: Paths) -> tuple[dict, bytes]:
    """The figure's data and facts, and its fallback in the palette's colours, as the build makes them;
    a model or fallback that raises is one error naming the code line, as in the build."""
    try:
        looked_up = cache.lookup(params, given)
        svg = cache.svg(cache.data(params, given))
    except BuildError:
        raise
    except Exception as err:
        raise _code_error(model_file(name), None, f"figure '{name}'", err) from err
    return looked_up, fallbacks.in_colours(name, svg, palette.load(paths.palette), palette.load_dark(paths.palette))


def gather(paths: Paths, drawings: bool = True, store: FigureStore | None = None) -> Catalogue:
    """Everything the page lists. `drawings=False` leaves out the computing (data, facts, drawings), for
    a quick look at names and options. With a `store`, what earlier builds and catalogues computed
    from the same code is read from it, and what this one computes is kept there."""
    cache = FigureCache(store)
    uses, sources = _uses(paths)
    # chapter 14's models learn from the series' prose, as in the build: every figure may be drawn
    read = {n for name in models.FIGURES for n in models.given_names(models.parse(name))}
    given = given_for(sources, cache, names=read) if drawings else NOTHING
    figures = []
    for name in reading_order(models.FIGURES, sources):
        mod = models.module(name)
        params = models.parse(name)
        shows = first_paragraph(mod.__doc__).removeprefix(f"{name}:").strip()
        entry = FigureEntry(name, shows[:1].upper() + shows[1:], models.is_live(params),
                            options(mod.Params), uses.get(("figure", name), []), [])
        if drawings:
            looked_up, entry.drawing = _drawn(name, params, cache, given, paths)
            entry.paths = readable_paths(looked_up)
            entry.alt = looked_up["text"]["alt"]
        figures.append(entry)
    # a figure's options are its model's, above, and the directive's own (its layout), listed here
    directives = [(d.name, d.summary, options(d.Options) if d.Options else [],
                   uses.get((d.name, ANY), []) if d.name != "figure" else [])
                  for d in REGISTRY.values()]
    graders = [(name, grader(name).FUNCTION, first_paragraph(grader(name).__doc__), uses.get(("exercise", name), []))
               for name in EXERCISES]
    return Catalogue(figures, directives, graders)


STYLE = """
body{font:15px/1.5 system-ui,sans-serif;max-width:70rem;margin:0 auto;padding:1rem;color:#1b1b1b;background:#fff}
h2{border-bottom:1px solid #ccc;margin-top:2.5rem}h3{margin-top:2rem}
table{border-collapse:collapse;width:100%;margin:.5rem 0}th,td{border:1px solid #ddd;padding:.25rem .5rem;
text-align:left;vertical-align:top}th{background:#f4f4f4}code{font-family:ui-monospace,monospace;font-size:.9em}
img{max-width:100%;height:auto;border:1px solid #eee}nav ul{columns:14rem}.muted{color:#666}
@media (prefers-color-scheme: dark){body{color:#e6e6e6;background:#161616}th{background:#262626}
th,td{border-color:#444}.muted{color:#aaa}img{background:#fff}}
"""


def _e(text) -> str:
    return escape(str(text), quote=True)


def _options_table(opts: list[Option]) -> str:
    if not opts:
        return '<p class="muted">No options.</p>'
    rows = "".join(f"<tr><td><code>{_e(o.name)}</code></td><td>{_e(o.kind)}</td><td><code>{_e(o.default)}</code></td>"
                   f"<td>{_e(o.allowed)}</td><td>{_e(o.doc)}</td></tr>" for o in opts)
    return ("<table><thead><tr><th>option</th><th>type</th><th>default</th><th>allowed</th><th>what it does</th>"
            f"</tr></thead><tbody>{rows}</tbody></table>")


def _uses_list(uses: list[str]) -> str:
    if not uses:
        return '<span class="muted">no chapter yet</span>'
    return "<ul>" + "".join(f"<li><code>{_e(u)}</code></li>" for u in uses) + "</ul>"


def _figure(f: FigureEntry) -> str:
    parts = [f'<section id="figure-{_e(f.name)}"><h3><code>{_e(f.name)}</code></h3>',
             f"<p>{_e(f.shows)}{' Live: the page loads Python for it.' if f.live else ''}</p>",
             f"<div>Used in: {_uses_list(f.uses)}</div>", _options_table(f.options)]
    if f.drawing:
        data = base64.b64encode(f.drawing).decode("ascii")
        parts.append(f'<p><img src="data:image/svg+xml;base64,{data}" alt="{_e(f.alt)}"></p>')
    if f.paths:
        rows = "".join(f"<tr><td><code>{_e(f.name)}.{_e(p.path)}</code></td><td>{_e(p.kind)}</td>"
                       f"<td><code>{_e(p.example)}</code></td></tr>" for p in f.paths)
        parts.append(f"<details><summary>What an expression can read: <code>{{= {_e(f.name)}.path :format =}}</code>"
                     "</summary><table><thead><tr><th>path</th><th>value</th><th>at the defaults</th></tr></thead>"
                     f"<tbody>{rows}</tbody></table></details>")
    return "\n".join(parts) + "</section>"


def page(cat: Catalogue) -> str:
    """The catalogue as one HTML page: every text from the registries escaped."""
    toc = "".join(f'<li><a href="#figure-{_e(f.name)}">{_e(f.name)}</a></li>' for f in cat.figures)
    directives = "".join(
        f'<section id="directive-{_e(name)}"><h3><code>/// {_e(name)}</code></h3><p>{_e(what)}</p>'
        f"<div>Used in: {_uses_list(uses)}</div>{_options_table(opts)}</section>"
        for name, what, opts, uses in cat.directives)
    graders = "".join(f"<tr><td><code>{_e(name)}</code></td><td><code>{_e(function)}</code></td><td>{_e(what)}</td>"
                      f"<td>{_uses_list(uses)}</td></tr>" for name, function, what, uses in cat.graders)
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Catalogue: figures, quizzes, exercises, expressions</title><style>{STYLE}</style></head><body>
<h1>What an author can use</h1>
<p>Made from the code by <code>build.py catalogue</code>: every figure with its options, the chapters that
use it and its drawing at the defaults; the quiz's and exercise's options and the exercises' graders; and
what an inline expression can read from each figure. The README's "Writing a chapter" says how each is written.</p>
<nav><h2>Figures ({len(cat.figures)})</h2><ul>{toc}</ul></nav>
{"".join(_figure(f) for f in cat.figures)}
<h2>Every directive's own options</h2>
<p>A figure's options are its model's (above) and these of the directive's own, which change no number.</p>
{directives}
<h3 id="graders">Graders: <code>/// exercise | name</code></h3>
<table><thead><tr><th>name</th><th>the reader writes</th><th>what it checks</th><th>used in</th></tr></thead>
<tbody>{graders}</tbody></table>
<h2 id="expressions">Expressions</h2>
<p><code>{{= figure.path :format =}}</code> reads a value of a figure's output at build time and formats it with a
Python format spec; <code>{{= figure{{option: value}}.path =}}</code> runs the figure with other options. Each figure's
section above lists the paths it offers at its defaults (a list's items by <code>.0</code>, a mapping's by their keys).</p>
</body></html>
"""


def write(paths: Paths, out: Path, drawings: bool = True, store: FigureStore | None = None) -> Path:
    """Gather and write the catalogue page into `out`; its path."""
    html = page(gather(paths, drawings, store))
    out.mkdir(parents=True, exist_ok=True)
    target = out / "index.html"
    target.write_text(html, encoding="utf-8")
    return target

