"""The contents page's opening figure (builder/contents.py): the first chapter's first figure that needs
no Python, as its chapter renders it, with the page's own caption; none, and the page loads no views."""
from types import SimpleNamespace

from builder.contents import opening_figure, scripts


def _figure(name: str, live: bool) -> str:
    return (f'<figure class="figure" data-figure="{name}"{" data-live=" if live else ""} data-state="static" id="figure-1-1">'
            f'<div class="figure-body"><img src="figures/x.svg" alt="A drawing"></div>'
            f'<figcaption><span class="figure-label">Figure 1.1</span><p>Its caption.</p></figcaption></figure>')


def test_the_first_figure_without_python_up_to_its_caption():
    chapter = SimpleNamespace(html="<p>Text.</p>" + _figure("query-drag", live=True) + _figure("winograd-head", live=False))
    opening = opening_figure(chapter)
    assert opening.startswith('<figure class="figure" data-figure="winograd-head"') and opening.endswith("</div>")
    assert "figcaption" not in opening and "Its caption" not in opening
    assert any("figures.js" in s for s in scripts(opening))


def test_a_chapter_whose_figures_all_ask_python_gives_none_and_no_scripts():
    chapter = SimpleNamespace(html=_figure("query-drag", live=True))
    assert opening_figure(chapter) is None and scripts(None) == ()


def test_the_series_contents_page_opens_with_chapter_1_s_figure(series_build):
    _, out = series_build
    page = (out / "index.html").read_text()
    opening = page.index('data-figure="winograd-head"')
    assert opening < page.index('<ol class="chapter-list"')
    assert "data-live" not in page and 'id="runtime-config"' not in page  # the contents page loads no Python
    assert 'data-figure-views' in page and 'class="figure-data"' in page  # its view draws from its data
    assert 'From chapter 1,' in page and '<a href="01-why-attention.html">Why attention</a>' in page
