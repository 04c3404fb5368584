"""Readers see reader words: no command, flag, environment variable or file name from the build
in any text a page shows (its text, alt, title and aria-label) or any string its scripts can
show. The live-reload script is the exception: it goes only into `serve` builds, for authors."""
import html.parser
import re

import pytest

from tests.conftest import ROOT

# This repository's commands, flags, variables and files (a cited work may name files of its own).
BUILD_WORDS = re.compile(r"\b(?:dev|build)\.py\b|\b(?:site|pyproject)\.toml\b|\breferences\.bib\b|\bpackage(?:-lock)?\.json\b"
                         r"|(?<![\w/.-])(?:engine|builder|theme|content|tests|benchmarks|dist|node_modules)/[\w/.-]+"
                         r"|(?<![\w(-])--[a-z][a-z-]+(?![\w-]*:)|\bpython3\b|\bnpm (?:ci|install|run)\b|\bpip install\b|\bATTN_[A-Z_]+")
SHOWN_ATTRIBUTES = ("alt", "title", "aria-label", "placeholder")


class _Shown(html.parser.HTMLParser):
    """The text a page shows: its text nodes outside scripts and styles, and shown attributes."""

    def __init__(self):
        super().__init__()
        self.parts, self._hidden = [], 0

    def handle_starttag(self, tag, attrs):
        if tag in ("script", "style", "template"):
            self._hidden += 1
        self.parts += [v for k, v in attrs if k in SHOWN_ATTRIBUTES and v]

    def handle_endtag(self, tag):
        if tag in ("script", "style", "template"):
            self._hidden -= 1

    def handle_data(self, data):
        if not self._hidden:
            self.parts.append(data)


def _found(text: str) -> list[str]:
    return [m.group(0) for m in BUILD_WORDS.finditer(text)]


def test_pages_show_no_build_words(series_build):
    out = series_build[1]
    for page in sorted(out.glob("*.html")):
        shown = _Shown()
        shown.feed(page.read_text())
        found = _found(" ".join(shown.parts))
        assert not found, f"{page.name} shows {found[:5]}"


SCRIPTS = [p for folder in ("js", "runtime", "figures") for p in sorted((ROOT / "theme" / folder).glob("*.js"))
           if p.name != "livereload.js"]
STRING = re.compile(r'"(?:[^"\\\n]|\\.)*"|\'(?:[^\'\\\n]|\\.)*\'|`(?:[^`\\]|\\.)*`')


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_scripts_say_no_build_words(script):
    code = re.sub(r"^\s*//.*$", "", script.read_text(), flags=re.M)  # comments are for authors
    code = re.sub(r"^\s*(?:import|export)\b.*$", "", code, flags=re.M)  # module paths are not shown
    # Words a reader could see are sentences: single tokens (paths, URLs, CSS variables) are not shown.
    found = [f for literal in STRING.findall(code) if " " in literal for f in _found(literal)]
    assert not found, f"{script.name} may show {found[:5]}"


def test_the_check_finds_build_words():
    assert _found("Serve the folder (python3 dev.py serve), or build with --pyodide-dist")
    assert _found("The sentences are in engine/tasks/corpus.py")
    assert not _found("Live figures need a connection the first time — this page works without them")
