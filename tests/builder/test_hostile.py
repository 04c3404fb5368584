"""Hostile chapters through gather_chapter: a clean `path:line` error or a page, never a traceback
or a hang. The 1 MB inputs run in a subprocess with a generous time limit (not a timed test:
before the scan was made linear and bounded, each of them ran for minutes or hours)."""
from __future__ import annotations

import json
import subprocess
import sys
import textwrap

import pytest

from builder.cache import BuildCache
from builder.build import gather_chapter
from builder.errors import BuildError
from builder.site_config import load_site_config
from tests.builder.helpers import one_chapter_site
from tests.conftest import ROOT


def gather(tmp_path, markdown: str):
    folder = one_chapter_site(tmp_path / "content", markdown)
    return gather_chapter(load_site_config(folder).chapters[0], BuildCache())


@pytest.mark.parametrize("options, line, words", [
    ("    scores: [1, 2, 3]\n    labels: [cat, sat]\n", 5, "option 'labels' needs one label per score"),
    ("    t_min: 0.9\n    t_max: 1.0\n    steps: 3\n", 4, "option 't_min'"),
])
def test_options_the_model_refuses_point_at_the_option(tmp_path, options, line, words):
    markdown = "# T\n\n/// figure | softmax-temperature\n" + options + "\nCaption.\n///\n"
    if "t_min: 0.9" in options:  # valid alone; the model's own check refuses t_min >= t_max
        markdown = markdown.replace("t_min: 0.9", "t_min: 1.0")
    with pytest.raises(BuildError) as err:
        gather(tmp_path, markdown)
    assert err.value.line == line and words in err.value.message, str(err.value)


def test_deep_lists_and_quotes_are_errors_not_recursion(tmp_path):
    for markdown in ("# T\n\n" + "- " * 5000 + "x\n", "# T\n\n" + ">" * 5000 + " x\n",
                     "# T\n\n" + "".join("    " * k + "- a\n" for k in range(300))):
        with pytest.raises(BuildError, match=r"nested \d+ deep \(at most 50\)"):
            gather(tmp_path, markdown)


MB = 1_000_000
PATHOLOGICAL = {
    "unclosed fences": "```a\n" * (MB // 5),
    "closed fences": "```\nx\n```\n\n" * (MB // 12),
    "unclosed {=": "{=" * (MB // 2),
    "unclosed [@": "[@" * (MB // 2),
    "unclosed [": "[" * MB,
    "unclosed [^": "[^" * (MB // 2),
    "nested lists": "- " * (MB // 2) + "x",
    "quote markers": ">" * MB + " x",
    "backticks": "`` `" * (MB // 4),
    "shrinking backtick runs": "".join("`" * k + "a" for k in range(1400, 0, -1)),
    "emphasis": "*a" * (MB // 2),
    "unclosed links": "[a](b" * (MB // 5),
    "line breaks": "a  \n" * (MB // 4),
    "list items": "- a\n" * (MB // 4),
    "option lines": "/// figure | softmax-temperature\n" + "    x: [1, 2]\n" * (MB // 14) + "\nCap.\n///",
    "format width": "{= softmax-temperature.facts.t_min :300000000 =}\n\n" * 10,
    "paragraphs": "Some words, and [a link](https://example.org) too.\n\n" * (MB // 52),
    "notes": "".join(f"a[^n{i}]\n\n[^n{i}]: b\n\n" for i in range(MB // 30)),
    "ordinary text": ("Some words, and [a link](https://example.org) too. " * 20 + "\n\n") * 1100,
}
RUNNER = textwrap.dedent("""
    import json, sys, tempfile, time
    from pathlib import Path
    sys.path.insert(0, sys.argv[1])
    from builder.build import gather_chapter
    from builder.cache import BuildCache
    from builder.errors import BuildError
    from builder.site_config import load_site_config
    from tests.builder.helpers import one_chapter_site
    cases, out = json.loads(sys.stdin.read()), {}
    for name, body in cases.items():
        folder = one_chapter_site(Path(tempfile.mkdtemp()) / "content", "# T\\n\\n" + body + "\\n")
        (folder / "01-test.md").write_text("# T\\n\\n" + body + "\\n")
        try:
            gather_chapter(load_site_config(folder).chapters[0], BuildCache())
            out[name] = ["page", ""]
        except BuildError as err:
            out[name] = ["error", str(err)]
    print(json.dumps(out))
""")


@pytest.fixture(scope="module")
def pathological_results():
    proc = subprocess.run([sys.executable, "-c", RUNNER, str(ROOT)], input=json.dumps(PATHOLOGICAL),
                          capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr[-2000:]
    return json.loads(proc.stdout)


@pytest.mark.parametrize("name", PATHOLOGICAL)
def test_a_megabyte_of_pathological_input_ends_quickly_in_a_clean_outcome(pathological_results, name):
    outcome, message = pathological_results[name]
    if name == "ordinary text":  # 1.1 MB in 1,100 paragraphs of 1 KB, far past any chapter: it builds
        assert outcome == "page", message
        return
    assert outcome == "error" and "01-test.md:" in message, message
    assert len(message) < 400  # the input is never echoed whole


def test_an_option_at_the_left_margin_is_not_taken_for_caption(tmp_path):
    with pytest.raises(BuildError) as err:
        gather(tmp_path, "# T\n\n/// figure | softmax-temperature\ntemperature: 2.0\n\nCaption.\n///\n")
    assert err.value.line == 4 and "indented by four spaces" in err.value.message


def test_a_caption_that_starts_like_a_label_is_still_a_caption(tmp_path):
    chapter = gather(tmp_path, "# T\n\n/// figure | softmax-temperature\nNote: the caption.\n///\n")
    assert "Note: the caption." in chapter.html


QUIZ = "/// quiz | q\n    choices:\n      a: {a}\n      b: two\n    answer: a\n    explain:\n      a: {why}\n      b: wrong\n\nAsk?\n///\n"
BARS = "/// figure | softmax-bars\n    {option}\n\nCaption.\n///\n"
ONE_LINE = {  # input that raised a traceback: each is now one error at its line
    "float tag with a word": (BARS.format(option="scores: !!float x"), 4, "'x' is not a value of float"),
    "int tag in a list": (BARS.format(option="scores: [!!int x, 1, 2, 3, 4]"), 4, "'x' is not a value of int"),
    "bool tag with a word": (BARS.format(option="scores: !!bool maybe"), 4, "'maybe' is not a value of bool"),
    "map tag on a word": (BARS.format(option="scores: !!map x"), 4, "'x' is not a value of map"),
    "noncharacter in a label": (BARS.format(option='labels: ["\\ufffe", b, c, d, e]'), 4, "noncharacter (U+FFFE)"),
    "int tag in an expression": ("A {= softmax-temperature{steps: !!int x}.facts.t_min =}.\n", 3,
                                 "'x' is not a value of int"),
    "surrogate in a choice": (QUIZ.format(a='"\\ud800"', why="right"), 5, "lone surrogate (U+D800)"),
    "surrogate in an explanation": (QUIZ.format(a="one", why='"x\\udfff"'), 9, "lone surrogate (U+DFFF)"),
    "surrogate in a label": (BARS.format(option='labels: ["\\ud800", b, c, d, e]'), 4, "lone surrogate"),
    "surrogate in expression options": ('A {= softmax-bars{labels: ["\\ud800", b, c, d, e]}.labels.0 =}.\n', 3,
                                        "lone surrogate"),
    "escape sequence in a label": (BARS.format(option='labels: ["\\e[31m", b, c, d, e]'), 4,
                                   "control character (U+001B)"),
    "NUL in a label": (BARS.format(option='labels: ["\\0", b, c, d, e]'), 4, "control character (U+0000)"),
    "link to script in a choice": (QUIZ.format(a='"[x](javascript:alert(1))"', why="right"), 4, "uses 'javascript:'"),
    "link to script in an explanation": (QUIZ.format(a="one", why='"[x](JavaScript:alert(1))"'), 8,
                                         "uses 'javascript:'"),
    "href to script in math": ("$\\href{javascript:alert(1)}{x}$ here.\n", 3, "\\href to 'javascript:'"),
}


@pytest.mark.parametrize("case", ONE_LINE, ids=list(ONE_LINE))
def test_hostile_values_are_one_error_at_their_line(tmp_path, case):
    body, line, words = ONE_LINE[case]
    with pytest.raises(BuildError) as err:
        gather(tmp_path, "# T\n\n" + body)
    assert err.value.line == line and words in err.value.message, str(err.value)


def test_what_an_expression_writes_is_text(tmp_path):
    html = gather(tmp_path, '# T\n\nA {= softmax-bars{labels: ["<img src=x onerror=alert(1)>", "*b*", "[c](javascript:x)",'
                            ' "$d$", e]}.labels.0 =} {= softmax-bars{labels: [a, "*b*", "[c](javascript:x)", "$d$", e]}'
                            '.labels.1 =} {= softmax-bars{labels: [a, b, "[c](javascript:x)", "$d$", e]}.labels.2 =}.\n').html
    assert "<img" not in html and "<math" not in html
    assert "&lt;img src=x onerror=alert(1)&gt; &#42;b&#42; &#91;c&#93;(javascript:x)." in html, html


def test_labels_are_text_in_a_well_formed_fallback(tmp_path):
    import xml.etree.ElementTree as etree

    fig = gather(tmp_path, "# T\n\n" + BARS.format(option='labels: ["$\\\\nope$", "<b>&amp;", "]]>", "\\u2028", e]')).figures[0]
    texts = "".join(etree.fromstring(fig.svg).itertext())
    assert "$\\nope$" in texts and "<b>&amp;" in texts and "]]>" in texts
