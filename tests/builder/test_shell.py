"""The site shell: contents page, status line placement, the Numbers disclosure, fonts, favicon, search."""
from __future__ import annotations

import json
import re

import pytest

from builder.build import check
from builder.errors import BuildError
from builder.search import search_index
from builder.site_config import MAX_DESCRIPTION, load_site_config
from tests.builder.helpers import paths_for
from tests.conftest import PALETTE
from tests.site_layout import theme_file

FIGURE = "/// figure | softmax-bars\n\nA caption.\n///\n"


def site_with(folder, description_one: str = '"Where the <series> & its figures begin."'):
    """Two chapters: the first with a figure and a description, the second with neither."""
    folder.mkdir(parents=True)
    (folder / "site.toml").write_text(
        f'[site]\ntitle = "S"\ndescription = "The series."\n\n[[chapters]]\nfile = "01-a.md"\n'
        f'description = {description_one}\n\n[[chapters]]\nfile = "02-b.md"\n')
    (folder / "01-a.md").write_text(f"# First\n\nText.\n\n{FIGURE}\nMore.\n")
    (folder / "02-b.md").write_text("# Second\n\nText about softmax.\n")
    return folder


@pytest.fixture(scope="module")
def small_site(tmp_path_factory):
    return check(paths_for(site_with(tmp_path_factory.mktemp("shell") / "content")))


def test_status_line_stands_below_the_title(small_site):
    page = small_site.files["01-a.html"].decode()
    title, status, figure = page.index("<h1"), page.index("data-runtime-status"), page.index("data-figure=")
    assert title < page.index("</h1>") < status < figure
    assert page.index('<p class="chapter-number">') < title
    assert page.count("<h1") == 1


def test_key_numbers_sit_in_a_collapsed_numbers_disclosure(small_site):
    page = small_site.files["01-a.html"].decode()
    m = re.search(r'<details class="figure-numbers-box"([^>]*)><summary>Numbers</summary>'
                  r'<ul class="figure-numbers" aria-label="Key numbers">(<li>[^<]+</li>)+</ul></details>', page)
    assert m, "no Numbers disclosure around the key numbers"
    assert "open" not in m.group(1)


def test_contents_page_describes_each_chapter_without_a_thumbnail(small_site):
    index = small_site.files["index.html"].decode()
    assert '<p class="lede">The series.</p>' in index
    assert re.search(r'Where to start: <a class="start-link" href="01-a.html">chapter 1, First</a>', index)
    cards = re.findall(r'<li class="chapter-card" value="(\d+)"[^>]*>(.*?)</li>', index, re.S)
    assert [n for n, _ in cards] == ["1", "2"]
    first, second = cards[0][1], cards[1][1]
    assert "<img" not in index  # a figure shrunk to a card could not be read: no thumbnails at all
    # the description is data: escaped, here and in the chapter's meta description
    described = "Where the &lt;series&gt; &amp; its figures begin."
    assert f'<p class="chapter-card-description">{described}</p>' in first
    assert f'<meta name="description" content="{described}">' in small_site.files["01-a.html"].decode()
    assert "chapter-card-description" not in second  # no description given
    assert '<meta name="description" content="The series.">' in small_site.files["02-b.html"].decode()


def test_each_card_lists_the_quizzes_and_exercises_progress_is_counted_against(tmp_path):
    """The contents page's script (progress.js) reads them from the card: it never guesses."""
    from tests.builder.test_quiz import GOOD as QUIZ

    content = site_with(tmp_path / "content")
    quizzes = QUIZ.split("\n", 2)[2]
    (content / "02-b.md").write_text("# Second\n\n" + quizzes.replace("weights-sum", "q-2") + "\n" + quizzes)
    site = check(paths_for(content))
    index = site.files["index.html"].decode()
    cards = re.findall(r'<li class="chapter-card" value="\d+"([^>]*)>', index)
    assert cards == [' data-page="01-a.html" data-quizzes="" data-exercises=""',
                     ' data-page="02-b.html" data-quizzes="q-2 weights-sum" data-exercises=""']
    assert re.search(r'<section class="progress" data-progress hidden', index)  # nothing shows without JavaScript
    assert f'<script type="module" src="{theme_file(site, "js/progress.js")}"></script>' in index


@pytest.mark.parametrize("value, message", [
    ("3", "description must be a string, not a number"),
    ('"two\\nlines"', "must be one line without control characters"),
    (f'"{"x" * (MAX_DESCRIPTION + 1)}"', f"is {MAX_DESCRIPTION + 1} characters long (at most {MAX_DESCRIPTION})"),
])
def test_a_bad_chapter_description_is_an_error_at_its_line(tmp_path, value, message):
    content = site_with(tmp_path / "content", value)
    with pytest.raises(BuildError) as err:
        load_site_config(content)
    text = str(err.value)
    assert text.startswith(f"{content / 'site.toml'}:7: chapter 1: "), text
    assert message in text and len(text) < 400, text


def test_a_labelled_page_stands_beside_the_chapters(tmp_path):
    """A page with a label (a primer, 00-): its card and its page say the label, not "Chapter 0", and the
    place to start is still the first numbered chapter, with the labelled page mentioned beside it."""
    content = site_with(tmp_path / "content")
    toml = (content / "site.toml").read_text()
    (content / "site.toml").write_text(toml.replace('[[chapters]]\nfile = "01-a.md"',
                                                    '[[chapters]]\nfile = "00-p.md"\nlabel = "Maths primer"\n\n'
                                                    '[[chapters]]\nfile = "01-a.md"', 1))
    (content / "00-p.md").write_text("# Some maths\n\nText.\n")
    site = check(paths_for(content))
    assert [ch.entry.heading for ch in site.chapters] == ["Maths primer", "Chapter 1", "Chapter 2"]
    index = site.files["index.html"].decode()
    cards = re.findall(r'<li class="chapter-card" value="(\d+)"[^>]*>(.*?)</li>', index, re.S)
    assert [n for n, _ in cards] == ["0", "1", "2"]
    assert '<span class="chapter-card-number">Maths primer</span> Some maths' in cards[0][1]
    assert '<span class="chapter-card-number">Chapter 1</span> First' in cards[1][1]
    assert re.search(r'Where to start: <a class="start-link" href="01-a.html">chapter 1, First</a>', index)
    assert '<a href="00-p.html">Some maths</a>, the maths primer,' in index
    assert "Chapter 0" not in index and "chapter 0" not in index
    page = site.files["00-p.html"].decode()
    assert '<p class="chapter-number">Maths primer</p>' in page
    assert '<p class="chapter-number">Chapter 1</p>' in site.files["01-a.html"].decode()


@pytest.mark.parametrize("value, message", [
    ("3", "label must be a string, not a number"),
    (f'"{"x" * 41}"', "label is 41 characters long (at most 40)"),
])
def test_a_bad_label_is_an_error_at_its_line(tmp_path, value, message):
    content = site_with(tmp_path / "content")
    toml = (content / "site.toml").read_text()
    (content / "site.toml").write_text(toml.replace('file = "02-b.md"\n', f'file = "02-b.md"\nlabel = {value}\n'))
    with pytest.raises(BuildError) as err:
        load_site_config(content)
    text = str(err.value)
    assert f"site.toml:{toml.count(chr(10)) + 1}: chapter 2: " in text and message in text, text


def test_every_page_links_the_favicon_drawn_from_the_palette(small_site):
    pages = [rel for rel in small_site.files if rel.endswith(".html")]
    assert {"index.html", "search.html", "01-a.html", "02-b.html"} <= set(pages)
    for rel in pages:
        assert f'<link rel="icon" href="{theme_file(small_site, "favicon.svg")}" type="image/svg+xml">' in small_site.files[rel].decode(), rel
    icon = small_site.files[theme_file(small_site, "favicon.svg")].decode()
    assert icon.startswith("<svg") and icon.count("<rect") == 4
    from builder import palette
    colours = palette.load(PALETTE)
    assert all(colours[role] in icon for role in ("query", "key", "value"))


def test_every_font_rule_uses_one_of_the_four_stacks(small_site):
    css = small_site.files[theme_file(small_site, "css/site.css")].decode()
    stacks = dict(re.findall(r"--(font-(?:text|ui|mono|math)):\s*([^;]+);", css))
    assert set(stacks) == {"font-text", "font-ui", "font-mono", "font-math"}
    assert all(stack.rstrip().endswith(("serif", "sans-serif", "monospace", "math")) for stack in stacks.values())
    # The faces downloaded: the series' text faces (builder/text_fonts.py), which never hide text while
    # they load, and the math font, only where formulas use it.
    from builder.text_fonts import css as text_faces

    faces = re.findall(r"@font-face \{[^}]*\}", css)
    math = '@font-face { font-family: "Series Math"; src: url("../fonts/math.woff2") format("woff2"); font-display: block; }'
    assert faces == [*text_faces().splitlines(), math]
    assert css.count("url(") == len(faces)
    assert stacks["font-text"].startswith('"Series Text", ') and stacks["font-ui"].startswith('"Series Sans", ')
    rules = re.findall(r"(?<![-\w])font(?:-family)?\s*:\s*([^;}]+)", re.sub(r"@font-face \{[^}]*\}", "", css))
    assert len(rules) > 20
    odd = [r for r in rules if "var(--font-" not in r and r.strip() != "inherit"]
    assert not odd, f"font rules that pick their own family: {odd[:5]}"


def test_search_indexes_the_chapters_only(small_site):
    files = small_site.files
    bundle = {rel for rel in files if rel.startswith("pagefind/")}
    for rel in ("pagefind/pagefind.js", "pagefind/pagefind-worker.js", "pagefind/wasm.en.pagefind",
                "pagefind/pagefind-entry.json"):
        assert rel in bundle, rel
    assert any(rel.startswith("pagefind/fragment/") for rel in bundle)
    assert not any("-ui" in rel or "highlight" in rel or "unknown" in rel for rel in bundle), bundle
    entry = json.loads(files["pagefind/pagefind-entry.json"])
    assert entry["languages"]["en"]["page_count"] == 2  # the two chapters: not contents, search or bibliography
    for rel in ("01-a.html", "02-b.html"):
        assert '<article class="chapter" data-chapter=' in files[rel].decode()
        assert "data-pagefind-body" in files[rel].decode()
        assert re.search(r'<p class="runtime-status" data-pagefind-ignore', files["01-a.html"].decode())
    for rel in ("index.html", "search.html"):
        assert "data-pagefind-body" not in files[rel].decode()
    search = files["search.html"].decode()
    assert '<label for="search-input">' in search and 'role="search"' in search
    assert f'<script type="module" src="{theme_file(small_site, "js/search.js")}"></script>' in search


def test_search_index_without_pagefind_is_a_build_error(tmp_path):
    with pytest.raises(BuildError) as err:
        search_index({"a.html": b"<html></html>"}, tmp_path / "node_modules")
    assert "pagefind is missing" in str(err.value) and "npm ci" in str(err.value)
