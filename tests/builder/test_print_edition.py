"""The print edition: print.html holds the whole series, static, and Chromium prints it to a PDF whose
chapters start pages, whose figures are never cut at a page edge, and which lists every work cited.

One build of the real content prints the PDF (the only test that pays for Chromium's seconds);
the other builds skip it, as every other test's build does."""
from __future__ import annotations

import html
import io
import re
import unicodedata

import pytest
from markupsafe import escape

from builder import print_edition
from builder.build import Paths, build
from builder.references import citing_chapters
from tests.builder.helpers import one_chapter_site, paths_for
from tests.conftest import ROOT

pypdf = pytest.importorskip("pypdf", reason="pypdf reads the PDF (the test extras install it)")


def test_a_chapter_is_made_static_with_ids_of_its_own():
    chapter = ('<h1 id="t">T</h1><p>See <a href="#t">above</a>, <a href="02-b.html">chapter 2</a>, '
               '<a href="02-b.html#x">its part</a>, <a href="bibliography.html#k">a work</a>, '
               '<a href="https://example.org/?a=1&amp;b=2">out</a>.</p>'
               '<figure id="f" data-figure="m" data-live><div class="figure-body"><script type="application/json">{"a":"</div>"}</script>'
               '<div class="figure-view"><span>live</span></div><img src="figures/a.svg" alt="x &lt; y" loading="lazy">'
               '<details class="figure-numbers-box"><summary>Numbers</summary><ul><li>1 &amp; 2 &#955;</li></ul></details>'
               '</div></figure><input type="radio" name="quiz-q" id="q-a"><label for="q-a">A</label><fieldset aria-labelledby="q h"></fieldset>'
               '<details open><summary>S</summary></details><pre><code>a &lt;b&gt; "c"</code></pre>')
    pages = {"01-a.html": "chapter-1-", "02-b.html": "chapter-2-", "bibliography.html": "bibliography-"}
    out = print_edition.static_chapter(chapter, 1, pages)
    assert '<h1 id="chapter-1-t">' in out and 'href="#chapter-1-t"' in out
    assert 'href="#chapter-2"' in out and 'href="#chapter-2-x"' in out and 'href="#bibliography-k"' in out
    assert 'href="https://example.org/?a=1&amp;b=2"' in out
    assert "<script" not in out and "live" not in out and '<figure id="chapter-1-f" data-figure="m">' in out and "figure-view" not in out
    assert '<img src="figures/a.svg" alt="x &lt; y" loading="lazy">' in out  # printing fetches it all the same
    assert '<details class="figure-numbers-box" open>' in out and out.count(" open") == 2
    assert '<li>1 &amp; 2 &#955;</li>' in out and '<pre><code>a &lt;b&gt; "c"</code></pre>' in out
    assert '<input type="radio" name="chapter-1-quiz-q" id="chapter-1-q-a">' in out
    assert 'for="chapter-1-q-a"' in out and 'aria-labelledby="chapter-1-q chapter-1-h"' in out


@pytest.fixture(scope="module")
def printed(tmp_path_factory):
    if print_edition.chromium() is None:
        pytest.skip(f"no Chromium at {print_edition.CHROMIUM} to print with (apt-get install chromium)")
    out = tmp_path_factory.mktemp("print") / "dist"
    site = build(Paths.at(ROOT), out, pdf=True)
    return site, out


def _ids_and_anchors(page: str) -> tuple[list[str], set[str]]:
    return re.findall(r'\bid="([^"]+)"', page), set(re.findall(r'\bhref="#([^"]*)"', page))


def test_print_html_holds_the_series_static(printed):
    site, out = printed
    page = (out / "print.html").read_text()
    assert "<script" not in page  # no Python, no figure code, nothing that runs
    csp = re.search(r'<meta http-equiv="Content-Security-Policy"[^>]*>', (out / "index.html").read_text()).group()
    assert csp in page
    ids, anchors = _ids_and_anchors(page)
    assert len(ids) == len(set(ids)), "ids repeat across chapters"
    assert anchors <= set(ids), f"links with no target: {sorted(anchors - set(ids))[:5]}"
    positions = [page.index(f'id="chapter-{ch.entry.number}"') for ch in site.chapters]
    assert positions == sorted(positions)
    for ch in site.chapters:
        assert f'<a href="#chapter-{ch.entry.number}">{html.escape(ch.title, quote=False)}</a>' in page
        for fig in ch.figures:
            assert f'<img src="{fig.svg_path}"' in page  # the static drawing
            for number in fig.body["numbers"]:
                assert f"<li>{escape(number)}</li>" in page  # its key numbers
        for use in ch.source.directives:
            if use.name == "quiz":  # every answer with its explanation, open
                assert f'id="chapter-{ch.entry.number}-quiz-{use.argument}"' in page
    assert page.count('<details class="quiz-answers" open>') == sum(
        1 for ch in site.chapters for use in ch.source.directives if use.name == "quiz")
    assert "<details " in page and not re.search(r"<details(?![^>]*\bopen\b)[^>]*>", page)


def test_the_site_links_the_print_edition_and_its_pdf(printed):
    site, out = printed
    index = (out / "index.html").read_text()
    pdf = print_edition.pdf_name(site.config.site.title)
    assert pdf == "attention-explored.pdf" and (out / pdf).is_file()
    assert '<a href="print.html">Print edition</a>' in index and f'href="{pdf}"' in (out / "print.html").read_text()
    assert '<a href="print.html">Print edition</a>' in (out / site.chapters[0].url).read_text()  # the footer
    manifest = (out / "sw.js").read_text()
    assert '"print.html"' in manifest and pdf not in manifest  # a download, not saved for offline reading


def _pdf(printed):
    site, out = printed
    data = (out / print_edition.pdf_name(site.config.site.title)).read_bytes()
    return site, data, pypdf.PdfReader(io.BytesIO(data))


def test_the_pdf_starts_each_chapter_on_a_page_of_its_own(printed):
    site, data, reader = _pdf(printed)
    outline = {item.title: reader.get_destination_page_number(item) for item in reader.outline
               if not isinstance(item, list)}
    starts = [outline[ch.title] for ch in site.chapters]
    assert starts == sorted(set(starts)) and starts[0] >= 2  # a cover and the contents come first
    assert len(reader.pages) > starts[-1]
    for start, ch in zip(starts, site.chapters):  # its first page starts with it, and is numbered
        lines = [line.strip() for line in reader.pages[start].extract_text().splitlines() if line.strip()]
        assert str(start + 1) in lines
        lines.remove(str(start + 1))
        assert lines[0].casefold() == ch.entry.heading.casefold(), lines[:2]  # "Chapter 3", or a label
    # The same sources, the same bytes: no date, and no link to the folder Chromium printed from.
    assert b"/CreationDate" not in data and b"/ModDate" not in data and b"file:" not in data


def _marked_pages(element, page_of: dict, page=None) -> set:
    """The pages a structure element's marked content lies on (its own /Pg, or its kids')."""
    element = element.get_object()
    page = element.get("/Pg", page)
    kids = element.get("/K")
    kids = kids if isinstance(kids, list) else [kids]
    found = set()
    for kid in kids:
        if isinstance(kid, int):
            found.add(page_of[page.idnum])
        elif kid is not None:
            kid_object = kid.get_object()
            if isinstance(kid_object, dict) and kid_object.get("/Type") == "/OBJR":
                continue
            if isinstance(kid_object, dict) and kid_object.get("/Type") == "/MCR":
                found.add(page_of[kid_object.get("/Pg", page).idnum])
            elif isinstance(kid_object, dict):
                found |= _marked_pages(kid_object, page_of, page)
    return found


def _figures_across_pages(reader) -> tuple[list, list]:
    """Chromium tags the PDF: each <figure> and each drawing in it is a /Figure structure element;
    those whose marked content lies on more than one page, with their pages, and every /Figure."""
    page_of = {p.indirect_reference.idnum: i for i, p in enumerate(reader.pages)}
    figures = []

    def walk(element):
        element = element.get_object()
        if element.get("/S") == "/Figure":
            figures.append(element)
        kids = element.get("/K")
        for kid in kids if isinstance(kids, list) else [kids]:
            if kid is not None and not isinstance(kid, int) and isinstance(kid.get_object(), dict):
                walk(kid)

    walk(reader.trailer["/Root"]["/StructTreeRoot"])
    cut = [(str(f.get("/Alt", "a figure"))[:50], sorted(_marked_pages(f, page_of))) for f in figures
           if len(_marked_pages(f, page_of)) != 1]
    return cut, figures


def test_no_figure_is_cut_at_a_page_edge(printed):
    """A figure (its drawing, numbers and caption) and its drawing each lie on one page; every
    drawing is in the PDF, though print.html loads them lazily (a drawing is tagged only if painted:
    test_the_check_finds_a_drawing_not_printed)."""
    site, data, reader = _pdf(printed)
    cut, figures = _figures_across_pages(reader)
    drawings = [f for f in figures if "/Alt" in f]
    # the figure directives', and any a chapter draws in its own HTML (chapter 9's model)
    drawn = (printed[1] / print_edition.PAGE).read_text().count("<figure")
    assert drawn > sum(len(ch.figures) for ch in site.chapters)
    assert len(drawings) == drawn
    assert len(figures) == 2 * len(drawings)  # each <figure>, and the drawing in it
    assert not cut, f"figures across a page edge: {cut[:3]}"


def test_the_check_finds_a_cut_figure(tmp_path):
    """A drawing taller than a page is cut whatever the stylesheet says: the check must say so."""
    if print_edition.chromium() is None:
        pytest.skip(f"no Chromium at {print_edition.CHROMIUM} to print with (apt-get install chromium)")
    svg = b'<svg xmlns="http://www.w3.org/2000/svg" width="100" height="400"><rect width="100" height="400"/></svg>'
    page = (b'<!doctype html><html lang="en"><title>t</title><p>Text</p><figure><img src="figures/a.svg" alt="Tall" '
            b'width="400" height="1600"><figcaption>Cut</figcaption></figure>'
            b'<figure><img src="figures/a.svg" alt="Short" width="40" height="160"><figcaption>Whole</figcaption></figure>')
    reader = pypdf.PdfReader(io.BytesIO(print_edition.print_pdf({print_edition.PAGE: page, "figures/a.svg": svg},
                                                                print_edition.CHROMIUM)))
    cut, figures = _figures_across_pages(reader)
    assert len(figures) == 4 and [alt for alt, _ in cut] == ["a figure", "Tall"], cut


def test_the_check_finds_a_drawing_not_printed(tmp_path):
    """Chromium tags an image as a drawing (a /Figure with /Alt) only if it painted it: a lazy one
    far down the page is there, a missing or blank one is not, so counting drawings finds it."""
    if print_edition.chromium() is None:
        pytest.skip(f"no Chromium at {print_edition.CHROMIUM} to print with (apt-get install chromium)")
    drawn = b'<svg xmlns="http://www.w3.org/2000/svg" width="100" height="40"><rect width="100" height="40"/></svg>'
    blank = b'<svg xmlns="http://www.w3.org/2000/svg" width="100" height="40"></svg>'
    page = (b'<!doctype html><html lang="en"><title>t</title><p style="height:3000px">Text</p>'
            + b"".join(b'<figure><img src="figures/%s.svg" alt="%s" loading="lazy" width="100" height="40">'
                       b'<figcaption>%s</figcaption></figure>' % (name, name.title(), name) for name in (b"far", b"blank", b"gone")))
    reader = pypdf.PdfReader(io.BytesIO(print_edition.print_pdf(
        {print_edition.PAGE: page, "figures/far.svg": drawn, "figures/blank.svg": blank}, print_edition.CHROMIUM)))
    _, figures = _figures_across_pages(reader)
    assert [str(f["/Alt"]) for f in figures if "/Alt" in f] == ["Far"]


def test_every_work_cited_is_in_the_pdfs_bibliography(printed):
    site, data, reader = _pdf(printed)
    links = {a.get_object()["/A"].get("/URI") for page in reader.pages for a in page.get("/Annots", [])
             if "/A" in a.get_object()}
    # The bibliography's pages: from its outline entry to the end (the text of the whole book takes
    # seconds to extract). NFKC: the PDF's text has the font's ligatures ("ﬃ"), the references
    # their letters; and a line may break after a hyphen ("multi- head")
    start = next(reader.get_destination_page_number(item) for item in reader.outline
                 if not isinstance(item, list) and item.title == "Bibliography")
    text = " ".join(page.extract_text() for page in reader.pages[start:])
    text = unicodedata.normalize("NFKC", re.sub(r"-\s+", "-", re.sub(r"\s+", " ", text)))
    bibliography = site.config.bibliography
    works = bibliography.sorted(citing_chapters(site.chapters))
    assert works
    for ref in works:
        url = html.unescape(re.search(r'<a href="([^"]+)"', ref.html).group(1))
        assert url in links, f"{ref.key}: no link to {url}"
        title = html.unescape(re.sub(r"<[^>]+>", "", ref.html)).split(". ")[1]
        assert " ".join(title.split()[:4]) in text, f"{ref.key}: '{title}' not in the text"


def test_without_chromium_the_build_says_so_and_links_no_pdf(tmp_path, monkeypatch):
    monkeypatch.setattr(print_edition, "CHROMIUM", tmp_path / "no-chromium")
    content = one_chapter_site(tmp_path / "content", "# One\n\nText.\n")
    out = tmp_path / "dist"
    site = build(paths_for(content), out, pdf=True)
    assert print_edition.WITHOUT in site.notes
    assert not list(out.glob("*.pdf")) and ".pdf" not in (out / "print.html").read_text()
    assert "Chapter 1" in (out / "print.html").read_text()
