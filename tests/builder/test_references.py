"""Citations [@key] against content/references.bib: numbering, lists, the bibliography page, errors."""
from __future__ import annotations

import re

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from builder.build import check
from builder.cache import BuildCache
from builder.errors import BuildError, display_path
from builder.references import load
from tests.builder.helpers import one_chapter_site, paths_for
from tests.conftest import ROOT

BIB = """\
@article{alpha2001,
  author = {Alpha, Ann and Beta, Bob},
  title = {On Looking},
  journal = {Journal of Tests},
  year = {2001},
  doi = {10.1000/alpha},
}

@misc{gamma1999,
  author = {Gamma, Gil},
  title = {Notes on Weights},
  year = {1999},
  url = {https://example.org/gamma},
}
"""


def site_with(tmp_path, markdown: str, bib: str | None = BIB):
    content = one_chapter_site(tmp_path / "content", markdown)
    if bib is not None:
        (content / "references.bib").write_text(bib)
    return content


def chapter_html(site) -> str:
    return site.files["01-test.html"].decode()


def test_citations_are_numbered_by_first_use_and_link_to_the_chapter_list(tmp_path):
    site = check(paths_for(site_with(tmp_path, """\
        # T

        First [@gamma1999], then both [@alpha2001; @gamma1999], and `[@not-a-cite]` in code.
        """)))
    html = chapter_html(site)
    cites = re.findall(r'<span class="citation">(.*?)</span>', html)
    assert cites == ['[<a href="#ref-gamma1999" title="Gamma, 1999">1</a>]',
                     '[<a href="#ref-alpha2001" title="Alpha and Beta, 2001">2</a>, '
                     '<a href="#ref-gamma1999" title="Gamma, 1999">1</a>]']
    assert "<code>[@not-a-cite]</code>" in html
    items = re.findall(r'<li id="ref-(\w+)">(.*?)</li>', html, re.S)
    assert [key for key, _ in items] == ["gamma1999", "alpha2001"]
    assert 'href="https://example.org/gamma"' in items[0][1]
    assert 'href="https://doi.org/10.1000/alpha"' in items[1][1] and "Journal of Tests" in items[1][1]
    references = html[html.index('<section class="references"'):]
    references = references[:references.index("</section>")]
    assert references.count('href="bibliography.html"') == 1  # one link under the list, not one per work


def test_bibliography_page_lists_only_cited_works_with_the_chapters_citing_them(tmp_path):
    site = check(paths_for(site_with(tmp_path, "# T\n\nOnly one [@alpha2001].\n")))
    page = site.files["bibliography.html"].decode()
    ids = re.findall(r'<li id="(\w+)">', page)
    assert ids == ["alpha2001"]  # gamma1999 is cited by no chapter
    assert "Every work the series cites" in page
    assert '<a href="01-test.html#ref-alpha2001" title="T">chapter 1</a>' in page
    assert 'href="bibliography.html"' in site.files["index.html"].decode()
    assert site.warnings == [f"{display_path(tmp_path / 'content' / 'references.bib')}:9: warning: 'gamma1999' is cited by no chapter; "
                             "the bibliography leaves it out"]


def test_check_prints_uncited_works_as_warnings_not_errors(tmp_path, capsys):
    import build as cli

    content = site_with(tmp_path, "# T\n\nOnly one [@alpha2001].\n")
    assert cli.main(["check", "--content", str(content)]) == 0
    captured = capsys.readouterr()
    assert re.fullmatch(r"\S*references\.bib:9: warning: 'gamma1999' is cited by no chapter; "
                        r"the bibliography leaves it out\n", captured.err), captured.err
    assert captured.out.startswith("ok: ")


def test_no_bibliography_page_when_nothing_is_cited(tmp_path):
    site = check(paths_for(site_with(tmp_path, "# T\n\nNo citations.\n")))
    assert "bibliography.html" not in site.files
    assert "bibliography.html" not in site.files["index.html"].decode()
    assert "bibliography.html" not in chapter_html(site)
    assert len(site.warnings) == 2


def test_no_bibliography_without_a_bib_file(tmp_path):
    site = check(paths_for(site_with(tmp_path, "# T\n\nNo citations.\n", bib=None)))
    assert "bibliography.html" not in site.files
    assert 'class="references"' not in chapter_html(site)


def test_an_edited_bib_file_is_read_again(tmp_path):
    """The bibliography is kept in the build cache by its text (serve rebuilds on every save): an edit
    is never answered with what was kept, and neither is a file that has become malformed."""
    content, cache = site_with(tmp_path, "# One\n\nText.\n"), BuildCache()
    assert list(load(content, cache).entries) == ["alpha2001", "gamma1999"]
    (content / "references.bib").write_text(BIB.replace("gamma1999", "delta2002"))
    assert list(load(content, cache).entries) == ["alpha2001", "delta2002"]
    (content / "references.bib").write_text(BIB + "@misc{broken,\n")
    with pytest.raises(BuildError):
        load(content, cache)


def test_the_series_bibliography_has_every_planned_work_with_a_link():
    bib = load(ROOT / "content", BuildCache())
    planned = {"bahdanau2015", "vaswani2017", "clark2019", "levesque2012", "church1990", "elhage2021",
               "olsson2022", "brown2020", "dao2022", "jain2019", "wiegreffe2019", "kobayashi2020"}
    assert planned <= set(bib.entries)
    for ref in bib.entries.values():
        assert re.search(r'<a href="https://', ref.html), ref.key
    text = bib.path.read_text()
    for key, doi in {"jain2019": "10.18653/v1/N19-1357", "wiegreffe2019": "10.18653/v1/D19-1002",
                     "kobayashi2020": "10.18653/v1/2020.emnlp-main.574", "clark2019": "10.18653/v1/W19-4828"}.items():
        assert f"https://doi.org/{doi}" in bib.entries[key].html, key
    assert text.count("@") == len(bib.entries)  # no stray entries hidden in comments


CHAPTER_ERRORS = {
    "unknown key": ("Here [@alpha2002].", 3, "unknown citation key 'alpha2002'", "did you mean 'alpha2001'"),
    "empty": ("Here [@].", 3, "malformed citation '[@]'", "[@key1; @key2]"),
    "spaces in key": ("Here [@alpha 2001].", 3, "malformed citation", ""),
    "unclosed": ("Here [@alpha2001 and more", 3, "not closed", ""),
}


@pytest.mark.parametrize("case", list(CHAPTER_ERRORS))
def test_bad_citation_names_the_chapter_line(case, tmp_path):
    text, line, words, more = CHAPTER_ERRORS[case]
    content = site_with(tmp_path, f"# T\n\n{text}\n")
    with pytest.raises(BuildError) as err:
        check(paths_for(content))
    assert str(err.value).startswith(f"{content / '01-test.md'}:{line}: ") or \
        re.match(rf"\S*01-test\.md:{line}: ", str(err.value)), str(err.value)
    assert words in str(err.value) and more in str(err.value)


def test_an_unknown_citation_is_reported_before_any_figure_is_computed(tmp_path, monkeypatch):
    import builder.build

    def no_figures(*args):
        raise AssertionError("a figure was computed before the citations were checked")

    monkeypatch.setattr(builder.build, "compute_chapter", no_figures)
    content = site_with(tmp_path, "# T\n\n/// figure | softmax-temperature\n\nCap.\n///\n\nHere [@alpha2002].\n")
    with pytest.raises(BuildError, match=r"01-test\.md:8: unknown citation key 'alpha2002'"):
        check(paths_for(content))


def test_citation_without_a_bib_file(tmp_path):
    with pytest.raises(BuildError, match=r"01-test\.md:3: citation \[@x\] but the content has no references\.bib"):
        check(paths_for(site_with(tmp_path, "# T\n\nSee [@x].\n", bib=None)))


BIB_ERRORS = {
    "syntax": (BIB.replace("year = {2001},", "year {2001},"), 5, "BibTeX syntax error: '=' expected"),
    "missing comma": (BIB.replace("title = {On Looking},", "title = {On Looking}"), 4, "BibTeX syntax error"),
    "duplicate key": (BIB + "\n@misc{gamma1999, author={X, Y}, title={Z}, year={2000}, url={https://e.org}}\n",
                      16, "repeated bibliography entry"),
    "no year": (BIB.replace("  year = {1999},\n", ""), 9, "entry 'gamma1999' has no year"),
    "no author": (BIB.replace("  author = {Gamma, Gil},\n", ""), 9, "entry 'gamma1999' has no author"),
    "no link": (BIB.replace("  url = {https://example.org/gamma},\n", ""), 9, "neither a doi nor a url"),
    "article without journal": (BIB.replace("  journal = {Journal of Tests},\n", ""), 1, "cannot be formatted"),
}


@pytest.mark.parametrize("case", list(BIB_ERRORS))
def test_bad_bib_names_its_line(case, tmp_path):
    bib, line, words = BIB_ERRORS[case]
    content = site_with(tmp_path, "# T\n\nText.\n", bib=bib)
    with pytest.raises(BuildError) as err:
        check(paths_for(content))
    message = str(err.value)
    assert re.match(rf"\S*references\.bib:{line}: ", message), message
    assert words in message, message


def test_bad_bib_leaves_the_previous_site(tmp_path, capsys):
    import build as cli

    content = site_with(tmp_path, "# T\n\nSee [@alpha2001].\n")
    out = tmp_path / "dist"
    assert cli.main(["--content", str(content), "--out", str(out), "--no-pdf"]) == 0
    before = (out / "bibliography.html").read_bytes()
    (content / "references.bib").write_text(BIB.replace("year = {2001},", "year {2001},"))
    assert cli.main(["--content", str(content), "--out", str(out), "--no-pdf"]) == 1
    assert "references.bib:5: BibTeX syntax error" in capsys.readouterr().err
    assert (out / "bibliography.html").read_bytes() == before


ENTRY = "@misc{k,\n  author = {A, B},\n  title = {T},\n  year = {2000},\n  %s\n}\n"
LINK_ERRORS = {
    "quote in url": ('url = {https://x.org/" onmouseover="alert(1)}', 5, "holds a space, quote"),
    "javascript url": ("url = {javascript:alert(1)}", 5, "must start with http:// or https://"),
    "url without a host": ("url = {https://}", 5, "has no host"),
    "malformed url": ("url = {http://[::1/}", 5, "is malformed"),
    "relative url": ("url = {//example.org/x}", 5, "must start with http:// or https://"),
    "quote in doi": ('doi = {10.1000/x" onclick="y}', 5, "is not a DOI"),
    "doi as a link": ("doi = {https://doi.org/10.1000/x}", 5, "without 'https://doi.org/'"),
    "javascript doi": ("doi = {javascript:alert(1)}", 5, "is not a DOI"),
}


@pytest.mark.parametrize("case", list(LINK_ERRORS))
def test_unsafe_links_in_the_bib_name_their_field_line(case, tmp_path):
    field, line, words = LINK_ERRORS[case]
    content = site_with(tmp_path, "# T\n\nText.\n", bib=ENTRY % field)
    with pytest.raises(BuildError) as err:
        check(paths_for(content))
    message = str(err.value)
    assert re.match(rf"\S*references\.bib:{line}: entry 'k': ", message), message
    assert words in message, message


def test_bib_values_are_escaped_and_doi_links_encoded(tmp_path):
    bib = ENTRY.replace("{T}", "{<script>alert(1)</script> & \\\"quotes\\\"}") % "doi = {10.1000/a#b?c<d>}"
    site = check(paths_for(site_with(tmp_path, "# T\n\n[@k]\n", bib=bib)))
    html = chapter_html(site)
    assert "<script>alert" not in html and "&lt;script&gt;alert(1)&lt;/script&gt; &amp;" in html
    assert 'href="https://doi.org/10.1000/a%23b%3Fc%3Cd%3E">doi:10.1000/a#b?c&lt;d&gt;</a>' in html


def test_pybtex_hrefs_are_escaped():
    from builder.references import HTML

    assert HTML.format_href('https://e.org/"><script>', "x") == '<a href="https://e.org/&quot;&gt;&lt;script&gt;">x</a>'


ODD_BIB = {  # (bib, None for success or (line, words))
    "unbalanced braces": ("@misc{k, author={A, B}, title={T{, year={2000}, url={https://e.org}}\n", (1, "syntax error")),
    "@string macro": ('@string{foo = "Bar"}\n@misc{k, author={A, B}, title=foo, year={2000}, url={https://e.org}}\n', None),
    "undefined macro": ("@misc{k, author={A, B},\n title=foo, year={2000}, url={https://e.org}}\n", (2, "undefined string")),
    "unknown type, formatted as misc": ("@webpage{k, author={A, B}, title={T}, year={2000}, url={https://e.org}}\n", None),
    "crossref inherits": ("@inproceedings{k, author={A, B}, title={T}, crossref={p}, url={https://e.org}}\n"
                          "@proceedings{p, editor={E, F}, title={P}, booktitle={P}, year={2000}, url={https://e.org/p}}\n", None),
    "crossref to nothing": ("@misc{k, author={A, B}, title={T},\n crossref={nope}, year={2000}, url={https://e.org}}\n",
                            (2, "crossref 'nope' names no entry")),
    "huge field": ("@misc{k, author={A, B}, title={T}, year={2000}, url={https://e.org}, note={" + "x" * 200_000 + "}}\n", None),
    "missing key": ("\n@misc{author={A, B}, title={T}, year={2000}, url={https://e.org}}\n", (2, "syntax error")),
    "non-ASCII": ("@misc{kü, author={Ümlaut, Ä and 山田, 太郎}, title={Tß}, year={2000}, url={https://e.org}}\n", None),
    "brace in a name": ("@misc{k, author={{A, B} and C{, D}, title={T}, year={2000}, url={https://e.org}}\n", (2, "syntax error")),
    "empty author list": ("@misc{k, author={}, title={T}, year={2000}, url={https://e.org}}\n", (1, "has no author")),
    "an empty name": ("@misc{k,\n author={,}, title={T}, year={2000}, url={https://e.org}}\n", (2, "an empty name in author")),
    "too many commas in a name": ("\n\n@misc{k, author={A, B, C, D}, title={T}, year={2000}, url={https://e.org}}\n",
                                  (3, "Too many commas in 'A, B, C, D'")),
    "repeated field": ("\n@misc{k, author={A, B}, title={T}, title={U}, year={2000}, url={https://e.org}}\n",
                       (2, "duplicate title field")),
    "stray backslash": ("@misc{k, author={A, B}, title={T\\}, year={2000}, url={https://e.org}}\n", (1, "cannot be formatted")),
    "control character": ("@misc{k, author={A, B},\n title={T\x1b[31m}, year={2000}, url={https://e.org}}\n",
                          (2, "control character U+001B")),
}


@pytest.mark.parametrize("case", list(ODD_BIB))
def test_odd_bibtex_loads_or_names_its_line(case, tmp_path):
    bib, expected = ODD_BIB[case]
    (tmp_path / "references.bib").write_text(bib)
    if expected is None:
        assert load(tmp_path, BuildCache()).entries
        return
    line, words = expected
    with pytest.raises(BuildError) as err:
        load(tmp_path, BuildCache())
    assert err.value.line == line and words in err.value.message, str(err.value)
    assert len(str(err.value)) < 400


def test_crossref_fields_come_from_the_parent(tmp_path):
    (tmp_path / "references.bib").write_text(ODD_BIB["crossref inherits"][0])
    ref = load(tmp_path, BuildCache()).entries["k"]
    assert ref.short == "A, 2000" and "In F&nbsp;E, editor, <em>P</em>. 2000." in ref.html, ref.html


# Mostly well-formed entries with odd values, some broken ones: both paths must be clean.
TOKENS = st.sampled_from(["Alpha", "Beta", "Ümlaut", "山田", "{ICLR}", "\\'{e}", "{\\L}", "--", "&", "<b>", "\"",
                          "#", "%", "~", "$x$", " and ", "others", ", ", " ", "\\emph{x}", "\\url{javascript:x}"])
RARE = st.sampled_from(["{", "}", "\\", "\x1b", "@", "=", "\n", ",", "{{"])
VALUE = st.lists(TOKENS, max_size=6).map("".join)
LINK = st.sampled_from(["https://example.org/a?b=1&c=2", "http://example.org", "javascript:alert(1)", "https://",
                        "http://[::1/", "ftp://e.org", "10.1000/x", "https://e.org/\" x=\"", ""])
DOI = st.sampled_from(["10.1000/x", "10.48550/arXiv.1706.03762", "10.1000/a#b", "doi:10.1/x", "10.1000/a b", ""])
EXTRA = st.sampled_from(["journal", "booktitle", "publisher", "school", "note", "month", "pages", "editor", "crossref",
                         "x", "title", "year"])
ENTRY_TYPES = st.sampled_from(["misc"] * 6 + ["article", "book", "inproceedings", "online", "phdthesis", "weird",
                               "string", "comment", "preamble"])


@st.composite
def bibtex(draw):
    parts = []
    for i in range(draw(st.integers(0, 3))):
        fields = {"author": draw(VALUE), "title": draw(VALUE), "year": draw(st.sampled_from(["2000", "20x", ""])),
                  "url": draw(LINK), "doi": draw(DOI)}
        fields = {k: v for k, v in fields.items() if draw(st.integers(0, 9)) < 8 and not (k == "doi" and not v)}
        if fields and draw(st.integers(0, 7)) == 7:  # now and then one breaking character
            name = draw(st.sampled_from(sorted(fields)))
            fields[name] += draw(RARE)
        lines = [f"{k} = {{{v}}}" for k, v in fields.items()]
        lines += [draw(EXTRA) + " = " + draw(st.sampled_from(["{%s}", '"%s"'])) % draw(VALUE)
                  for _ in range(draw(st.integers(0, 2)))]
        key = draw(st.sampled_from([f"k{i}"] * 6 + [f"kü{i}", "K0", "p", "x\"y", "a b", ""]))
        opener, closer = draw(st.sampled_from([("{", "}")] * 6 + [("(", ")"), ("{", ""), ("{", "}}")]))
        parts.append(f"@{draw(ENTRY_TYPES)}{opener}{key},\n  " + ",\n  ".join(lines) + f"\n{closer}\n")
    return "".join(parts)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(bibtex())
def test_generated_bibtex_loads_or_fails_with_a_line(tmp_path_factory, text):
    folder = tmp_path_factory.mktemp("bib")
    (folder / "references.bib").write_text(text)
    try:
        bib = load(folder, BuildCache())
    except BuildError as err:
        assert err.line is not None and 1 <= err.line <= text.count("\n") + 1, str(err)
        assert len(err.message) < 400
        return
    for ref in bib.entries.values():
        assert re.fullmatch(r'.*<a href="https?://[^"<>\s]+">.*', ref.html, re.S), ref.html
