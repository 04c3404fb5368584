"""Links between pages: `.md` links become `.html`, and every relative link must land.

Authors link chapters by their Markdown file (`[softmax](04-scores-to-weights.md#temperature)`),
which also works when the source is browsed on GitHub; the site gets the HTML page. Markdown
links and images may use only safe schemes; raw HTML in a chapter is trusted, as its author is.
"""
from __future__ import annotations

import difflib
import html
import posixpath
import re
from urllib.parse import urlsplit, urlunsplit

from markdown.extensions import Extension
from markdown.treeprocessors import Treeprocessor

from .errors import BuildError, clip, did_you_mean, line_containing

# Scans stay linear: a tag's match stops at the next '<' or '>', a value at the next quote.
RE_LINK = re.compile(r'<(?:a|img)\b[^<>]*?\b(?:href|src)="([^"<>]*)"')
RE_ID = re.compile(r'\bid="([^"<>]+)"')
RE_SCHEME = re.compile(r"([A-Za-z][A-Za-z0-9+.-]*):")
# http(s) and mailto only: javascript: and vbscript: run code on click, and data: URLs can carry
# whole HTML documents; an image belongs in the site as a file, where the link check finds it.
SAFE_SCHEMES = ("http", "https", "mailto")
C0_AND_SPACE = "".join(map(chr, range(0x21)))


class LinkError(Exception):
    """A Markdown link or image that cannot go into a page; `url` as written, for the line."""

    def __init__(self, url: str, why: str):
        super().__init__(f"link '{clip(url)}' {why}")
        self.url = url


def browser_scheme(href: str) -> str:
    """The scheme a browser reads in an href attribute (lower case, '' for a relative URL): after
    decoding entities, trimming controls and spaces at both ends and dropping tabs and newlines,
    as the WHATWG URL parser does, so `&#106;avascript:` and `java&#9;script:` are seen for what they are."""
    url = re.sub(r"[\t\n\r]", "", html.unescape(href).strip(C0_AND_SPACE))
    m = RE_SCHEME.match(url)
    return m.group(1).lower() if m else ""


def md_to_html(url: str) -> str:
    """`NN-slug.md#part` -> `NN-slug.html#part`; anything else unchanged."""
    parts = urlsplit(url)
    if parts.scheme or parts.netloc or not parts.path.endswith(".md"):
        return url
    return urlunsplit(parts._replace(path=parts.path[:-3] + ".html"))


class MarkdownLinks(Treeprocessor):
    """Rejects Markdown links and images with an unsafe scheme or a malformed URL (LinkError);
    rewrites relative links to .md files into links to the built pages."""

    def run(self, root):
        for el in root.iter():
            attr = {"a": "href", "img": "src"}.get(el.tag)
            url = el.get(attr) if attr else None
            if not url:
                continue
            scheme = browser_scheme(url)
            if scheme and scheme not in SAFE_SCHEMES:
                raise LinkError(url, f"uses '{clip(scheme, 20)}:'; links and images may use "
                                     f"{', '.join(s + ':' for s in SAFE_SCHEMES)} or a relative URL")
            try:
                urlsplit(url)
            except ValueError as err:  # urllib on a malformed host, e.g. http://[::1/
                raise LinkError(url, f"is malformed ({clip(err)})") from None
            if el.tag == "a":
                el.set(attr, md_to_html(url))


class LinkCheck(Extension):
    """The link-scheme check (and .md -> .html) of a chapter's Markdown, for every Markdown of a page."""

    def extendMarkdown(self, md):
        md.treeprocessors.register(MarkdownLinks(md), "attention_links", 1)


def link_line(lines: list[str], url: str) -> int | None:
    """The first source line that mentions a link: as written, unescaped, in its .md spelling,
    or failing all of these the first line naming its scheme."""
    candidates = [url, html.unescape(url)]
    try:
        path = urlsplit(url).path
        candidates += [path, path[:-5] + ".md" if path.endswith(".html") else path]
    except ValueError:
        pass
    for needle in candidates:
        line = line_containing(lines, needle)
        if line:
            return line
    scheme = browser_scheme(url)
    return line_containing([line.lower() for line in lines], scheme + ":") if scheme else None


def _closest_anchor(fragment: str, ids: set[str]) -> str:
    """A did-you-mean for a missing '#fragment': heading ids are long ('temperature-how-sure-...'),
    so the fragment is also compared with their leading words ('temperature')."""
    by_words: dict[str, str] = {i: i for i in ids}
    for i in sorted(ids):
        parts = i.split("-")
        for n in range(1, len(parts)):
            by_words.setdefault("-".join(parts[:n]), i)
    close = difflib.get_close_matches(fragment, list(by_words), n=1)
    return f" (did you mean '#{clip(by_words[close[0]])}'?)" if close else ""


def _as_written(lines: list[str], url: str) -> tuple[str, bool]:
    """The link as the author wrote it: its `.md` spelling when the chapter has that and not the
    page's `.html` (the page's link was made from it); and whether it was."""
    parts = urlsplit(url)
    if not parts.path.endswith(".html"):
        return url, False
    md = urlunsplit(parts._replace(path=parts.path[:-5] + ".md"))
    written = line_containing(lines, md) and not line_containing(lines, url)
    return (md, True) if written else (url, False)


def _md(page: str) -> str:
    return page[:-5] + ".md" if page.endswith(".html") else page


def check_links(chapters, site_files: set[str], pages_only: bool = False, unsure: frozenset[str] = frozenset()) -> None:
    """Every relative link or image in chapter text must name a file of the site, and an anchor
    must name an id on its page. External links (with a scheme) are not fetched.
    Before the figures are computed (builder/build.py check_prose) `site_files` holds the pages
    alone: with `pages_only`, a link to any other file waits for the final check, as does a missing
    anchor on a page of `unsure`, whose heading ids may hold an inline expression's value."""
    ids = {ch.url: set(RE_ID.findall(ch.html)) for ch in chapters}
    pages = sorted(f for f in site_files if f.endswith(".html"))
    for ch in chapters:
        for m in RE_LINK.finditer(ch.html):
            url = html.unescape(m.group(1))
            try:
                parts = urlsplit(url)
            except ValueError as err:  # in raw HTML: Markdown links were checked while rendering
                raise BuildError(ch.entry.path, link_line(ch.source.lines, url),
                                 f"malformed link '{clip(url)}' ({clip(err)})") from None
            if parts.scheme or parts.netloc:
                continue
            target = posixpath.normpath(parts.path) if parts.path else ch.url
            written, as_md = _as_written(ch.source.lines, url)
            if pages_only and not target.endswith(".html") and not target.startswith("../"):
                continue  # the site's other files are made with the figures and the theme
            if target.startswith("../") or target not in site_files:
                hint = ""
                if target.endswith(".html"):
                    hint = (did_you_mean(_md(target), map(_md, pages)) if as_md else did_you_mean(target, pages))
                    hint += " (a chapter must be listed in site.toml)"
                raise BuildError(ch.entry.path, link_line(ch.source.lines, url),
                                 f"broken link '{clip(written)}': no such page or file in the site{hint}")
            if parts.fragment and target in ids and parts.fragment not in ids[target] and target not in unsure:
                page = _md(target) if as_md or not parts.path else target
                raise BuildError(ch.entry.path, link_line(ch.source.lines, url),
                                 f"broken link '{clip(written)}': '{clip(page)}' has no '#{clip(parts.fragment)}'"
                                 + _closest_anchor(parts.fragment, ids[target]))
