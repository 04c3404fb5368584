"""Bad inputs: exit 1, `path:line: message`, no traceback, and the previous output untouched."""
import re
import shutil
import subprocess
import sys

import pytest

import build as cli
from tests.conftest import ROOT, drafting

CHAPTER = "04-scores-to-weights.md"


@pytest.fixture(autouse=True)
def _drafting(shared_figure_cache):
    """These builds are about chapter 4's text: chapter 14's model is not trained again for it."""
    with drafting(shared_figure_cache):
        yield


@pytest.fixture(scope="module")
def built_once(tmp_path_factory):
    """The series as built from content/, once for the module."""
    out = tmp_path_factory.mktemp("built") / "dist"
    assert cli.main(["--content", str(ROOT / "content"), "--out", str(out), "--no-pdf"]) == 0
    return out


@pytest.fixture
def built(built_once, tmp_path):
    """A private copy of that output: the previous build, which a failed build must leave untouched."""
    return shutil.copytree(built_once, tmp_path / "dist", symlinks=True)


def snapshot(folder):
    return {p.relative_to(folder): p.read_bytes() for p in folder.rglob("*") if p.is_file()}


def insert_after_title(path, block):
    lines = path.read_text().splitlines(keepends=True)
    lines[1:1] = [block]
    path.write_text("".join(lines))


CASES = {
    "unknown figure": ("\n/// figure | no-such-figure\n\nCaption\n///\n", 3, "unknown figure 'no-such-figure'"),
    "misspelt figure": ("\n/// figure | softmax-temprature\n\nCaption\n///\n", 3,
                        "unknown figure 'softmax-temprature' (did you mean 'softmax-temperature'?)"),
    "unknown option": ("\n/// figure | softmax-temperature\n    temprature: 2\n\nC\n///\n", 4,
                       "unknown option 'temprature' (did you mean 'temperature'?)"),
    "option nothing like one": ("\n/// figure | softmax-temperature\n    qqq: 2\n\nC\n///\n", 4,
                                "unknown option 'qqq' (allowed: scores, labels, temperature, t_min, t_max, steps, layout)"),
    "mistyped option": ("\n/// figure | scaling-experiment\n    keys: eight\n\nC\n///\n", 4, "'keys' must be a number"),
    "out-of-range option": ("\n/// figure | scaling-experiment\n\n    keys: 1\n\nC\n///\n", None, None),
    "bad yaml": ("\n/// figure | softmax-temperature\n    scores: [1, 2\n    temperature: 1\n\nC\n///\n", 4,
                 "the '[' opened here is not closed: end it with ']'"),
    "bad expression": ("\nWe quote {= scaling-experiment.by_d.3.scaled :.2f =} here.\n", 3, "has no '3'"),
    "unclosed block": ("\n/// figure | softmax-temperature\n\nCaption never closed\n", 3, "never closed"),
    "unknown directive": ("\n/// figur | softmax-temperature\n///\n", 3, "unknown directive"),
    "figure in a quote": ("\n> /// figure | softmax-temperature\n>\n> C\n> ///\n", 3, "line after a quote's '>'"),
    "malformed block left as text": ("\n- item\n\n    /// figure | softmax-temperature\n\n    Caption\n    ///\n", None, None),
}


@pytest.mark.parametrize("case", list(CASES))
def test_bad_chapter_input(case, content, built, capsys):
    block, line, words = CASES[case]
    before = snapshot(built)
    insert_after_title(content / CHAPTER, block)
    code = cli.main(["--content", str(content), "--out", str(built), "--no-pdf"])
    err = capsys.readouterr().err
    if line is None:
        # Cases whose line depends on how Markdown nests them: they must either fail cleanly
        # with a path:line message, or build without leaving directive text on the page.
        if code == 0:
            html = (built / CHAPTER.replace(".md", ".html")).read_text()
            assert "/// figure" not in html
            return
        assert re.match(rf".*{re.escape(CHAPTER)}:\d+: ", err), err
    else:
        assert code == 1
        assert f"{CHAPTER}:{line}: " in err, err
        assert words in err
    assert "Traceback" not in err
    assert snapshot(built) == before


def test_missing_chapter_file_in_site_toml(content, built, capsys):
    before = snapshot(built)
    (content / "site.toml").write_text((content / "site.toml").read_text() + '\n[[chapters]]\nfile = "99-gone.md"\n')
    assert cli.main(["--content", str(content), "--out", str(built), "--no-pdf"]) == 1
    err = capsys.readouterr().err
    line = (content / "site.toml").read_text().splitlines().index('file = "99-gone.md"') + 1
    assert f"site.toml:{line}: chapter file '99-gone.md' not found" in err
    assert snapshot(built) == before


def test_bad_toml(content, built, capsys):
    (content / "site.toml").write_text('[site]\ntitle = "x\n')
    assert cli.main(["--content", str(content), "--out", str(built), "--no-pdf"]) == 1
    assert re.search(r"site\.toml:2: invalid TOML", capsys.readouterr().err)


def test_chapter_without_title(content, built, capsys):
    path = content / CHAPTER
    path.write_text(path.read_text().replace("# From scores to weights", "From scores to weights", 1))
    assert cli.main(["--content", str(content), "--out", str(built), "--no-pdf"]) == 1
    assert f"{CHAPTER}:1: a chapter must start with a '# Title' heading" in capsys.readouterr().err


def test_cli_exit_code_and_message_in_a_real_process(content, tmp_path):
    insert_after_title(content / CHAPTER, "\n/// figure | nope\n///\n")
    out = subprocess.run([sys.executable, str(ROOT / "build.py"), "check", "--content", str(content)],
                         capture_output=True, text=True, cwd=tmp_path)
    assert out.returncode == 1
    assert re.fullmatch(rf"\S*{re.escape(CHAPTER)}:3: unknown figure 'nope' \(known: .*\)\n", out.stderr)


LINK_CASES = {
    "missing page": ("See [the next part](05-nowhere.md).", "broken link '05-nowhere.md'", "site.toml"),
    "missing file": ("![a chart](figures/none.svg)", "broken link 'figures/none.svg'", "no such page"),
    "missing anchor": ("Back to [the top](#no-such-heading).", "has no '#no-such-heading'", "broken link"),
    "outside the site": ("[up](../README.md)", "broken link '../README.md'", "no such page"),
}


@pytest.mark.parametrize("case", list(LINK_CASES))
def test_broken_links(case, content, built, capsys):
    text, words, more = LINK_CASES[case]
    before = snapshot(built)
    insert_after_title(content / CHAPTER, f"\n{text}\n")
    assert cli.main(["--content", str(content), "--out", str(built), "--no-pdf"]) == 1
    err = capsys.readouterr().err
    assert f"{CHAPTER}:3: " in err and words in err and more in err, err
    assert snapshot(built) == before


def build_page_with(block, content, built) -> str:
    """Insert `block` after the chapter's title, build (which must succeed), return the page."""
    insert_after_title(content / CHAPTER, block)
    assert cli.main(["--content", str(content), "--out", str(built), "--no-pdf"]) == 0
    return (built / CHAPTER.replace(".md", ".html")).read_text()


def test_good_links_are_kept_and_md_links_point_at_pages(content, built):
    html = build_page_with("\n[this](04-scores-to-weights.md#why-divide-by-a-square-root), [home](index.html), "
                           "[web](https://example.org/x.md), [here](#temperature-how-sure-the-softmax-is)\n", content, built)
    assert 'href="04-scores-to-weights.html#why-divide-by-a-square-root"' in html
    assert 'href="https://example.org/x.md"' in html and 'href="index.html"' in html


@pytest.mark.parametrize("where", ["root", "content", "inside-content", "foreign"])
def test_refuses_an_output_folder_it_must_not_replace(where, content, tmp_path, capsys, monkeypatch):
    import builder.build

    monkeypatch.setattr(builder.build, "gather", lambda *a, **k: pytest.fail("the series was built before the refusal"))
    foreign = tmp_path / "notes"
    foreign.mkdir()
    (foreign / "keep.txt").write_text("mine")
    out = {"root": tmp_path, "content": content, "inside-content": content / "site", "foreign": foreign}[where]
    before = snapshot(tmp_path)
    assert cli.main(["--content", str(content), "--out", str(out), "--no-pdf"]) == 1
    assert "refusing to" in capsys.readouterr().err
    assert snapshot(tmp_path) == before


def test_a_chapter_that_is_not_utf8(content, built, capsys):
    path = content / CHAPTER
    path.write_bytes(path.read_bytes().replace(b"# From scores to weights", b"# From scores to weights\n\nCaf\xe9", 1))
    assert cli.main(["--content", str(content), "--out", str(built), "--no-pdf"]) == 1
    assert f"{CHAPTER}:3: not UTF-8" in capsys.readouterr().err


def test_an_indented_figure_is_code_but_one_in_a_list_item_is_a_figure(content, built):
    html = build_page_with("\n    /// figure | not-a-figure\n    ///\n\n- A list item\n\n"
                           "    /// figure | scaling-experiment\n        keys: 2\n\n    In a list.\n    ///\n", content, built)
    assert "<pre><code>/// figure | not-a-figure\n///\n</code></pre>" in html
    assert html.count('data-figure="scaling-experiment"') == 2
    assert "Figure 4.1" in html and "Figure 4.3" in html
