"""content/site.toml: the series' metadata and the ordered list of chapters."""
from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from pathlib import Path

from .errors import BuildError, line_containing, read_source


@dataclass(frozen=True)
class ChapterEntry:
    path: Path  # the chapter's Markdown file
    line: int  # where site.toml names it, for errors
    number: int  # from the file's NN- prefix, else its 1-based position in the list


@dataclass(frozen=True)
class SiteConfig:
    title: str
    description: str
    author: str
    chapters: tuple[ChapterEntry, ...]
    path: Path


def load_site_config(content_dir: Path) -> SiteConfig:
    path = content_dir / "site.toml"
    if not path.is_file():
        raise BuildError(path, None, "missing site.toml (it lists the series title and its chapters)")
    text = read_source(path)
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        m = re.search(r"line (\d+)", str(err))
        raise BuildError(path, int(m.group(1)) if m else None, f"invalid TOML: {err}") from None
    site = data.get("site", {})
    title = site.get("title")
    if not isinstance(title, str) or not title.strip():
        raise BuildError(path, line_containing(text.splitlines(), "[site]"), "[site] needs a title = \"...\"")
    chapters = data.get("chapters")
    if not isinstance(chapters, list) or not chapters:
        raise BuildError(path, None, "no chapters: add [[chapters]] tables with file = \"NN-slug.md\"")
    entries, seen, numbers = [], set(), {}
    for i, ch in enumerate(chapters, 1):
        file = ch.get("file") if isinstance(ch, dict) else None
        line = line_containing(text.splitlines(), f'"{file}"') if isinstance(file, str) else None
        if not isinstance(file, str) or not file.endswith(".md"):
            raise BuildError(path, line, f"chapter {i}: file must name a .md file, not {file!r}")
        chapter_path = content_dir / file
        if not chapter_path.is_file():
            raise BuildError(path, line, f"chapter file '{file}' not found in {content_dir}")
        if file in seen:
            raise BuildError(path, line, f"chapter file '{file}' is listed twice")
        seen.add(file)
        prefix = re.match(r"(\d+)-", Path(file).name)
        number = int(prefix.group(1)) if prefix else i
        if number in numbers:
            raise BuildError(path, line, f"chapter number {number} of '{file}' is already used by '{numbers[number]}'")
        numbers[number] = file
        entries.append(ChapterEntry(chapter_path, line or 1, number))
    return SiteConfig(
        title=title,
        description=str(site.get("description", "")),
        author=str(site.get("author", "")),
        chapters=tuple(entries),
        path=path,
    )
