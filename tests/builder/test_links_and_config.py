"""Data written into pages: link schemes and malformed URLs, broken anchors, site.toml, titles."""
from __future__ import annotations

import re
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

import build as cli
from builder.build import check
from builder.errors import BuildError
from builder.links import browser_scheme
from builder.site_config import load_site_config
from tests.builder.helpers import one_chapter_site, paths_for
from tests.conftest import ROOT


def error_of(content) -> str:
    with pytest.raises(BuildError) as err:
        check(paths_for(content))
    return str(err.value)


LINK_ERRORS = {
    "javascript": ("[x](javascript:alert(1))", 3, "uses 'javascript:'"),
    "upper case, by reference": ("[x][r]\n\n[r]: JAVASCRIPT:alert(1)", 5, "uses 'javascript:'"),
    "entity-encoded": ("[x](&#106;avascript:alert(1))", 3, "uses 'javascript:'"),
    "tab inside the scheme": ("[x](java&#x09;script:alert(1))", 3, "uses 'javascript:'"),
    "leading space": ("[x]( javascript:alert(1))", 3, "uses 'javascript:'"),
    "vbscript": ("[x](vbscript:msgbox)", 3, "uses 'vbscript:'"),
    "data link": ("[x](data:text/html,<script>alert(1)</script>)", 3, "uses 'data:'"),
    "data image": ("![x](data:image/svg+xml;base64,PHN2Zz4=)", 3, "uses 'data:'"),
    "malformed IPv6 link": ("[x](http://[::1/)", 3, "link 'http://[::1/' is malformed"),
    "malformed IPv6 image": ("![x](http://[::1/a.png)", 3, "is malformed"),
    "malformed IPv6 in raw HTML": ('<a href="http://[::1/">x</a>', 3, "malformed link 'http://[::1/'"),
}


@pytest.mark.parametrize("case", list(LINK_ERRORS))
def test_unsafe_or_malformed_links_name_the_chapter_line(case, tmp_path):
    text, line, words = LINK_ERRORS[case]
    message = error_of(one_chapter_site(tmp_path / "content", f"# T\n\n{text}\n"))
    assert re.match(rf"\S*01-test\.md:{line}: ", message), message
    assert words in message, message


def test_safe_links_and_trusted_raw_html_are_kept(tmp_path):
    site = check(paths_for(one_chapter_site(tmp_path / "content", """\
        # T

        [mail](mailto:a@example.org), [web](https://example.org/?a=1&b=2), [page](01-test.md#t).
        <a href="javascript:void(0)" class="raw">Raw HTML is the trusted author's own.</a>
        """)))
    html = site.files["01-test.html"].decode()
    assert 'href="mailto:a@example.org"' in html and 'href="https://example.org/?a=1&amp;b=2"' in html
    assert 'href="01-test.html#t"' in html and 'href="javascript:void(0)" class="raw"' in html


@pytest.mark.parametrize("href, scheme", [("javascript:x", "javascript"), ("&#x4A;avascript:x", "javascript"),
                                          ("\x01 java\nscript:x", "javascript"), ("%6Aavascript:x", ""),
                                          ("04-a.md#b", ""), ("a/b:c", ""), ("HTTPS://e.org", "https")])
def test_browser_scheme_reads_hrefs_as_browsers_do(href, scheme):
    assert browser_scheme(href) == scheme


def test_broken_anchor_suggests_the_closest_heading(tmp_path):
    content = one_chapter_site(tmp_path / "content", """\
        # T

        See [the temperature](01-test.md#tempreture) and [more](#why-divde).

        ## Temperature

        ## Why divide
        """)
    message = error_of(content)
    assert re.match(r"\S*01-test\.md:3: broken link '01-test\.md#tempreture': '01-test\.md' has no "
                    r"'#tempreture' \(did you mean '#temperature'\?\)$", message), message


def test_broken_page_link_suggests_the_closest_page(tmp_path):
    message = error_of(one_chapter_site(tmp_path / "content", "# T\n\n[x](01-tset.md)\n"))
    assert "broken link '01-tset.md'" in message and "(did you mean '01-test.md'?)" in message, message


def test_a_link_written_to_a_page_is_named_as_written(tmp_path):
    message = error_of(one_chapter_site(tmp_path / "content", "# T\n\n[x](01-tset.html)\n"))
    assert "broken link '01-tset.html'" in message and "(did you mean '01-test.html'?)" in message, message


def test_link_errors_clip_long_urls(tmp_path):
    message = error_of(one_chapter_site(tmp_path / "content", f"# T\n\n[x](javascript:{'a' * 5000})\n"))
    assert len(message) < 400, len(message)


def two_chapter_site(folder, first_title: str):
    folder.mkdir(parents=True)
    (folder / "site.toml").write_text('[site]\ntitle = "S"\ndescription = "A \\"quoted\\" <desc> & more"\n'
                                      '[[chapters]]\nfile = "01-a.md"\n[[chapters]]\nfile = "02-b.md"\n')
    (folder / "01-a.md").write_text(f"# {first_title}\n\nCited [@k].\n")
    (folder / "02-b.md").write_text("# Second\n\nText.\n")
    (folder / "references.bib").write_text(
        "@misc{k, author={A, B}, title={T}, year={2000}, url={https://example.org}}\n")
    return folder


def test_titles_are_escaped_exactly_once_everywhere(tmp_path):
    site = check(paths_for(two_chapter_site(tmp_path / "content", "Q&A <b>bold</b> & `<i>`")))
    plain = "Q&amp;A bold &amp; &lt;i&gt;"  # the heading's text, escaped once
    first, second = site.files["01-a.html"].decode(), site.files["02-b.html"].decode()
    index, bib = site.files["index.html"].decode(), site.files["bibliography.html"].decode()
    assert f"<title>{plain} · S</title>" in first
    assert f'<a href="01-a.html"><span class="chapter-card-number">Chapter 1</span> {plain}</a>' in index
    assert f'<a class="prev" rel="prev" href="01-a.html"><span>Previous</span> {plain}</a>' in second
    assert f'<a href="01-a.html#ref-k" title="{plain}">chapter 1</a>' in bib
    assert "&amp;amp;" not in first + second + index + bib
    description = "A &#34;quoted&#34; &lt;desc&gt; &amp; more"  # site.toml is data: escaped in attributes too
    assert f'<meta name="description" content="{description}">' in index
    assert f'<p class="lede">{description}</p>' in index


# site.toml: (text, line, words); "{long}" is a 5,000-character file name
TOML_ERRORS = {
    "site is a number": ('site = 3\n[[chapters]]\nfile = "01-a.md"\n', 1, "site must be a table"),
    "title is a number": ('[site]\ntitle = 3\n[[chapters]]\nfile = "01-a.md"\n', 2, "needs a title"),
    "no title": ('[site]\nauthor = "A"\n[[chapters]]\nfile = "01-a.md"\n', 1, "needs a title"),
    "description is a number": ('[site]\ntitle = "T"\ndescription = 5\n[[chapters]]\nfile = "01-a.md"\n', 3,
                                "description must be a string, not a number"),
    "author is an array": ('[site]\ntitle = "T"\n\nauthor = ["x"]\n[[chapters]]\nfile = "01-a.md"\n', 4,
                           "author must be a string, not an array"),
    "offline is a string": ('[site]\ntitle = "T"\noffline = "no"\n[[chapters]]\nfile = "01-a.md"\n', 3,
                            "offline must be true or false, not a string"),
    "misspelt site key": ('[site]\ntitle = "T"\ndescripton = "D"\n[[chapters]]\nfile = "01-a.md"\n', 3,
                          "unknown key 'descripton' (did you mean 'description'?)"),
    "unknown top-level key": ('theme = "dark"\n[site]\ntitle = "T"\n[[chapters]]\nfile = "01-a.md"\n', 1,
                              "unknown key 'theme'"),
    "chapters is a number": ('chapters = 3\n[site]\ntitle = "T"\n', 1, "no chapters"),
    "chapter is a number": ('chapters = [3]\n[site]\ntitle = "T"\n', 1, "chapter 1 must be a table"),
    "file is a number": ('[site]\ntitle = "T"\n[[chapters]]\nfile = 3\n', 4, "file must name a .md file, not a number"),
    "misspelt chapter key": ('[site]\ntitle = "T"\n[[chapters]]\nfile = "01-a.md"\nfiel = "x"\n', 5,
                             "unknown key 'fiel' (did you mean 'file'?)"),
    "5,000-character name": ('[site]\ntitle = "T"\n[[chapters]]\nfile = "{long}.md"\n', 4,
                             "is 5003 characters long (at most 120)"),
    "name the file system refuses": ('[site]\ntitle = "T"\n[[chapters]]\nfile = "' + "\U0001F600" * 100 + '.md"\n', 4,
                                     "may use only letters A-Z and a-z, digits, '-' and '_'"),
    **{f"file name with {what}": ('[site]\ntitle = "T"\n[[chapters]]\nfile = "01-a.md"\n\n[[chapters]]\nfile = "'
                                  + name + '"\n', 7, "may use only letters A-Z and a-z, digits, '-' and '_'")
       for what, name in (("a scheme", "javascript:alert(1).md"), ("a quote", '02-\\"x.md'), ("a query", "02-a?b.md"),
                          ("a fragment", "02-a#b.md"), ("an ampersand", "02-a&b.md"), ("a space", "02 a.md"))},
    "missing file": ('[site]\ntitle = "T"\n[[chapters]]\nfile = "01-a.md"\n[[chapters]]\nfile = "02-gone.md"\n',
                     6, "chapter file '02-gone.md' not found"),
    "listed twice": ('[site]\ntitle = "T"\n[[chapters]]\nfile = "01-a.md"\n\n[[chapters]]\n  file = "01-a.md"\n',
                     7, "chapter file '01-a.md' is listed twice (first on line 4)"),
    "a folder": ('[site]\ntitle = "T"\n[[chapters]]\nfile = "../01-a.md"\n', 4, "without folders"),
    "NUL in the name": ('[site]\ntitle = "T"\n[[chapters]]\nfile = "01-a\\u0000.md"\n', 4,
                        "'01-a\\x00.md' has a control character in its name"),
}


@pytest.mark.parametrize("case", list(TOML_ERRORS))
def test_bad_site_toml_names_its_line(case, tmp_path):
    text, line, words = TOML_ERRORS[case]
    (tmp_path / "01-a.md").write_text("# A\n")
    (tmp_path / "site.toml").write_text(text.replace("{long}", "x" * 5000))
    with pytest.raises(BuildError) as err:
        load_site_config(tmp_path)
    message = str(err.value)
    assert re.match(rf"\S*site\.toml:{line}: ", message), message
    assert words in message, message
    assert len(message) < 300


def test_bad_site_toml_through_the_cli(tmp_path, capsys):
    content = one_chapter_site(tmp_path / "content", "# T\n")
    (content / "site.toml").write_text('site = 3\n[[chapters]]\nfile = "01-test.md"\n')
    assert cli.main(["check", "--content", str(content)]) == 1
    err = capsys.readouterr().err
    assert re.fullmatch(r"\S*site\.toml:1: site must be a table .*\n", err), err


def test_link_scan_is_linear_on_unclosed_tags():
    """200,000 unclosed '<a' tags (raw HTML passes them through), which a quadratic scan would not get
    through: a subprocess with a generous limit shows the scan ends, untimed."""
    code = ("from types import SimpleNamespace as N; from builder.links import check_links; "
            "html = '<div>' + '<a<a ' * 100000 + '</div>'; "
            "ch = N(url='01-a.html', html=html, source=N(lines=[]), entry=N(path='01-a.md')); "
            "check_links([ch], {'01-a.html'}); print('done')")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert out.stdout.strip() == "done", out.stderr


def test_misspelt_anchor_in_the_series_suggests_the_long_heading_id(content):
    path = content / "01-why-attention.md"
    text = path.read_text().split("\n")
    text[1:1] = ["", "See [the temperature](04-scores-to-weights.md#tempreture)."]
    path.write_text("\n".join(text))
    message = error_of(content)
    assert re.match(r"\S*01-why-attention\.md:3: broken link '04-scores-to-weights\.md#tempreture': "
                    r"'04-scores-to-weights\.md' has no '#tempreture' "
                    r"\(did you mean '#temperature-how-sure-the-softmax-is'\?\)$", message), message


TOML_LINES = st.sampled_from([
    "[site]", 'title = "T"', "title = 3", 'description = "D"', "author = [1]", "descripton = 1", "site = 3",
    "[[chapters]]", 'file = "01-a.md"', 'file = "02-b.md"', 'file = "../x.md"', "file = 3", 'file = "nope.md"',
    'file = "' + "x" * 300 + '.md"', "chapters = []", 'chapters = [{file = "01-a.md"}]', "chapters = [3]", "x = 1",
    "[chapters]", "[site.sub]", 'site.title = "T"', "[[site]]", 'file = "01-a\\u0000.md"', "", "# comment"])


@settings(max_examples=200, deadline=None)
@given(st.lists(TOML_LINES, max_size=10).map("\n".join))
def test_generated_site_toml_loads_or_fails_with_a_line(text):
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        (folder / "01-a.md").write_text("# A\n")
        (folder / "02-b.md").write_text("# B\n")
        (folder / "site.toml").write_text(text)
        try:
            config = load_site_config(folder)
        except BuildError as err:
            assert err.line is not None and 1 <= err.line <= text.count("\n") + 1, str(err)
            assert len(str(err)) < 400
            return
    assert config.title.strip() and config.chapters
