#!/usr/bin/env python3
"""Fuzz the build with hostile inputs and print what happened (a benchmark: nothing is asserted).

Each case is a content folder (the real one with files replaced or added: a mutated chapter, figure
options, inline expressions, quizzes and exercises with hostile values, YAML tags, surrogates and
control characters, every format code, references.bib, site.toml and its file names), run in a
forked process with a time limit through the whole gather path of a build: site.toml,
references.bib, every chapter (scan, validate, grade in the cage, compute, render), the templates,
each page encoded, the fallback SVGs, the search index and the service worker's manifest. Then
every page and SVG is scanned: NUL bytes, SVG that is not well-formed XML, and script-capable
markup (an event handler, a script URL or an inline script) carrying the payload that only data
and Markdown carry ("fuzz()"; raw HTML, which chapters may hold, carries "alert(1)"). The outcome
is a page, a clean BuildError, a traceback, a hang, a silent exit, an unsafe page, a wrong exercise
solution that passed, or author code that reached the build (a patched engine or numpy).
Chapters left unchanged are rendered once, before the fork, and reused.

    .venv/bin/python benchmarks/fuzz.py [--cases 10000] [--seed 0] [--timeout 20] [--workers 2]

Failing inputs are saved under --keep (default /tmp/attention-fuzz) for reproduction.
"""
from __future__ import annotations

import argparse
import collections
import html.parser
import json
import re
import multiprocessing as mp
import random
import shutil
import sys
import tempfile
import time
import traceback
import xml.etree.ElementTree as etree
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine.figures import FIGURES, module  # noqa: E402

CONTENT = ROOT / "content"
CHAPTERS = sorted(p.name for p in CONTENT.glob("[0-9][0-9]-*.md"))
MAX_MESSAGE = 400  # a longer error message probably echoes unbounded input

# Fragments an author (or an attacker) might write; mutations insert, repeat and nest them.
FRAGMENTS = [
    "", "Some prose.", "    indented", "- item", "> quote", "```", "~~~", "```python", "///", "////",
    "/// figure", "/// figuer | x", "`{= code =}`", "{=", "=}", "[@", "[@]", "[@bahdanau2015]",
    "[@vaswani2017; @nope]", "[^n]", "[^n]: A note.", "[^", "$", "$$", "$x^2$", "$\\frac{a}{b$",
    "$\\query{q}\\cdot k$", "$a^$", "\\$5 and $6", "$\\nope$", "$5 and $10", "# Heading", "| a | b |",
    "|---|---|", "<div>", "</div>", "<!--", "-->", "<script>alert(1)</script>", "[link](javascript:alert(1))",
    "[link](javascript:fuzz())", "[x](JaVaScRiPt:fuzz())", "![i](data:text/html,fuzz())", "$\\href{javascript:fuzz()}{x}$",
    "$\\text{<img src=x onerror=fuzz()>}$", "$\\text{a<b & c}$",
    "[link](nope.md)", "[link](01-why-attention.md#nowhere)", "![img](x.png)", "*", "**", "_", "`", "``",
    "&amp;", "&#0;", "&#x110000;", "\\", "{= softmax-bars.facts.e :.2f =}", "{= nope.x =}",
    "{= softmax-temperature{temperature: 2}.facts.t_min =}", "    temperature: 2.0", "  temperature: 2.0",
    "/// figure | softmax-temperature", "/// figure | scaling-experiment", "> /// figure | softmax-bars",
    "1. item", "        /// figure | word-map", "\ufeff", "\u2028", "\u2029", "\x00", "\x0b", "\x1b", "\x85",
    "\ud800", "é", "🙂", "\t", "\r", "\r\n", "1e999", "1" + "0" * 400, "nan", "-- --- ...", "'quoted' \"twice\"",
    "/// figure | a" + " " * 3000 + "b", "> /// figure | softmax-bars" + " " * 3000 + "x",
    "".join("`" * k + "a" for k in range(200, 0, -1)), "[a](b" * 500, "a  ", "<http://a", "$$x$$", "${" * 500,
]
YAML_VALUES = [
    "1", "-1", "0", "2.5", "1e999", "1.0e999", "-1.0e999", ".inf", "-.inf", ".nan", "1" + "0" * 400,
    "1" + "0" * 5000, "0x10", "0o17", "1_000", "1:30", "true", "yes", "null", "~", "''", "x", "'x'", '"\\x00"',
    "[1, 2, 3]", "[1, 2]", "[cat, sat, mat]", "[cat, sat]", "[]", "{}", "{a: 1}", "[[1, 2], [3, 4]]",
    "2001-01-01", "2001-01-01T00:00:00Z", "!!binary aGk=", "!!set {a}", "!!python/object:os.system x",
    "&a [1, 2]", "*a", "!!str 5", "!!float 1", "[" * 200 + "]" * 200, "|\n      block", ">", "'unclosed",
    "[1, 2", "{a: [}", "@", "%", "`", "? a", "- 1",
    # type tags with values of another type
    "!!float x", "!!int x", "!!bool maybe", "!!null x", "!!float .nan", "!!int 0x", "!!int 1e5", "!!str [1]",
    "!!map x", "!!seq x", "!!python/name:os.system", "[!!int x, 1, 2, 3, 4]", "[!!float y]",
    # surrogates, control characters and markup, as text
    '"\\ud800"', '"a\\udfff"', '["\\ud800", b, c, d, e]', '"\\e[31m"', '"\\0"', '"\\x7f"', '"\\x85"',
    '"\\u2028"', '["\\e[31m", b, c, d, e]', '["\\0", b, c, d, e]',
    "'<img src=x onerror=fuzz()>'", "['<img src=x onerror=fuzz()>', b, c, d, e]",
    "['\"><svg onload=fuzz()>', '</script><script>fuzz()</script>', ']]>', '&amp;', '$\\nope$']",
    "'[x](javascript:fuzz())'", "['[x](javascript:fuzz())', '*b*', '`c`', '$d$', e]",
]
FORMATS = ["", ":.2f", ":d", ":%", ":.0%", ":g", ":{}", ":300000000", ":.999f", ":>100", ":>101", ":,",
           ":x", ":=^20.3e", ":" + "9" * 50, ":\x00", ":.2q", ": .2f", ":" + "{" * 30,
           *(":" + c for c in "bcdeEfFgGnosxX%"), ":#x", ":#o", ":#b", ":<>10c", ":*^9c", ":+c", ":_d", ":,.3f",
           ":010.2%", ":<", ":s", ":r", ":!r", ":\u2028", ":\ud800"]


def _names(rng: random.Random) -> str:
    return rng.choice([*FIGURES, "", "nope", "softmax_temperature", "a b", "-x", "x" * 300])


def _option_names(rng: random.Random, figure: str) -> str:
    fields = list(module(figure).Params.__dataclass_fields__) if figure in FIGURES else []
    return rng.choice([*fields, *fields, "x", "1", "true", "", "a b", "<b>", "k" * 100])


def mutate_chapter(rng: random.Random) -> tuple[str, str]:
    """A real chapter with a few random insertions, repetitions, deletions and byte changes."""
    name = rng.choice(CHAPTERS)
    lines = (CONTENT / name).read_text().split("\n")
    for _ in range(rng.randint(1, 6)):
        op = rng.random()
        at = rng.randrange(len(lines) + 1)
        if op < 0.35:
            lines.insert(at, rng.choice(FRAGMENTS))
        elif op < 0.5:  # a fragment repeated, inline or as lines: deep nesting, long lines
            frag = rng.choice(FRAGMENTS)
            n = rng.choice([2, 10, 100, 1000, 5000])
            lines.insert(at, frag * n if rng.random() < 0.6 else "\n".join([frag] * n))
        elif op < 0.6 and lines:
            del lines[rng.randrange(len(lines))]
        elif op < 0.7 and lines:  # change the indentation of a line
            i = rng.randrange(len(lines))
            lines[i] = " " * rng.choice([0, 1, 2, 3, 4, 5, 8]) + lines[i].lstrip()
        elif op < 0.8 and lines:  # a random character inside a line
            i = rng.randrange(len(lines))
            j = rng.randrange(len(lines[i]) + 1)
            lines[i] = lines[i][:j] + rng.choice("$[]{}=`*_<>&\\/|:^@#-\x01\x7f\u2028") + lines[i][j:]
        elif op < 0.9 and lines:  # cut a line short
            i = rng.randrange(len(lines))
            lines[i] = lines[i][:rng.randrange(len(lines[i]) + 1)]
        elif op < 0.95:
            lines.insert(at, expression(rng))
        else:
            lines.insert(at, figure_block(rng))
    return name, "\n".join(lines)


def figure_block(rng: random.Random) -> str:
    name = _names(rng)
    options = [f"{' ' * rng.choice([4, 4, 4, 2, 6])}{_option_names(rng, name)}: {rng.choice(YAML_VALUES)}"
               for _ in range(rng.randint(0, 4))]
    close = rng.choice(["///", "///", "////", ""])
    return "\n".join([f"/// figure | {name}", *options, "", "Caption with $x$.", close])


def expression(rng: random.Random) -> str:
    name = _names(rng)
    params = ""
    if rng.random() < 0.5:
        pairs = ", ".join(f"{_option_names(rng, name)}: {rng.choice(YAML_VALUES)}" for _ in range(rng.randint(0, 3)))
        params = "{" + pairs + "}"
    path = rng.choice([".facts.t_min", ".facts.e", ".params.steps", ".labels.0", ".labels.-1", ".labels.99",
                       ".by_d.512.unscaled", ".x.y", ".facts", "." + "a" * 200, ".0.0.0", ".params.row",
                       ".params.head", ".params.stage", ".params.heads", ".params.length", ".params.shown"])
    return f"Value {{= {name}{params}{path} {rng.choice(FORMATS)} =}} here."


def chapter_with_options(rng: random.Random) -> tuple[str, str]:
    blocks = [figure_block(rng) if rng.random() < 0.7 else expression(rng) for _ in range(rng.randint(1, 4))]
    return CHAPTERS[0], "# Options\n\n" + "\n\n".join(blocks) + "\n"


def chapter_with_expressions(rng: random.Random) -> tuple[str, str]:
    return CHAPTERS[0], "# Expressions\n\n" + "\n\n".join(expression(rng) for _ in range(rng.randint(1, 5))) + "\n"


BIB_FRAGMENTS = ["@misc{x,", "}", "{", "author = {A, B}", "title = {T}", "year = {2001}", "url = {https://x.org}",
                 "doi = {10.1/x}", "url = {javascript:alert(1)}", "@string{s = \"x\"}", "@comment{", "@preamble{\"x\"}",
                 "author = {" + "{" * 500 + "}" * 500 + "}", "title = {" + "x" * 100000 + "}", "year = {1e999}",
                 "author = {and and and}", "\x00", "@misc{vaswani2017, title={Dup}}", "crossref = {bahdanau2015}",
                 "editor = {E, F}", "author = {Others}", "%", "@", "=", ",", "\"", "#"]


def mutate_bibtex(rng: random.Random) -> tuple[str, str]:
    lines = (CONTENT / "references.bib").read_text().split("\n")
    for _ in range(rng.randint(1, 5)):
        at = rng.randrange(len(lines) + 1)
        if rng.random() < 0.6:
            lines.insert(at, rng.choice(BIB_FRAGMENTS))
        elif lines:
            i = rng.randrange(len(lines))
            j = rng.randrange(len(lines[i]) + 1)
            lines[i] = lines[i][:j] + rng.choice(["{", "}", "\"", ",", "@", "=", "\\", ""]) + lines[i][j + 1:]
    return "references.bib", "\n".join(lines)


TOML_FRAGMENTS = ["[site]", "title = 1", "title = \"\"", "title = 1e999", "[[chapters]]", "file = 1",
                  "file = \"nope.md\"", "file = \"../../etc/passwd.md\"", "file = \"01-why-attention.md\"",
                  "file = \"/abs.md\"", "file = \"x.txt\"", "chapters = 5", "[chapters]", "number = 10000000000000000000",
                  "title = \"<script>\"", "\x00", "= =", "[", "title = \"\"\"", "author = [1, \"a\"]",
                  "description = {a = 1}", "file = \"01-why-attention.md\"\nfile = \"02-words-as-points.md\""]


def mutate_toml(rng: random.Random) -> tuple[str, str]:
    lines = (CONTENT / "site.toml").read_text().split("\n")
    for _ in range(rng.randint(1, 4)):
        at = rng.randrange(len(lines) + 1)
        if rng.random() < 0.7:
            lines.insert(at, rng.choice(TOML_FRAGMENTS))
        elif lines:
            del lines[rng.randrange(len(lines))]
    return "site.toml", "\n".join(lines)


TEXTS = ["one", "Softmax divides by the total.", "'<img src=x onerror=fuzz()>'", "'[x](javascript:fuzz())'",
         "'[x](JavaScript:fuzz())'", "'![x](data:image/svg+xml,fuzz())'", "'$\\href{javascript:fuzz()}{x}$'",
         "'$\\text{<b>}$'", "'<img src=x onerror=alert(1)>'", '"\\ud800"', '"\\e[31m"', '"\\0"', "!!float x",
         "!!int x", "'$x'", "'a $\\nope$'", "[1, 2]", "1", "true", "'[a](02-words-as-points.md)'", "''", "'  '"]


def quiz_block(rng: random.Random) -> str:
    keys = rng.choice([["a", "b"], ["a", "b", "c"], ["a"], ["a", "b", "A"]])
    lines = ["/// quiz | " + rng.choice(["q", "weights-sum", "Bad Id", "", "q" * 70])]
    lines += ["    choices:"] + [f"      {k}: {rng.choice(TEXTS)}" for k in keys]
    lines += ["    answer: " + rng.choice([keys[0], str(keys), "z", "[]"])]
    lines += ["    explain:"] + [f"      {k}: {rng.choice(TEXTS)}" for k in keys if rng.random() < 0.95]
    return "\n".join([*lines, "", rng.choice(["Which one?", "", "<b>Which?</b>"]), "///"])


RIGHT = {"softmax": ("softmax", "x", "e = np.exp(x - x.max(axis=-1, keepdims=True))\nreturn e / e.sum(axis=-1, keepdims=True)"),
         "attention": ("attention", "q, k, v, causal=False",
                       "s = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])\nif causal:\n"
                       "    s = np.where(np.tril(np.ones(s.shape[-2:], bool)), s, -np.inf)\n"
                       "e = np.exp(s - s.max(axis=-1, keepdims=True))\nreturn e / e.sum(axis=-1, keepdims=True) @ v"),
         "softmax-backward": ("softmax_backward", "dweights, weights",
                              "return weights * (dweights - (dweights * weights).sum(axis=-1, keepdims=True))")}
WRONG_BODY = "return {first}"
HOSTILE_CODE = [  # run before the function is defined: each must give an error, or change nothing
    "", "while True: pass", "import os\nos._exit(0)", "import sys\nsys.exit(0)", "raise SystemExit(3)",
    "while True: print('x' * 10000)", "import sys\nwhile True: sys.stderr.write('x' * 10000)",
    "np.allclose = lambda *a, **k: True", "np.isclose = lambda *a, **k: np.True_",
    "import engine.attention as a\na.softmax_forward = lambda x: (x * 0 + 0.999, None)",
    "import engine.exercises.cases as c\nc.first_failure = lambda *a, **k: None\nc.close = lambda *a, **k: True",
    "import engine.exercises as ex\nex.judge = lambda *a, **k: {'state': 'passed', 'message': '', 'line': None, 'case': None}",
    "import builtins\ndel builtins.len\ndel builtins.isinstance", "import builtins\nbuiltins.print = None",
    "import threading, time\nthreading.Thread(target=time.sleep, args=(60,)).start()",
    "import atexit, time\natexit.register(time.sleep, 60)", "import os, time\nif os.fork() == 0:\n    time.sleep(60)",
    "a = bytearray(3 << 30)", "import os\nos.kill(os.getpid(), 9)", "import ctypes\nctypes.string_at(0)",
    "import sys\nsys.setrecursionlimit(10**6)\ndef f(): f()\nf()", "def softmax(x): return x\nsoftmax = 3",
    "import numpy\nnumpy.exp = numpy.log", "x = 1 +", "import sys\nsys.modules['numpy'] = None",
]


def exercise_block(rng: random.Random) -> tuple[str, bool]:
    """An exercise whose solution runs hostile code first; the second value says whether its function
    is right (a build that passes a wrong one is counted)."""
    name = rng.choice(list(RIGHT))
    fn, args, body = RIGHT[name]
    right = rng.random() < 0.5
    code = rng.choice(HOSTILE_CODE) + f"\ndef {fn}({args}):\n" + "\n".join(
        "    " + ln for ln in (body if right else WRONG_BODY.format(first=args.split(",")[0])).split("\n"))
    starter = rng.choice([f"def {fn}({args}):\n    return {args.split(',')[0]}", "while True: pass",
                          "import os\nos._exit(0)", "np.allclose = lambda *a, **k: True\n" + code])
    indent = lambda text: "\n".join("      " + ln for ln in text.split("\n"))  # noqa: E731
    hint = rng.choice(TEXTS)
    block = "\n".join([f"/// exercise | {name}", "    starter: |", indent(starter), "    solution: |", indent(code),
                       "    hints:", f"      - {hint}", "", "Write it.", "///"])
    return block, right


def chapter_with_blocks(rng: random.Random) -> dict:
    """Quizzes and exercises with hostile values and code, and figures with hostile options."""
    blocks, wrong = [], False
    for _ in range(rng.randint(1, 3)):
        r = rng.random()
        if r < 0.45:
            block, right = exercise_block(rng)
            blocks.append(block)
            wrong = wrong or not right
        elif r < 0.8:
            blocks.append(quiz_block(rng))
        else:
            blocks.append(figure_block(rng))
    return {"files": {CHAPTERS[0]: "# Blocks\n\n" + "\n\n".join(blocks) + "\n"}, "wrong solution": wrong}


NAMES = ["javascript:alert(1).md", 'a\\"b.md', "a?b.md", "a#b.md", "a&b.md", "a b.md", "é.md", "a.MD", "-.md",
         "_a.md", ".md", "a..md", "a.md.md", "x" * 130 + ".md", "99-ok.md", "a%2e.md", "a'b.md", "a<b>.md",
         "a\\u0000.md", "a\\tb.md", "con.md", "01-why-attention.md"]


def toml_file_names(rng: random.Random) -> dict:
    """site.toml naming chapter files with hostile names; each named file exists."""
    text = (CONTENT / "site.toml").read_text()
    files = {}
    for _ in range(rng.randint(1, 3)):
        name = rng.choice(NAMES)
        text += f'\n[[chapters]]\nfile = "{name}"\n'
        plain = name.encode().decode("unicode_escape", "ignore") if "\\" in name else name
        if plain and "/" not in plain and "\x00" not in plain and plain not in (".", ".."):
            files[plain] = f"# Chapter {name}\n\nText.\n"
    return {"files": {"site.toml": text, **files}}


PAYLOADS = ["<img src=x onerror=fuzz()>", '"><svg onload=fuzz()>', "</script><script>fuzz()</script>", "]]>",
            "&amp;", "$\\nope$", "javascript:fuzz()", "\u2028", "*b*", "`c`", "[x](javascript:fuzz())", "<!--", "-->",
            "{= softmax-bars.labels.0 =}", "&#0;", "\\", "'", '"', "é🙂", "a  b", "\u00a0", "#x", "!x", "|x|", "_x_"]


def chapter_with_payloads(rng: random.Random) -> dict:
    """Figures, expressions, quizzes and a series title that carry payloads but are otherwise valid,
    so that most cases build pages and the scan has something to read."""
    labels = rng.sample(PAYLOADS, 5)
    flow = "[" + ", ".join(json.dumps(lb, ensure_ascii=False) for lb in labels) + "]"
    parts = ["# Payloads " + rng.choice(["", "<b>bold</b>"]),
             f"/// figure | softmax-bars\n    labels: {flow}\n\nCaption.\n///"]
    short = flow if len(flow) < 200 else '["<img src=x onerror=fuzz()>", "*b*", "]]>", "&amp;", "$x$"]'
    for _ in range(rng.randint(1, 4)):
        parts.append(f"Label {{= softmax-bars{{labels: {short}}}.labels.{rng.randrange(5)} "
                     f"{rng.choice(['', ':s', ':>30', ':^9', ':.3', ':c'] if rng.random() < 0.2 else ['', ':s'])} =}} and "
                     f"{{= softmax-bars.scores.{rng.randrange(5)} "
                     f"{rng.choice(FORMATS if rng.random() < 0.2 else ['', ':.2f', ':g', ':%', ':e', ':F', ':n'])} =}}.")
    if rng.random() < 0.5:
        choice, why = (json.dumps(rng.choice(PAYLOADS[5:]), ensure_ascii=False) for _ in range(2))
        parts.append(f"/// quiz | q\n    choices:\n      a: {choice}\n      b: two\n    answer: a\n"
                     f"    explain:\n      a: {why}\n      b: wrong\n\nAsk?\n///")
    site = (CONTENT / "site.toml").read_text()
    if rng.random() < 0.5:
        site = re.sub(r'(?m)^title = ".*"$', lambda m: "title = " + json.dumps(rng.choice(PAYLOADS), ensure_ascii=False), site, count=1)
    if rng.random() < 0.5:
        site = re.sub(r'(?m)^description = ".*"$', lambda m: "description = " + json.dumps(rng.choice(PAYLOADS), ensure_ascii=False),
                      site, count=1)
    return {"files": {CHAPTERS[0]: "\n\n".join(parts) + "\n", "site.toml": site}}


def _one(gen):
    def case(rng: random.Random) -> dict:
        name, text = gen(rng)
        return {"files": {name: text}}
    return case


GENERATORS = {"chapter": _one(mutate_chapter), "options": _one(chapter_with_options),
              "expression": _one(chapter_with_expressions), "bibtex": _one(mutate_bibtex), "toml": _one(mutate_toml),
              "blocks": chapter_with_blocks, "file names": toml_file_names, "payloads": chapter_with_payloads}


def make_case(seed: int, kinds: list[str]) -> tuple[str, dict]:
    rng = random.Random(seed)
    kind = kinds[seed % len(kinds)]
    return kind, GENERATORS[kind](rng)


_chapters: dict = {}  # each chapter step's output by its input (file, number, description, text; references.bib)


def _reuse_chapters() -> None:
    """Chapters are read, computed and rendered once per distinct input: before the fork for the real
    content, so a case redoes only what it changed."""
    import builder.build as build

    read, compute, render = build.read_chapter, build.compute_chapter, build.render_chapter

    def once(key, step, *args):
        if key not in _chapters:
            _chapters[key] = step(*args)
        return _chapters[key]

    def read_chapter(entry):
        return once(("read", entry.path.name, entry.number, entry.description, entry.path.read_bytes()), read, entry)

    def compute_chapter(source, cache, given, values=None):  # a Source kept in _chapters is the same object each time
        return once(("compute", id(source), given), compute, source, cache, given, values)

    def render_chapter(computed, bibliography=None, templates=None):  # one theme per run
        bib = computed.source.entry.path.parent / "references.bib"
        key = ("render", id(computed), bib.read_bytes() if bib.is_file() else None)
        return once(key, render, computed, bibliography, templates)

    build.read_chapter, build.compute_chapter, build.render_chapter = read_chapter, compute_chapter, render_chapter


def gather_all(content: Path, cache):
    """The build's whole gather path for the content (everything but writing the files): the Site."""
    from builder.build import Paths, gather

    return gather(Paths.at(ROOT, content), RUNTIME, cache)


RUNTIME = None  # the npm Pyodide core, loaded once before the fork
RE_TAG = re.compile(r"<[^>]*>")
SCRIPT_SCHEMES = ("javascript:", "vbscript:", "data:")
URL_ATTRIBUTES = {"href", "src", "action", "formaction", "xlink:href", "data", "poster", "srcset", "background",
                  "cite", "ping", "manifest", "codebase", "archive", "lowsrc", "dynsrc"}


class _Scan(html.parser.HTMLParser):
    """Script-capable markup in a page: an on* attribute, a script URL in any attribute, an inline
    script. Only findings that carry the data payload ('fuzz') count: raw HTML in a chapter is trusted."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.found: list[str] = []
        self._script = False

    def handle_starttag(self, tag, attrs):
        refresh = tag == "meta" and (dict(attrs).get("http-equiv") or "").lower() == "refresh"
        for name, value in attrs:
            value = value or ""
            squashed = re.sub(r"[\s\x00-\x20]", "", value).lower()
            url = squashed.split("url=", 1)[-1] if refresh and name == "content" else squashed
            if name.startswith("on") and "fuzz" in value:
                self.found.append(f"<{tag} {name}=...>")
            elif (name in URL_ATTRIBUTES or refresh) and url.startswith(SCRIPT_SCHEMES) and "fuzz" in value:
                self.found.append(f"<{tag} {name}={squashed[:20]}>")
            elif name == "srcdoc" and "fuzz" in value:
                self.found.append(f"<{tag} srcdoc=...>")
        self._script = tag == "script" and not dict(attrs).get("src") and dict(attrs).get("type") != "application/json"

    def handle_data(self, data):
        if self._script and "fuzz" in data:
            self.found.append("inline <script>")

    def handle_endtag(self, tag):
        self._script = False


def scan(files: dict[str, bytes]) -> list[str]:
    """What is unsafe or broken in the files a build would write: [] when all is well."""
    problems = []
    for rel, data in files.items():
        if not rel.endswith((".html", ".svg", ".js", ".json", ".css")) or rel.startswith("pyodide/"):
            continue
        if b"\x00" in data:
            problems.append(f"NUL byte in {rel}")
        if rel.endswith(".svg"):
            try:
                etree.fromstring(data)
            except etree.ParseError as err:
                problems.append(f"malformed SVG {rel}: {err}")
        if rel.endswith(".html"):
            parser = _Scan()
            parser.feed(data.decode("utf-8"))
            problems += [f"{rel}: {f}" for f in parser.found]
    sw = files.get("sw.js")
    if sw is not None:
        import hashlib

        manifest = json.loads(sw.split(b"\n", 1)[0].decode().removeprefix("const MANIFEST = ").rstrip(";"))
        for rel, (size, digest) in manifest["files"].items():
            if rel in files and (len(files[rel]) != size or hashlib.sha256(files[rel]).hexdigest() != digest):
                problems.append(f"sw.js manifest wrong for {rel}")
    if not any(rel.startswith("pagefind/") for rel in files):
        problems.append("no search index")
    return problems


def _leaks() -> str:
    """Author code that reached the build: the engine or numpy as the fork started, or not."""
    import engine.attention
    import numpy as np

    changed = [n for n, now in (("engine.attention.softmax_forward", engine.attention.softmax_forward),
                                ("numpy.allclose", np.allclose)) if now is not ORIGINALS[n]]
    return ", ".join(changed)


ORIGINALS: dict = {}


def _run(content: Path, cache, conn, wrong_solution: bool) -> None:
    from builder.errors import BuildError

    try:
        site = gather_all(content, cache)
        leaked = _leaks()
        problems = scan(site.files)
        if leaked:
            conn.send(("leak", leaked))
        elif problems:
            conn.send(("unsafe page", "; ".join(problems)[:300]))
        elif wrong_solution and any(use.name == "exercise" for ch in site.chapters for use in ch.source.directives):
            conn.send(("wrong solution passed", ""))
        else:
            conn.send(("page", ""))
    except BuildError as err:
        text = str(err)
        listed = re.sub(r"\((?:known|allowed): [^)]*\)", "", err.message)  # a list of valid names is no echo
        problem = "error without line" if err.line is None and err.path.suffix == ".md" else (
            "long message" if len(listed) > MAX_MESSAGE else "")
        conn.send(("error", problem + (": " + text[:200] if problem else "")))
    except BaseException as err:  # noqa: BLE001 - a traceback is what we are counting
        frames = traceback.extract_tb(err.__traceback__)
        ours = [f for f in frames if str(ROOT) in f.filename and "/.venv/" not in f.filename] or frames
        where = f"{Path(ours[-1].filename).name}:{ours[-1].lineno}" if ours else "?"
        conn.send(("traceback", f"{type(err).__name__} at {where}: {str(err)[:120]}"))


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cases", type=int, default=10_000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--timeout", type=float, default=20.0)
    ap.add_argument("--grading-limit", type=float, default=2.0, help="the cage's time limit in seconds (the build's is 10)")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--max-seconds", type=float, default=None, help="start no case after this long; the report says how many ran")
    ap.add_argument("--kinds", default=",".join(GENERATORS), help="comma-separated: " + ", ".join(GENERATORS))
    ap.add_argument("--only", default=None, help="run only the cases of these kinds (comma-separated), each with the "
                                                 "seed and input it has in a run of every kind")
    ap.add_argument("--keep", type=Path, default=Path(tempfile.gettempdir()) / "attention-fuzz")
    args = ap.parse_args(argv)
    kinds = args.kinds.split(",")

    global RUNTIME
    import warnings

    warnings.filterwarnings("ignore", category=UserWarning)  # matplotlib on glyphs its font lacks
    import engine.attention
    import numpy as np

    from builder import grading
    from builder.build import Paths, load_runtime
    from builder.cache import BuildCache

    grading.TIME_LIMIT = args.grading_limit
    ORIGINALS.update({"engine.attention.softmax_forward": engine.attention.softmax_forward, "numpy.allclose": np.allclose})
    RUNTIME = load_runtime(Paths.at(ROOT), None)
    _reuse_chapters()
    cache = BuildCache()
    gather_all(CONTENT, cache)  # warm the figure and chapter caches, the wheel, the lock, the editor bundle
    assert scan(gather_all(CONTENT, cache).files) == [], "the real content itself scans as unsafe"
    ctx = mp.get_context("fork")
    work = Path(tempfile.mkdtemp(prefix="fuzz-"))
    counts = collections.Counter()
    by_kind = collections.defaultdict(collections.Counter)
    signatures = collections.Counter()
    examples: dict[str, Path] = {}
    running: list = []
    t0 = time.perf_counter()

    def finish(seed, kind, proc, conn, started, folder):
        outcome, detail = "hang", f"no result after {args.timeout:g} s"
        if conn.poll():
            try:
                outcome, detail = conn.recv()
            except EOFError:
                outcome, detail = "silent exit", f"exit code {proc.exitcode}"
        elif proc.is_alive():
            proc.kill()
        else:
            outcome, detail = "silent exit", f"exit code {proc.exitcode}"
        proc.join()
        if outcome == "error" and detail:
            outcome = "unclean error"
        counts[outcome] += 1
        by_kind[kind][outcome] += 1
        if outcome not in ("page", "error"):  # kept for reproduction
            sig = f"{kind}: {outcome}: {detail.split(': ')[0] if outcome == 'traceback' else detail[:80]}"
            signatures[sig] += 1
            if sig not in examples:
                keep = args.keep / f"case-{seed}"
                shutil.rmtree(keep, ignore_errors=True)
                shutil.copytree(folder, keep)
                (keep / "OUTCOME.txt").write_text(f"{outcome}: {detail}\n")
                examples[sig] = keep
        shutil.rmtree(folder, ignore_errors=True)

    ran = 0
    for seed in range(args.seed, args.seed + args.cases):
        if args.max_seconds is not None and time.perf_counter() - t0 > args.max_seconds:
            break
        kind, case = make_case(seed, kinds)
        if args.only and kind not in args.only.split(","):
            continue
        ran += 1
        folder = work / f"c{seed}"
        shutil.copytree(CONTENT, folder)
        for name, text in case["files"].items():
            try:
                (folder / name).write_bytes(text.encode("utf-8", "surrogatepass"))
            except (OSError, ValueError):
                pass  # a name this file system refuses: site.toml names a file that is not there
        recv, send = ctx.Pipe(duplex=False)
        proc = ctx.Process(target=_run, args=(folder, cache, send, case.get("wrong solution", False)))
        proc.start()
        send.close()
        running.append((seed, kind, proc, recv, time.perf_counter(), folder))
        while len(running) >= args.workers:
            for item in list(running):
                seed_, kind_, proc_, conn_, started, folder_ = item
                if conn_.poll() or not proc_.is_alive() or time.perf_counter() - started > args.timeout:
                    running.remove(item)
                    finish(seed_, kind_, proc_, conn_, started, folder_)
            time.sleep(0.002)
    for item in running:
        seed_, kind_, proc_, conn_, started, folder_ = item
        conn_.poll(max(0.0, args.timeout - (time.perf_counter() - started)))
        finish(seed_, kind_, proc_, conn_, started, folder_)
    shutil.rmtree(work, ignore_errors=True)

    report = {
        "cases": ran, "seconds": round(time.perf_counter() - t0, 1),
        "pages built": counts["page"], "clean errors": counts["error"],
        "unclean errors (no line, or message over %d chars)" % MAX_MESSAGE: counts["unclean error"],
        "tracebacks": counts["traceback"], "hangs": counts["hang"], "silent exits": counts["silent exit"],
        "unsafe pages": counts["unsafe page"], "wrong solutions passed": counts["wrong solution passed"],
        "author code reached the build": counts["leak"],
        "by kind": {k: dict(v) for k, v in sorted(by_kind.items())},
        "first signatures": [f"{n} x {sig} (example: {examples[sig]})" for sig, n in signatures.most_common(12)],
    }
    print(json.dumps(report, indent=2, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
