"""content/site.toml: the series' metadata and the ordered list of chapters.

The file is data: every value is checked for its type, unknown keys are errors (a typo would
otherwise be ignored silently), and each mistake names its line.
"""
from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from pathlib import Path

from .errors import BuildError, display_path, line_containing, read_source, split_lines
from .errors import clip as _clip, unknown_name

SITE_KEYS = ("title", "description", "author", "offline")
CHAPTER_KEYS = ("file", "description", "label")
MAX_DESCRIPTION = 300  # characters in a chapter's one-line description: a sentence, not a page
MAX_LABEL = 40  # characters in a page's label ("Maths primer"): a name, not a sentence
MAX_NAME = 120  # characters in a chapter's file name: far below every file system's limit
RE_TABLE = re.compile(r"^\s*\[")  # any table or array-of-tables header
RE_CHAPTERS_TABLE = re.compile(r"""^\s*\[\[\s*(?:chapters|"chapters"|'chapters')\s*\]\]""")
RE_SITE_TABLE = re.compile(r"""^\s*\[\s*(?:site|"site"|'site')\s*\]""")
RE_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")
# A chapter's file name becomes its page's name, hrefs and image paths: one plain set of characters.
RE_FILE_NAME = re.compile(r"[A-Za-z0-9_-]+\.md")
RE_KEY = re.compile(r"""^\s*(?:([A-Za-z0-9_-]+)|"([^"\\]*)"|'([^']*)')\s*[=.]""")


@dataclass(frozen=True)
class ChapterEntry:
    path: Path  # the chapter's Markdown file
    line: int  # where site.toml names it, for errors
    number: int  # from the file's NN- prefix, else its 1-based position in the list
    description: str = ""  # one line for the contents page and the page's meta description
    # What the page is called in place of "Chapter N" (e.g. "Maths primer"): a page beside the numbered
    # chapters, which the contents page lists in its place but does not offer as the place to start.
    label: str = ""

    @property
    def heading(self) -> str:
        """The line above the page's title and the contents card's: "Chapter 3", or the label."""
        return self.label or f"Chapter {self.number}"

    @property
    def mention(self) -> str:
        """The page named within a sentence: "chapter 3", or the label with a small first letter."""
        return self.label[:1].lower() + self.label[1:] if self.label else f"chapter {self.number}"


@dataclass(frozen=True)
class SiteConfig:
    title: str
    description: str
    author: str
    chapters: tuple[ChapterEntry, ...]
    path: Path
    # Offline reading (a service worker). Turned off, the build retires the worker readers have
    # registered (theme/sw/retire.js): deleting sw.js instead would leave it running in their browsers.
    offline: bool = True


class _Lines:
    """Where things are in site.toml (tomllib keeps no positions): the first line of each key in
    each table, found in one pass. Lines are split on "\n" alone, as tomllib counts them."""

    def __init__(self, text: str):
        self.lines = split_lines(text)
        self.keys: dict[int | None, dict[str, int]] = {None: {}}  # table header index -> key -> line
        self.site: int | None = None  # index of the [site] header
        self.chapters: list[int] = []  # index of each [[chapters]] header
        table = None
        for i, line in enumerate(self.lines):
            if RE_TABLE.match(line):
                table = i
                self.keys[i] = {}
                if RE_CHAPTERS_TABLE.match(line):
                    self.chapters.append(i)
                elif self.site is None and RE_SITE_TABLE.match(line):
                    self.site = i
            elif m := RE_KEY.match(line):
                self.keys[table].setdefault(next(g for g in m.groups() if g is not None), i + 1)

    def key(self, key: str, table: int | None = None) -> int | None:
        """The 1-based line of `key = ...` in the table whose header is on line index `table`
        (None: the top level); else that table's header line."""
        return self.keys.get(table, {}).get(key) or (None if table is None else table + 1)

    def site_key(self, key: str) -> int:
        return (self.key(key, self.site) if self.site is not None else None) or self.key("site") or 1

    def chapter(self, i: int, key: str = "file") -> int:
        """The line of key in the i-th (0-based) [[chapters]] table, else where chapters are named."""
        if i < len(self.chapters):
            return self.key(key, self.chapters[i])
        return self.key("chapters") or line_containing(self.lines, "chapters") or 1


def clip(text, limit: int = 60) -> str:
    """Input quoted in a message: cut short, and TOML's escaped control characters (a "\\u0000"
    in a string) shown as escapes rather than written to the terminal."""
    return _clip(RE_CONTROL.sub(lambda m: f"\\x{ord(m.group()):02x}", str(text)), limit)


def _unknown(keys, allowed) -> tuple[str, str] | None:
    """(the first key not allowed, a message with a did-you-mean), or None when all are allowed."""
    extra = next((k for k in keys if k not in allowed), None)
    if extra is None:
        return None
    return extra, unknown_name("key", clip(extra), allowed)


def _kind(value) -> str:
    return {str: "a string", int: "a number", float: "a number", bool: "true/false", list: "an array",
            dict: "a table"}.get(type(value), "a date or time")


def _site(path: Path, data: dict, where: _Lines) -> tuple[str, str, str, bool]:
    site = data.get("site", {})
    if not isinstance(site, dict):
        raise BuildError(path, where.key("site") or 1, f"site must be a table ([site] with title = \"...\"), "
                                                       f"not {_kind(site)}")
    unknown = _unknown(site, SITE_KEYS)
    if unknown:
        raise BuildError(path, where.site_key(unknown[0]), f"[site]: {unknown[1]}")
    title = site.get("title")
    if not isinstance(title, str) or not title.strip():
        line = where.site_key("title") if "title" in site else (where.site + 1 if where.site is not None else 1)
        raise BuildError(path, line, "[site] needs a title = \"...\"")
    for key in ("description", "author"):
        if not isinstance(site.get(key, ""), str):
            raise BuildError(path, where.site_key(key), f"[site] {key} must be a string, not {_kind(site[key])}")
    if not isinstance(site.get("offline", True), bool):
        raise BuildError(path, where.site_key("offline"), f"[site] offline must be true or false, not {_kind(site['offline'])}")
    return title, site.get("description", ""), site.get("author", ""), site.get("offline", True)


def _chapter_file(path: Path, content_dir: Path, i: int, ch, where: _Lines) -> Path:
    """The checked path of the i-th (0-based) chapter entry."""
    if not isinstance(ch, dict):
        raise BuildError(path, where.chapter(i), f"chapter {i + 1} must be a table ([[chapters]] with "
                                                 f"file = \"NN-slug.md\"), not {_kind(ch)}")
    unknown = _unknown(ch, CHAPTER_KEYS)
    if unknown:
        raise BuildError(path, where.chapter(i, unknown[0]), f"chapter {i + 1}: {unknown[1]}")
    file = ch.get("file")
    line = where.chapter(i)
    if not isinstance(file, str) or not file.endswith(".md"):
        shown = f"'{clip(file)}'" if isinstance(file, str) else _kind(file)
        raise BuildError(path, line, f"chapter {i + 1}: file must name a .md file, not {shown}")
    if len(file) > MAX_NAME:
        raise BuildError(path, line, f"chapter file name '{clip(file)}' is {len(file)} characters long "
                                     f"(at most {MAX_NAME})")
    if RE_CONTROL.search(file):
        raise BuildError(path, line, f"chapter file '{clip(file)}' has a control character in its name")
    if any(c in file for c in "/\\") or file.startswith("."):
        raise BuildError(path, line, f"chapter file '{clip(file)}' must be a file name in the content "
                                     "folder, without folders")
    if not RE_FILE_NAME.fullmatch(file):
        raise BuildError(path, line, f"chapter file '{clip(file)}' may use only letters A-Z and a-z, digits, "
                                     "'-' and '_' before '.md' (its name becomes the page's address)")
    chapter_path = content_dir / file
    try:
        found = chapter_path.is_file()
    except OSError as err:  # a name the file system refuses
        raise BuildError(path, line, f"chapter file '{clip(file)}' cannot be read: {clip(err.strerror)}") from None
    if not found:
        raise BuildError(path, line, f"chapter file '{clip(file)}' not found in {clip(content_dir, 120)}")
    return chapter_path


def _one_line(path: Path, i: int, ch: dict, where: _Lines, key: str, limit: int) -> str:
    """The i-th chapter's optional text under `key` (its description, its label): a string on one line,
    of bounded length."""
    text = ch.get(key, "")
    line = where.chapter(i, key)
    if not isinstance(text, str):
        raise BuildError(path, line, f"chapter {i + 1}: {key} must be a string, not {_kind(text)}")
    if RE_CONTROL.search(text):
        raise BuildError(path, line, f"chapter {i + 1}: {key} '{clip(text)}' must be one line "
                                     "without control characters")
    if len(text) > limit:
        raise BuildError(path, line, f"chapter {i + 1}: {key} is {len(text)} characters long "
                                     f"(at most {limit}): '{clip(text)}'")
    return text.strip()


def _check_all_listed(path: Path, content_dir: Path, listed) -> None:
    """A chapter file site.toml does not list would be left out without a word: an error that says
    what to add. Names starting with '_' or '.' are drafts and editor files, left alone."""
    for md in sorted(content_dir.glob("*.md")):
        if md.name not in listed and not md.name.startswith(("_", ".")):
            raise BuildError(md, 1, f"not in {display_path(path)}, so it would be left out: add the lines "
                                       f"[[chapters]] and file = \"{clip(md.name)}\" there, in reading order "
                                       "(a name starting with '_' marks a draft that is not published)")


def load_site_config(content_dir: Path) -> SiteConfig:
    path = content_dir / "site.toml"
    if not path.is_file():
        raise BuildError(path, None, "missing site.toml (it lists the series title and its chapters)")
    text = read_source(path)
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        m = re.search(r"line (\d+)", str(err))
        raise BuildError(path, int(m.group(1)) if m else 1, f"invalid TOML: {clip(err, 120)}") from None
    where = _Lines(text)
    unknown = _unknown(data, ("site", "chapters"))
    if unknown:
        raise BuildError(path, where.key(unknown[0]) or line_containing(where.lines, unknown[0]) or 1, unknown[1])
    title, description, author, offline = _site(path, data, where)
    chapters = data.get("chapters")
    if not isinstance(chapters, list) or not chapters:
        raise BuildError(path, where.key("chapters") or len(where.lines) or 1,
                         "no chapters: add [[chapters]] tables with file = \"NN-slug.md\"")
    entries, seen, numbers = [], {}, {}
    for i, ch in enumerate(chapters):
        chapter_path = _chapter_file(path, content_dir, i, ch, where)
        file, line = ch["file"], where.chapter(i)
        if file in seen:
            raise BuildError(path, line, f"chapter file '{clip(file)}' is listed twice (first on line {seen[file]})")
        seen[file] = line
        prefix = re.match(r"(\d+)-", file)
        number = int(prefix.group(1)) if prefix else i + 1
        if number in numbers:
            raise BuildError(path, line, f"chapter number {number} of '{clip(file)}' is already used by "
                                         f"'{clip(numbers[number])}'")
        numbers[number] = file
        entries.append(ChapterEntry(chapter_path, line, number,
                                    _one_line(path, i, ch, where, "description", MAX_DESCRIPTION),
                                    _one_line(path, i, ch, where, "label", MAX_LABEL)))
    _check_all_listed(path, content_dir, seen)
    return SiteConfig(title=title, description=description, author=author, chapters=tuple(entries), path=path,
                      offline=offline)
