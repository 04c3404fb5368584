from pathlib import Path

import pytest

from builder.errors import BuildError
from builder.source import block_marks, prose, scan

P = Path("ch.md")
KNOWN = ("figure",)


def test_directive_with_options_and_lines():
    text = "# T\n\n/// figure | softmax-temperature\n    temperature: 2\n    steps: 5\n\nCaption\n///\n"
    s = scan(P, text, KNOWN)
    (use,) = s.directives
    assert (use.name, use.argument, use.line) == ("figure", "softmax-temperature", 3)
    assert use.options == {"temperature": 2, "steps": 5}
    assert use.option_lines == {"temperature": 4, "steps": 5}


def test_code_is_not_scanned():
    text = "```\n/// figure | nope\n{= x.y =}\n```\n\nSee `{= not.this =}` and {= softmax-temperature.facts.t_min :.2f =}.\n"
    s = scan(P, text, KNOWN)
    assert s.directives == []
    assert [(e.expression.name, e.expression.keys, e.expression.fmt, e.line) for e in s.expressions] == [
        ("softmax-temperature", ("facts", "t_min"), ".2f", 6)]


def test_an_expression_is_read_where_it_is_found():
    with pytest.raises(BuildError, match=r"ch.md:3: inline expression names unknown figure 'nope'"):
        scan(P, "# T\n\nSee {= nope.facts.x =}.\n", KNOWN)


def test_prose_has_the_values_in_place_and_a_mark_line_for_each_directive_line():
    text = ("a {= softmax-temperature.facts.t_min =} b {= word-map.facts.n_words =}\n\n"
            "/// figure | softmax-temperature\n    temperature: 2\n\nCaption\n///\nafter\n")
    s = scan(P, text, KNOWN)
    values = {(1, s.expressions[0].start): "1", (1, s.expressions[1].start): "22"}
    out, marks = prose(s, values)
    lines = out.split("\n")
    assert lines[0] == "a 1 b 22"
    assert {lines[i] for i in marks} == {""}  # written in after Python-Markdown strips STX and ETX
    assert [marks[i] for i in sorted(marks)] == list(block_marks(0))
    assert lines[min(marks) + 2:max(marks) - 1] == ["", "Caption"] and lines[-2] == "after"


def test_a_directive_after_a_quote_or_list_marker_is_refused_at_its_line():
    for text in ("x\n\n> /// figure | a\n> ///\n", "x\n\n- /// figure | a\n///\n"):
        with pytest.raises(BuildError, match=r"ch.md:3: figure '///' line after a quote's '>' or a list marker"):
            scan(P, text, KNOWN)


def test_a_directive_indented_under_a_paragraph_is_refused_at_its_line():
    """Markdown reads an indented line right after prose as more of the paragraph, not as code."""
    for text in ("# T\n\nSome prose.\n        /// figure | a\n", "x\ny\n    /// figure | a\n\nC\n///\n"):
        with pytest.raises(BuildError, match=r"ch.md:[34]: this figure '///' line is indented under a paragraph"):
            scan(P, text, KNOWN)
    for text in ("# T\n        /// figure | a\n", "x\n\n    /// figure | a\n", "    code\n    /// figure | a\n"):
        assert scan(P, text, KNOWN).directives == []  # indented code, shown as it is


@pytest.mark.parametrize("text, line, words", [
    ("x\n/// figure | a\n\ncap\n", 2, "never closed"),
    ("x\n\n///\n", 3, "closes no open directive"),
    ("/// figuer | a\n///\n", 1, "unknown directive 'figuer'"),
    ("/// figure | a\n    x: [1, 2\n    y: 3\n///\n", 2, "the '[' opened here is not closed: end it with ']'"),
    ("/// figure | a\n    - 1\n///\n", 2, "'name: value'"),
    ("text {= a.b\n", 1, "not closed by '=}' on the same line: end it with '=}'"),
])
def test_errors_name_the_line(text, line, words):
    with pytest.raises(BuildError) as err:
        scan(P, text, KNOWN)
    assert err.value.line == line
    assert words in err.value.message
    assert str(err.value).startswith(f"ch.md:{line}:")


@pytest.mark.parametrize("text, line, words", [
    ("# T\n\n```python\ncode\n", 3, "code fence '```' is never closed"),
    ("# T\n\n~~~~\ncode\n~~~\n", 3, "code fence '~~~~' is never closed"),  # Markdown closes with the same fence only
    ("# T\n\ntext {= word-map.facts.n_words =} and {= c.d\n", 3, "'{=' is not closed"),
    ("# T\n\nSee [@a] and [@b\n", 3, "'[@' is not closed"),
    ("# T\n\n" + "- " * 60 + "x\n", 3, "nested 60 deep"),
    ("# T\n\n" + "> " * 51 + "x\n", 3, "nested 51 deep"),
    ("# T\n\n" + "[" * 3000 + "\n", 3, "too many unclosed or nested '['"),
    ("# T\n\na\n" + "[^" * 2000 + "\n", 4, "too many unclosed or nested '['"),
    ("/// figure | a\n  temperature: 2\n\nCap.\n///\n", 2, "options must be indented by four spaces"),
    ("/// figure | a\n    steps: 5\n   temperature: 2\n///\n", 3, "options must be indented by four spaces"),
    ("x {= a.b :" + "1" * 400 + " =}\n", 1, "at most 300)"),
])
def test_mistakes_that_used_to_hang_or_pass_are_errors_at_their_line(text, line, words):
    with pytest.raises(BuildError) as err:
        scan(P, text, KNOWN)
    assert err.value.line == line, str(err.value)
    assert words in err.value.message
    assert len(err.value.message) < 250  # never the whole input


def test_fences_are_those_python_markdown_reads():
    text = "# T\n\n  ```\n{= word-map.facts.n_words =}\n  ```\n\n```\n{= c.d =}\n````\n```\n"
    s = scan(P, text, KNOWN)  # an indented fence is no fence to Markdown; '````' does not close '```'
    assert [(e.expression.name, e.line) for e in s.expressions] == [("word-map", 4)]


def test_balanced_and_escaped_brackets_pass():
    text = "# T\n\n" + "[a](b) \\[ [c] " * 100 + "\n\n" + "[" * 50 + "\n"
    assert scan(P, text, KNOWN).directives == []


QUIZ = """# T

/// quiz | q1
    choices:
      a: One.
      b: Two.
    answer: a
    explain:
      a: Right.
      b: Wrong.

Question?
///
"""


@pytest.mark.parametrize("slip, line, words", [
    (("      b: Two.", "     b: Two."), 6, "indented 5 spaces, which lines up with no option above it (they are at 6 "
                                          "or 4 spaces): give options at one level the same indentation"),
    (("    answer: a", "     answer: a"), 7, "indented 5 spaces, which lines up with no option above it"),
    (("      b: Two.", "       b: Two."), 6, "indented 7 spaces, more than the line above (6), which already has its "
                                            "value: line it up with the option it stands beside"),
    (("      a: Right.", "      a: Right: one."), 9, "the value of 'a' has ': ' in it, which YAML reads as a new "
                                                     "option: put the value in quotes"),
    (("      b: Two.", "      b Two."), 6, "this line has no ':' after a name: write 'name: value'"),
    (("      b: Two.", "      b: 'Two."), 6, "the quoted text opened here is not closed"),
    (("      b: Two.", "      b:\tTwo."), 6, "a tab, where options take spaces only: replace it with spaces"),
    (("    answer: a", "\tanswer: a"), 7, "a tab in this line's indentation: indent options with spaces"),
    (("      b: Two.", "    \tb: Two."), 6, "a tab in this line's indentation"),
    (("      a: Right.\n      b: Wrong.", "    a: Right.\n    b: Wrong."), 9,
     "'a:' lines up with 'explain:' above it, which then holds nothing: indent what belongs under 'explain:' two "
     "spaces more than it"),
    (("    answer: a", "    answer: a\n    - b"), 8,
     "this line mixes list items ('- ') and 'name: value' lines at one level"),
])
def test_yaml_mistakes_are_one_line_in_an_authors_words_at_the_line_at_fault(slip, line, words):
    text = QUIZ.replace(*slip)
    assert text != QUIZ
    with pytest.raises(BuildError) as err:
        scan(P, text, ("quiz",))
    assert (err.value.line, "\n" in err.value.message) == (line, False), str(err.value)
    assert words in err.value.message, str(err.value)


def test_an_option_error_points_at_the_option_not_at_a_name_deeper_down():
    (use,) = scan(P, QUIZ.replace("    answer: a", "    a: x\n    answer: a"), ("quiz",)).directives
    assert use.option_lines == {"choices": 4, "a": 7, "answer": 8, "explain": 9}


@pytest.mark.parametrize("text, column, words", [
    ("See {= word-map{keys: 3}.facts.n_words and {= word-map{keys: 4}.facts.n_words =}.\n", 5,
     "inline expression '{= word-map{keys: 3}.facts.n_words and' is not closed by '=}' before the next '{='"),
    ("See {= word-map.facts.n_words :.0f and {= word-map.facts.n_words =}.\n", 5, "is not closed by '=}' before"),
    ("See {= word-map.facts.n_words =} and {= word-map.facts.n_words.\n", 38, "'{=' is not closed by '=}' on the same line"),
])
def test_an_unclosed_expression_is_named_where_it_opens(text, column, words):
    with pytest.raises(BuildError) as err:
        scan(P, text, KNOWN)
    assert (err.value.line, err.value.column) == (1, column) and words in err.value.message, str(err.value)


def test_two_space_caption_after_a_blank_line_stays_caption():
    text = "/// figure | a\n    steps: 5\n\n  Note: a caption.\n///\n"
    (use,) = scan(P, text, KNOWN).directives
    assert use.options == {"steps": 5}


@pytest.mark.parametrize("options, line, words", [
    ("    a: &x [1, 2]\n    b: *x\n", 2, "anchors (&x) are not allowed"),
    ("    b: *x\n", 2, "bad YAML"),  # an alias without anchor
    ("    scores: " + "[" * 1000 + "]" * 1000 + "\n", 2, "nested more than 20 deep"),
    ("    steps: 1" + "0" * 400 + "\n", 2, "number too large (401 characters"),
    ("    steps: 1" + "0" * 5000 + "\n", 2, "number too large"),  # beyond int('...') limits
    ("    steps: 5\n    temperature: 2001-01-01\n", 3, "dates are not option values"),
    ("    steps: 5\n    1: 2\n", 3, "option names must be words"),
    ("    steps: !!binary aGk=\n", 2, "binary values"),
    ("    steps: !!set {a}\n", 2, "sets"),
])
def test_options_yaml_refuses_what_options_never_need(options, line, words):
    text = "/// figure | a\n" + options + "\nCap.\n///\n"
    with pytest.raises(BuildError) as err:
        scan(P, text, KNOWN)
    assert err.value.line == line and words in err.value.message, str(err.value)
    assert len(err.value.message) < 250


def test_billion_laughs_is_refused_at_once():
    laughs = ["    a: &a [x, x, x, x, x, x, x, x, x]"] + [
        f"    {c}: &{c} [{', '.join(['*' + p] * 9)}]" for p, c in zip("abcdefgh", "bcdefghi")]
    text = "/// figure | a\n" + "\n".join(laughs) + "\n\nCap.\n///\n"
    assert len(text.encode()) < 700
    with pytest.raises(BuildError, match="anchors"):
        scan(P, text, KNOWN)


def test_line_numbers_count_only_newlines():
    # U+2028, U+2029 and U+0085 are split by str.splitlines but not by Python-Markdown
    text = "# T\n\na\u2028b\u2029c\n\n{= word-map.facts.n_words =}\n"
    s = scan(P, text, KNOWN)
    assert [e.line for e in s.expressions] == [5]


def test_scan_counts_are_linear():
    """Work grows with the input, not its square: a long line and 100 KB of openers scan in one pass."""
    import time
    sizes = []
    for n in (20_000, 200_000):
        text = "# T\n\n" + "a" * (10 * n) + "[@" * n + "{=" * n + "\n"
        t0 = time.perf_counter()
        with pytest.raises(BuildError, match="not closed"):
            scan(P, text, KNOWN)
        sizes.append(time.perf_counter() - t0)
    # a generous factor: 10x the input within 40x the time (quadratic would be 100x)
    assert sizes[1] < 40 * sizes[0] + 0.5, sizes


def test_huge_option_blocks_are_refused_before_yaml_reads_them():
    text = "/// figure | a\n" + "    x: [1, 2]\n" * 1000 + "\nCap.\n///\n"
    with pytest.raises(BuildError, match=r"options of 13999 characters \(at most 10000\)") as err:
        scan(P, text, KNOWN)
    assert err.value.line == 2


@pytest.mark.parametrize("line, words", [
    ("/// figure | a" + " " * 100_000 + "b", "'{=' is not closed"),
    ("> /// figure | a" + " " * 100_000 + "b", "after a quote's '>'"),
    ("- " * 40 + "/// figure" + " " * 100_000 + "| b", "after a quote's '>'"),
    ("> " * 40 + "///" + " " * 100_000 + "b", "more than Markdown can read"),
])
def test_long_directive_lines_get_their_usual_error(line, words):
    """The header patterns are linear: a quadratic one would take minutes on these lines."""
    with pytest.raises(BuildError, match=words):
        scan(P, "# T\n\n" + line + "\n\n{= c.d\n", KNOWN)


def test_a_directive_argument_is_stripped():
    (use,) = scan(P, "/// figure |   softmax-bars   \n///\n", KNOWN).directives
    assert use.argument == "softmax-bars"
