"""The catalogue (builder/catalogue.py): every figure of FIGURES with every option, read from the models so
that one added is listed with no edit; every text from the registries escaped; a page that reads offline."""
from __future__ import annotations

import base64
import dataclasses
import re
from html import unescape
from html.parser import HTMLParser

import pytest

from builder import catalogue
from builder.catalogue import FigureEntry, Option, ReadablePath
from builder.directives import REGISTRY
from builder.site_config import load_site_config
from engine import figures as models
from engine.exercises import EXERCISES
from engine.figures.params import field
from tests.conftest import ROOT

from .helpers import one_chapter_site, paths_for

HOSTILE = '<script>alert(1)</script><img src="https://evil.example/x" onerror=alert(2)> & "q" \'s'


SAFE_TAGS = {"html", "head", "meta", "title", "style", "body", "h1", "h2", "h3", "p", "div", "nav", "ul", "li", "a", "section",
             "table", "thead", "tbody", "tr", "th", "td", "code", "span", "img", "details", "summary"}


def _tags(html: str) -> list[tuple[str, list[tuple[str, str]]]]:
    """Every start tag as a browser's parser reads it, with its attributes."""
    found = []

    class Tags(HTMLParser):
        def handle_starttag(self, tag, attrs):
            found.append((tag, [(k, v or "") for k, v in attrs]))

    Tags().feed(html)
    return found


def _section(html: str, name: str) -> str:
    start = html.index(f'<section id="figure-{name}">')
    return html[start:html.index("</section>", start)]


def _grown(mod, name: str, option):
    """The model's Params with one more whole-number option, as if its author had added it."""
    return dataclasses.make_dataclass("Params", [(name, int, option)], bases=(mod.Params,), frozen=True,
                                      namespace={"__module__": mod.__name__})


@pytest.fixture(scope="module")
def listed():
    """The catalogue of this repository without drawings (no figure computed): names, options, uses."""
    cat = catalogue.gather(paths_for(ROOT / "content"), drawings=False)
    return cat, catalogue.page(cat)


def test_every_figure_and_every_option_is_listed_with_its_range_and_what_it_does(listed):
    cat, html = listed
    shown = [m for ch in load_site_config(ROOT / "content").chapters  # in reading order, FIGURES has none
             for m in re.findall(r"^/// figure \| ([a-z0-9-]+)", ch.path.read_text(), re.M)]
    first = list(dict.fromkeys(shown))
    assert [f.name for f in cat.figures] == first + sorted(set(models.FIGURES) - set(first))
    assert all(f.shows for f in cat.figures)  # the model's docstring's first paragraph, however it wraps
    assert {f.name: f.shows for f in cat.figures}["chain-rule"].endswith("by the chain rule and by a central difference.")
    for name in models.FIGURES:
        section = _section(html, name)
        for f in dataclasses.fields(models.module(name).Params):
            assert f.metadata["doc"], f"{name}: option '{f.name}' says nothing of what it does (field(doc=...))"
            assert f"<td><code>{f.name}</code></td>" in section, (name, f.name)
            assert re.sub(r"\s+", " ", unescape(section)).count(f.metadata["doc"]) >= 1, (name, f.name)
    row = _section(html, "softmax-temperature").split("<code>t_min</code>")[1].split("</tr>")[0]
    assert "<td>number</td><td><code>0.1</code></td><td>0.05 to 1.0</td><td>left end of the slider</td>" in row


def test_an_option_added_to_a_model_is_listed_with_no_other_edit(monkeypatch):
    mod = models.module("softmax-temperature")
    monkeypatch.setattr(mod, "Params", _grown(mod, "sharpness_probe", field(3, lo=0, hi=9, doc="a new option")))
    section = _section(catalogue.page(catalogue.gather(paths_for(ROOT / "content"), drawings=False)),
                       "softmax-temperature")
    assert ("<td><code>sharpness_probe</code></td><td>whole number</td><td><code>3</code></td><td>0 to 9</td>"
            "<td>a new option</td>") in section


def test_the_chapters_that_use_a_figure_are_named_at_their_lines(listed):
    cat, _ = listed
    uses = {f.name: f.uses for f in cat.figures}
    text = (ROOT / "content" / "04-scores-to-weights.md").read_text().splitlines()
    (line,) = [i + 1 for i, line in enumerate(text) if line.strip() == "/// figure | softmax-temperature"]
    quoted = [i + 1 for i, line in enumerate(text) if "{= softmax-temperature" in line]
    assert quoted and uses["softmax-temperature"] == [
        f"04-scores-to-weights.md: line {line}; quoted at lines {', '.join(map(str, quoted))}"]
    quizzes = {name: uses for name, _, _, uses in cat.directives}["quiz"]
    with_quizzes = [ch for ch in (ROOT / "content").glob("[0-9]*.md") if "/// quiz |" in ch.read_text()]
    assert len(quizzes) == len(with_quizzes) > 0  # one line per chapter, however many quizzes it holds


def test_every_directive_s_own_options_and_every_grader_are_listed(listed):
    """Quizzes and exercises with their options; the figure directive with its own (its layout), beside
    each figure's model options listed above."""
    cat, html = listed
    names = {name: opts for name, _, opts, _ in cat.directives}
    assert set(names) == set(REGISTRY)
    for name, directive in REGISTRY.items():
        assert [o.name for o in names[name]] == [f.name for f in dataclasses.fields(directive.Options)]
        assert all(o.doc for o in names[name]), name
        assert f'<section id="directive-{name}">' in html and directive.summary
    assert [g[0] for g in cat.graders] == list(EXERCISES)
    for name, function, _, uses in cat.graders:
        assert f"<td><code>{name}</code></td><td><code>{function}</code></td>" in html
    assert any(uses for *_, uses in cat.graders), "the series has exercises"


def test_hostile_text_from_any_registry_stays_text():
    figure = FigureEntry(HOSTILE, HOSTILE, True, [Option(HOSTILE, HOSTILE, HOSTILE, HOSTILE, HOSTILE)], [HOSTILE],
                         [ReadablePath(HOSTILE, HOSTILE, HOSTILE)], alt=HOSTILE, drawing=b"<svg/>")
    html = catalogue.page(catalogue.Catalogue([figure], [(HOSTILE, HOSTILE, [], [HOSTILE])],
                                              [(HOSTILE, HOSTILE, HOSTILE, [HOSTILE])]))
    tags = _tags(html)
    assert {tag for tag, _ in tags} <= SAFE_TAGS  # the text made no element of its own
    assert not [name for _, attrs in tags for name, _ in attrs if name.startswith("on")]
    assert all(value.startswith(("#", "data:image/svg+xml;base64,"))
               for _, attrs in tags for name, value in attrs if name in ("src", "href"))
    assert html.count("&lt;script&gt;alert(1)&lt;/script&gt;") >= 10


def test_a_model_s_hostile_docstring_and_option_doc_are_escaped(monkeypatch):
    mod = models.module("matrix-product")
    monkeypatch.setattr(mod, "__doc__", f"matrix-product: {HOSTILE}\n\nmore")
    monkeypatch.setattr(mod, "Params", _grown(mod, "probe", field(1, doc=HOSTILE)))
    html = catalogue.page(catalogue.gather(paths_for(ROOT / "content"), drawings=False))
    assert "<script" not in html and "<img src=\"https" not in html
    assert _section(html, "matrix-product").count("&lt;script&gt;") == 2  # what it shows, and the option's doc


def test_the_page_with_drawings_stands_alone(tmp_path, monkeypatch):
    """Drawn from the build's fallbacks, inline; nothing the page names lies outside it (no network)."""
    monkeypatch.setattr(models, "FIGURES", ("softmax-temperature", "matrix-product"))
    content = one_chapter_site(tmp_path / "content", "# T\n\n/// figure | matrix-product\n\nA caption.\n///\n\n"
                                                     "It has {= matrix-product.facts.multiplications =} multiplications.\n")
    page = catalogue.write(paths_for(content), tmp_path / "out")
    html = page.read_text()
    assert page == tmp_path / "out" / "index.html"
    tags = _tags(html)
    assert {tag for tag, _ in tags} <= SAFE_TAGS  # no script, link, iframe: nothing loads
    addresses = [value for _, attrs in tags for name, value in attrs if name in ("src", "href", "srcset", "action")]
    assert addresses and all(a.startswith(("#", "data:image/svg+xml;base64,")) for a in addresses), addresses
    assert not re.search(r"@import|url\(", html, re.I)
    images = re.findall(r'<img src="data:image/svg\+xml;base64,([^"]+)" alt="([^"]*)"', html)
    assert len(images) == 2
    for data, alt in images:
        svg = base64.b64decode(data).decode()
        assert "<svg" in svg and "var(--" in svg and "http://www.w3.org" in svg  # the namespace, not a fetch
        assert alt
    section = _section(html, "matrix-product")
    assert "<li><code>01-test.md: line 3; quoted at line 8</code></li>" in section
    assert "<code>matrix-product.facts.multiplications</code></td><td>number</td>" in section


def test_the_catalogue_command_writes_the_page(tmp_path, monkeypatch, capsys):
    import build

    monkeypatch.setattr(models, "FIGURES", ("matrix-product",))
    content = one_chapter_site(tmp_path / "content", "# T\n\nNo figure.\n")
    assert build.main(["catalogue", "--content", str(content), "--out", str(tmp_path / "cat")]) == 0
    assert (tmp_path / "cat" / "index.html").is_file()
    assert (tmp_path / "cat" / "index.html").as_uri() in capsys.readouterr().out


def test_a_model_that_raises_is_one_error_at_its_code(tmp_path, monkeypatch):
    from builder.errors import BuildError

    def broken(params):
        raise KeyError("oops")

    monkeypatch.setattr(models, "FIGURES", ("matrix-product",))
    monkeypatch.setattr(models.module("matrix-product"), "compute", broken)
    with pytest.raises(BuildError) as err:
        catalogue.gather(paths_for(one_chapter_site(tmp_path / "content", "# T\n\nNo figure.\n")))
    message = str(err.value)
    assert "\n" not in message and "matrix_product.py" in message and "figure 'matrix-product'" in message
    assert "test_catalogue.py" in message and "oops" in message, message
