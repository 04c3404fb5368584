"""read_source (builder/errors.py): one text for every later pass, with \\n line ends and lines that
count as Python-Markdown counts them; invisible characters are refused at their line."""
import pytest

from builder.cache import BuildCache
from builder.build import gather_chapter
from builder.errors import BuildError, read_source, split_lines
from builder.site_config import load_site_config
from tests.builder.helpers import one_chapter_site


def chapter(tmp_path, data: bytes):
    folder = one_chapter_site(tmp_path / "content", "# placeholder\n")
    (folder / "01-test.md").write_bytes(data)
    return gather_chapter(load_site_config(folder).chapters[0], BuildCache())


def test_a_byte_order_mark_is_not_a_missing_title(tmp_path):
    assert chapter(tmp_path, "\ufeff# Title\n\nText.\n".encode()).title == "Title"


@pytest.mark.parametrize("char", ["\x00", "\x01", "\x0b", "\x0c", "\x1b", "\x1c", "\x1e", "\x7f", "\x85", "\x9f"])
def test_control_characters_are_refused_at_their_line(tmp_path, char):
    with pytest.raises(BuildError) as err:
        chapter(tmp_path, f"# T\n\nfine\nbad{char}here\n".encode())
    assert err.value.line == 4 and f"U+{ord(char):04X}" in err.value.message


def test_tabs_and_line_ends_are_kept(tmp_path):
    path = tmp_path / "x.md"
    path.write_bytes(b"a\tb\r\nc\rd\n")
    assert read_source(path) == "a\tb\nc\nd\n"


@pytest.mark.parametrize("sep", ["\u2028", "\u2029"])
def test_unicode_line_separators_do_not_shift_line_numbers(tmp_path, sep):
    with pytest.raises(BuildError) as err:
        chapter(tmp_path, f"# T\n\na{sep}b{sep}c\n\n{{= nope.x =}}\n".encode())
    assert err.value.line == 5


def test_split_lines_agrees_with_newline_counts():
    text = "a\u2028b\n\nc\u0085"
    assert len(split_lines(text)) == text.count("\n") + 1
