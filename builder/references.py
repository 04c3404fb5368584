"""content/references.bib: parsed and formatted by pybtex, the maintained BibTeX library, so
that any BibTeX an author pastes from a publisher works, and errors come with their line.

Entries are formatted once with pybtex's `unsrt` style to HTML; each must carry a DOI or
a URL, so every reference in the site links to the work itself. The file is data, not code:
every value is escaped, and only http(s) URLs and well-formed DOIs become links.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from html import escape
from pathlib import Path
from types import MappingProxyType
from typing import Mapping
from urllib.parse import quote, urlsplit

from pybtex.backends.html import Backend as HtmlBackend
from pybtex.backends.plaintext import Backend as TextBackend
from pybtex.database import BibliographyData, Entry
from pybtex.database.input.bibtex import LowLevelParser, Parser
from pybtex.richtext import Text
from pybtex.scanner import PybtexError, PybtexSyntaxError
from pybtex.style.formatting.unsrt import Style as Unsrt
from pybtex.style.template import field, href, join, optional

from .cache import BuildCache
from .errors import BuildError, clip, display_path, read_source

FILE = "references.bib"
RE_DOI = re.compile(r"10\.\d{4,9}/[^\s\"'\\]+")  # the DOI handbook's 10.<registrant>/<suffix>
RE_URL_UNSAFE = re.compile(r"[\s\"'<>\\`]")


class _Html(HtmlBackend):
    """pybtex's HTML backend writes href values unescaped; ours escapes them."""

    @staticmethod
    def format_href(url, text, external=False):
        return f'<a href="{escape(url, quote=True)}">{text}</a>' if text else ""


# Backend instances made once: pybtex's by-name lookup scans every installed package's entry
# points, which cost a second per build when done for each name.
HTML, TEXT = _Html(), TextBackend()


def _plain(latex: str) -> str:
    return Text.from_latex(latex).render(TEXT)


def doi_url(doi: str) -> str:
    """The resolver link of a checked DOI, percent-encoding what a URL must not hold (#, ?, %, <)."""
    return "https://doi.org/" + quote(doi, safe="/:;()[]")


class _Style(Unsrt):
    """unsrt, but one link per entry (the DOI when there is one, else the URL), and entry types
    the style does not know are formatted as @misc, as BibTeX's own styles do."""

    def format_web_refs(self, e):
        if "doi" in e.fields:
            return href(doi_url(e.fields["doi"]))[join["doi:", field("doi", raw=True)]]
        return optional[href(field("url", raw=True))[field("url", raw=True)]]

    def format_entry(self, label, entry, bib_data=None):
        if not hasattr(self, f"get_{entry.type}_template"):
            entry = Entry("misc", fields=entry.fields, persons=entry.persons)
        return super().format_entry(label, entry, bib_data)


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
    entries: Mapping[str, Reference]  # by key, in file order

    def sorted(self, keys=None) -> list[Reference]:
        """The entries (or those of `keys`) by first author, year and title."""
        refs = self.entries.values() if keys is None else (self.entries[k] for k in keys)
        return sorted(refs, key=lambda r: r.sort_key)


@dataclass(frozen=True)
class _Span:
    line: int  # the line of the entry's '@'
    start: int  # offsets of the entry in the text
    end: int


class _Parser(Parser):
    """pybtex's BibTeX parser, remembering where each entry lies so that errors found while
    reading an entry, or later in its fields, name the line."""

    def __init__(self, path: Path):
        super().__init__()
        self.path = path
        self.spans: dict[str, _Span] = {}

    def parse_string(self, text):
        self.unnamed_entry_counter = 1
        scanner = LowLevelParser(text, keyless_entries=self.keyless_entries, handle_error=self.handle_error,
                                 want_entry=self.data.want_entry, filename=self.filename, macros=self.macros)
        line, counted = 1, 0  # lines counted incrementally: one pass over the text
        for command, body in scanner:
            start = scanner.command_start
            line += text.count("\n", counted, start)
            counted = start
            kind = command.lower()
            try:
                if kind == "preamble":
                    self.process_preamble(*body)
                elif kind != "string":
                    self.process_entry(command, *body)
                    self.spans.setdefault(body[0].lower(), _Span(line, start, scanner.pos))
            except PybtexError as err:  # a repeated key or field, a name pybtex cannot split
                raise BuildError(self.path, line, f"BibTeX: {clip(err, 120)}") from None
        return self.data


def _field_line(text: str, span: _Span, name: str) -> int:
    """The line of field `name` inside an entry, else the entry's first line."""
    m = re.compile(rf"(?i)[,{{(]\s*{re.escape(name)}\s*=").search(text, span.start, span.end)
    return span.line + text.count("\n", span.start, m.end()) if m else span.line


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


def _link_problem(entry) -> tuple[str, str] | None:
    """(field, why) when the entry's doi or url cannot become a safe link."""
    if "doi" in entry.fields:
        doi = entry.fields["doi"]
        if not RE_DOI.fullmatch(doi):
            return "doi", (f"doi '{clip(doi)}' is not a DOI: write it as 10.NNNN/suffix, without "
                           "'https://doi.org/' or 'doi:', spaces or quotes")
        return None
    if "url" not in entry.fields:
        return None
    url = entry.fields["url"]
    why = None
    if RE_URL_UNSAFE.search(url):
        why = "holds a space, quote, '<', '>' or backslash"
    else:
        try:
            parts = urlsplit(url)
            parts.port  # noqa: B018 -- raises ValueError on a malformed port
        except ValueError:
            parts, why = None, "is malformed"
        if parts is not None and parts.scheme.lower() not in ("http", "https"):
            why = "must start with http:// or https://"
        elif parts is not None and not parts.hostname:
            why = "has no host"
    return ("url", f"url '{clip(url)}' {why}") if why else None


def _inherit_crossref(entry, data: BibliographyData) -> None:
    """BibTeX's crossref: fields and names the entry lacks come from the entry it names."""
    parent = data.entries.get(entry.fields["crossref"])
    if parent is None:
        return
    for name, value in parent.fields.items():
        if name.lower() != "crossref" and name not in entry.fields:
            entry.fields[name] = value
    for role, people in parent.persons.items():
        if role not in entry.persons:
            entry.persons[role] = list(people)


def _check_entry(path: Path, text: str, key: str, entry, span: _Span, data: BibliographyData) -> None:
    """Everything a reader needs from an entry (who, what, when, a safe link), else an error."""
    line = span.line
    if "crossref" in entry.fields:
        if entry.fields["crossref"] not in data.entries:
            raise BuildError(path, _field_line(text, span, "crossref"),
                             f"entry '{clip(key)}': crossref '{clip(entry.fields['crossref'])}' names no entry")
        _inherit_crossref(entry, data)
    missing = [f for f in ("title", "year") if f not in entry.fields]
    if not _people(entry):
        missing.insert(0, "author")
    if missing:
        raise BuildError(path, line, f"entry '{clip(key)}' has no {', '.join(missing)}")
    for role in ("author", "editor"):
        if any(not str(p).strip() for p in entry.persons.get(role, [])):
            raise BuildError(path, _field_line(text, span, role), f"entry '{clip(key)}': an empty name in {role}")
    if "doi" not in entry.fields and "url" not in entry.fields:
        raise BuildError(path, line, f"entry '{clip(key)}' has neither a doi nor a url: "
                                     "readers need a link to the work")
    problem = _link_problem(entry)
    if problem:
        raise BuildError(path, _field_line(text, span, problem[0]), f"entry '{clip(key)}': {problem[1]}")


def load(content_dir: Path, cache: BuildCache) -> Bibliography | None:
    """The bibliography, or None when the content has no references.bib; kept in the cache by its
    text, since serve rebuilds on every save and pybtex is among a rebuild's slower steps."""
    path = content_dir / FILE
    if not path.is_file():
        return None
    text = read_source(path)  # it refuses control characters at their line
    return cache.get("bibliography", (path, text), lambda: _parsed(path, text))


def _parsed(path: Path, text: str) -> Bibliography:
    """The bibliography in `text`, formatted."""
    parser = _Parser(path)
    try:
        data = parser.parse_string(text)
    except PybtexSyntaxError as err:
        message = re.sub(r"^syntax error in line \d+:\s*", "", str(err))
        raise BuildError(path, err.lineno, f"BibTeX syntax error: {clip(message, 120)}") from None
    except PybtexError as err:
        raise BuildError(path, 1, f"BibTeX: {clip(err, 120)}") from None
    style = _Style()
    entries = {}
    for key, entry in data.entries.items():
        span = parser.spans[key.lower()]
        _check_entry(path, text, key, entry, span, data)
        # pybtex raises assorted exceptions on odd input it has accepted (KeyError for a field
        # the entry type needs, UnicodeDecodeError from latexcodec for a stray backslash, ...):
        # any of them is a fault in this entry, so each becomes this entry's error.
        try:
            formatted = style.format_entry(key, entry)
            html = formatted.text.render(HTML).replace("\n", " ")
            short = _short(entry)
            sort_key = (_surname(_people(entry)[0]).lower(), entry.fields["year"], entry.fields["title"].lower())
        except Exception as err:  # noqa: BLE001 -- see above
            raise BuildError(path, span.line, f"entry '{clip(key)}' cannot be formatted: {clip(err, 120)}") from None
        entries[key] = Reference(key, html, short, sort_key, span.line)
    return Bibliography(path, MappingProxyType(entries))  # read-only: every build of the process shares it


def citing_chapters(chapters) -> dict[str, list]:
    """Each cited key, with the chapters citing it in reading order: the bibliography page's works."""
    cited_in: dict[str, list] = {}
    for ch in chapters:
        for ref in ch.references:
            cited_in.setdefault(ref.key, []).append(ch)
    return cited_in


def uncited_warnings(bibliography: Bibliography | None, cited_in: dict) -> list[str]:
    """One `references.bib:line: warning` per entry no chapter cites (the bibliography leaves it out)."""
    if bibliography is None:
        return []
    where = display_path(bibliography.path)
    return [f"{where}:{ref.line}: warning: '{clip(key)}' is cited by no chapter; the bibliography leaves it out"
            for key, ref in bibliography.entries.items() if key not in cited_in]
