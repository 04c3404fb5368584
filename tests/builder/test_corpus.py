"""The corpus: the series' prose as one text, without code, options, expressions, maths or markup."""
from __future__ import annotations

import textwrap

import pytest

from builder.corpus import Corpus, read_corpus
from builder.site_config import load_site_config
from tests.conftest import ROOT

CHAPTER = """\
# The *first* chapter

A [linked word](https://example.org) and **bold** text, a `code_span()` here, a value of
{= softmax-bars.facts.e :.3f =} dropped, maths $e^{s_i}$ dropped, a price of \\$5 kept,
Adam [@kingma2015], a note[^n] and a <kbd>key</kbd> pressed.

Keys $k_1$, $k_2$, {= softmax-bars.facts.e :.1f =} listed, in this head, ($x_1$).

```python
def fenced(): return "FENCED"
```

    indented_code = "INDENTED"

$$
w_i = \\frac{e^{s_i}}{Z}
$$

- first item
- second item ($x_1$)

/// figure | softmax-bars
    temperature: 2
    label: OPTION_TEXT

The caption stays, with $T$ and {= softmax-bars.facts.e :.1f =} gone.
///

/// quiz | q
    choices:
      a: CHOICE_A
      b: CHOICE_B
    answer: a

Which *question* stays?
///

[^n]: The note's text stays.
"""

SECOND = """\
# Second

Its one paragraph.
"""


def _site(folder, chapters: dict[str, str]):
    """A content folder whose site.toml lists `chapters` (file name -> Markdown) in that order."""
    folder.mkdir(parents=True, exist_ok=True)
    toml = '[site]\ntitle = "Test"\n' + "".join(f'\n[[chapters]]\nfile = "{name}"\n' for name in chapters)
    (folder / "site.toml").write_text(toml)
    for name, text in chapters.items():
        (folder / name).write_text(textwrap.dedent(text))
    return load_site_config(folder).chapters


@pytest.fixture
def corpus(tmp_path) -> Corpus:
    return read_corpus(_site(tmp_path / "content", {"01-first.md": CHAPTER}))


def test_the_chapter_reads_as_its_reader_reads_it(corpus):
    assert corpus.text == ("The first chapter\n"
                           "A linked word and bold text, a here, a value of dropped, maths dropped, a price of $5 "
                           "kept, Adam, a note and a key pressed.\n"
                           "Keys listed, in this head.\n"
                           "first item\n"
                           "second item\n"
                           "The caption stays, with T and gone.\n"
                           "Which question stays?\n"
                           "The note's text stays.\n")


def test_no_code(corpus):
    for code in ("code_span", "FENCED", "fenced", "INDENTED", "python", "`"):
        assert code not in corpus.text


def test_no_directive_options_but_their_captions_and_questions(corpus):
    for option in ("temperature", "OPTION_TEXT", "CHOICE_A", "CHOICE_B", "answer", "softmax-bars", "///"):
        assert option not in corpus.text
    assert "The caption stays, with T and gone." in corpus.text
    assert "Which question stays?" in corpus.text


def test_no_expressions(corpus):
    assert "{=" not in corpus.text and "facts" not in corpus.text and "2.718" not in corpus.text


def test_no_maths(corpus):
    for maths in ("e^", "s_i", "k_1", "x_1", "frac", "w_i", "\\(", "\\["):
        assert maths not in corpus.text
    assert "with T and" in corpus.text  # a one-letter formula reads as its letter
    assert "$5" in corpus.text  # an escaped dollar is a dollar, as on the page


def test_no_tags_citations_or_note_markers(corpus):
    for markup in ("<", ">", "kbd", "[@", "kingma", "[^", "Adam ,", "note1", "\u21a9"):
        assert markup not in corpus.text
    assert "a key pressed" in corpus.text and "The note's text stays." in corpus.text


def test_markdown_syntax_becomes_its_text(corpus):
    assert "The first chapter\n" in corpus.text and "#" not in corpus.text
    assert "A linked word and bold text" in corpus.text and "example.org" not in corpus.text
    assert "*" not in corpus.text and "first item\nsecond item\n" in corpus.text


def test_what_was_dropped_leaves_no_stray_punctuation(corpus):
    """A list of formulas goes as one, and so does the comma before a formula at a sentence's end."""
    assert "Keys listed, in this head.\n" in corpus.text
    assert ",," not in corpus.text and ", ," not in corpus.text and " ." not in corpus.text


def test_one_line_per_paragraph(corpus):
    """Soft line breaks are spaces; a paragraph ends with one newline, never a blank line."""
    assert "\n\n" not in corpus.text and "  " not in corpus.text
    assert len(corpus.text.splitlines()) == 8


def test_chapters_in_reading_order_with_their_sizes(tmp_path):
    entries = _site(tmp_path / "content", {"02-second.md": SECOND, "01-first.md": CHAPTER})
    corpus = read_corpus(entries)
    assert corpus.text.startswith("Second\nIts one paragraph.\nThe first chapter\n")
    assert corpus.chapters == (("02-second", len("Second\nIts one paragraph.\n")),
                               ("01-first", len(corpus.text) - len("Second\nIts one paragraph.\n")))


def test_deterministic(tmp_path, corpus):
    again = read_corpus(_site(tmp_path / "again", {"01-first.md": CHAPTER}))
    assert again == corpus


def test_the_series_corpus():
    """The real chapters: every one contributes, nothing of code or markup is left, and reading
    twice gives the same text."""
    entries = load_site_config(ROOT / "content").chapters
    corpus = read_corpus(entries)
    assert [name for name, _ in corpus.chapters] == [entry.path.stem for entry in entries]
    assert all(size > 1000 for _, size in corpus.chapters)
    assert sum(size for _, size in corpus.chapters) == len(corpus.text)
    for markup in ("```", "{=", "=}", "$", "[@", "[^", "<", ">", "///", "\\", "\n\n", "  ", ",,", "()"):
        assert markup not in corpus.text, markup
    assert all(c == "\n" or c.isprintable() for c in set(corpus.text))
    assert read_corpus(entries) == corpus
