"""content/references.bib: parsed and formatted by pybtex, the maintained BibTeX library, so
that any BibTeX an author pastes from a publisher works, and errors come with their line.

Entries are formatted once with pybtex's `unsrt` style to HTML; each must carry a DOI or
a URL, so every reference in the site links to the work itself.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from pybtex.backends.html import Backend as HtmlBackend
from pybtex.backends.plaintext import Backend as TextBackend
from pybtex.database import BibliographyDataError, parse_string
from pybtex.richtext import Text
from pybtex.scanner import PybtexError, PybtexSyntaxError
from pybtex.style.formatting.unsrt import Style as Unsrt
from pybtex.style.template import field, href, join, optional

from .errors import BuildError, read_source

FILE = "references.bib"
# Backend instances made once: pybtex's by-name lookup scans every installed package's entry
# points, which cost a second per build when done for each name.
HTML, TEXT = HtmlBackend(), TextBackend()


def _plain(latex: str) -> str:
    return Text.from_latex(latex).render(TEXT)


class _Style(Unsrt):
    """unsrt, but one link per entry: the DOI when there is one, else the URL."""

    def format_web_refs(self, e):
        if "doi" in e.fields:
            return join[href(join["https://doi.org/", field("doi", raw=True)])[join["doi:", field("doi", raw=True)]]]
        return optional[href(field("url", raw=True))[field("url", raw=True)]]


@dataclass(frozen=True)
class Reference:
    key: str
    html: str  # the formatted entry, with its link
    short: str  # "Vaswani et al., 2017": the citation's tooltip
    sort_key: tuple  # first author's surname, year, title
    line: int  # where the entry starts in references.bib


@dataclass(frozen=True)
class Bibliography:
    path: Path
    entries: dict[str, Reference]  # by key, in file order

    def sorted(self) -> list[Reference]:
        return sorted(self.entries.values(), key=lambda r: r.sort_key)


def _entry_lines(text: str) -> dict[str, list[int]]:
    lines: dict[str, list[int]] = {}
    for m in re.finditer(r"@\s*\w+\s*[{(]\s*([^,\s]+)\s*,", text):
        lines.setdefault(m.group(1).lower(), []).append(text.count("\n", 0, m.start()) + 1)
    return lines


def _people(entry) -> list:
    """Who the entry is by: its authors, else its editors."""
    return entry.persons.get("author") or entry.persons.get("editor") or []


def _surname(person) -> str:
    return _plain(" ".join(person.last_names) or " ".join(person.first_names))


def _short(entry) -> str:
    people = _people(entry)
    year = entry.fields.get("year", "n.d.")
    names = [_surname(p) for p in people if str(p) != "others"]
    if not names:
        return year
    if len(names) == 1 and len(people) == 1:
        who = names[0]
    elif len(names) == 2 and len(people) == 2:
        who = f"{names[0]} and {names[1]}"
    else:
        who = f"{names[0]} et al."
    return f"{who}, {year}"


def load(content_dir: Path) -> Bibliography | None:
    """The bibliography, or None when the content has no references.bib."""
    path = content_dir / FILE
    if not path.is_file():
        return None
    text = read_source(path)
    lines = _entry_lines(text)
    try:
        data = parse_string(text, "bibtex")
    except PybtexSyntaxError as err:
        message = re.sub(r"^syntax error in line \d+:\s*", "", str(err))
        raise BuildError(path, err.lineno, f"BibTeX syntax error: {message}") from None
    except BibliographyDataError as err:
        key = str(err).rsplit(":", 1)[-1].strip()
        where = lines.get(key.lower(), [None])
        raise BuildError(path, where[-1], f"BibTeX: {err}") from None
    except PybtexError as err:
        raise BuildError(path, None, f"BibTeX: {err}") from None
    style = _Style()
    entries = {}
    for key, entry in data.entries.items():
        line = lines.get(key.lower(), [None])[0]
        missing = [f for f in ("title", "year") if f not in entry.fields]
        if not _people(entry):
            missing.insert(0, "author")
        if missing:
            raise BuildError(path, line, f"entry '{key}' has no {', '.join(missing)}")
        if "doi" not in entry.fields and "url" not in entry.fields:
            raise BuildError(path, line, f"entry '{key}' has neither a doi nor a url: readers need a link to the work")
        try:
            formatted = style.format_entry(key, entry)
        except (PybtexError, KeyError) as err:  # a field the entry type requires is missing
            raise BuildError(path, line, f"entry '{key}' cannot be formatted: {err}") from None
        html = formatted.text.render(HTML).replace("\n", " ")
        sort_key = (_surname(_people(entry)[0]).lower(), entry.fields["year"], entry.fields["title"].lower())
        entries[key] = Reference(key, html, _short(entry), sort_key, line or 1)
    return Bibliography(path, entries)
