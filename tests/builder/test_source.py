from pathlib import Path

import pytest

from builder.errors import BuildError
from builder.source import scan, substitute

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
    text = "```\n/// figure | nope\n{= x.y =}\n```\n\nSee `{= not.this =}` and {= real.one :.2f =}.\n"
    s = scan(P, text, KNOWN)
    assert s.directives == []
    assert [(e.source, e.line) for e in s.expressions] == [("real.one :.2f", 6)]


def test_substitute_replaces_expressions_in_place():
    text = "a {= x.y =} b {= z.w =}\n"
    s = scan(P, text, KNOWN)
    values = {(1, s.expressions[0].start): "1", (1, s.expressions[1].start): "22"}
    assert substitute(s, values) == "a 1 b 22\n"


@pytest.mark.parametrize("text, line, words", [
    ("x\n/// figure | a\n\ncap\n", 2, "never closed"),
    ("x\n\n///\n", 3, "closes no open directive"),
    ("/// figuer | a\n///\n", 1, "unknown directive 'figuer'"),
    ("/// figure | a\n    x: [1, 2\n    y: 3\n///\n", 3, "bad YAML"),
    ("/// figure | a\n    - 1\n///\n", 2, "'name: value'"),
    ("text {= a.b\n", 1, "not closed"),
])
def test_errors_name_the_line(text, line, words):
    with pytest.raises(BuildError) as err:
        scan(P, text, KNOWN)
    assert err.value.line == line
    assert words in err.value.message
    assert str(err.value).startswith(f"ch.md:{line}: ")
