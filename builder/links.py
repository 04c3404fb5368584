"""Links between pages: `.md` links become `.html`, and every relative link must land.

Authors link chapters by their Markdown file (`[softmax](04-scores-to-weights.md#temperature)`),
which also works when the source is browsed on GitHub; the site gets the HTML page.
"""
from __future__ import annotations

import html
import posixpath
import re
from urllib.parse import urlsplit, urlunsplit

from markdown.treeprocessors import Treeprocessor

from .errors import BuildError

RE_LINK = re.compile(r'<(?:a|img)\b[^>]*?\b(?:href|src)="([^"]*)"')
RE_ID = re.compile(r'\bid="([^"]+)"')


def md_to_html(url: str) -> str:
    """`NN-slug.md#part` -> `NN-slug.html#part`; anything else unchanged."""
    parts = urlsplit(url)
    if parts.scheme or parts.netloc or not parts.path.endswith(".md"):
        return url
    return urlunsplit(parts._replace(path=parts.path[:-3] + ".html"))


class MarkdownLinks(Treeprocessor):
    """Rewrites relative links to .md files into links to the built pages."""

    def run(self, root):
        for a in root.iter("a"):
            href = a.get("href")
            if href:
                a.set("href", md_to_html(href))


def _source_line(lines: list[str], url: str) -> int | None:
    """The first source line that mentions the link, in its .md or .html spelling."""
    path = urlsplit(url).path
    candidates = [url, path, path[:-5] + ".md" if path.endswith(".html") else path]
    for needle in filter(None, candidates):
        for i, line in enumerate(lines, 1):
            if needle in line:
                return i
    return None


def check_links(chapters, site_files: set[str]) -> None:
    """Every relative link or image in chapter text must name a file of the site, and an anchor
    must name an id on its page. External links (with a scheme) are not fetched."""
    ids = {ch.url: set(RE_ID.findall(ch.html)) for ch in chapters}
    for ch in chapters:
        for m in RE_LINK.finditer(ch.html):
            url = html.unescape(m.group(1))
            parts = urlsplit(url)
            if parts.scheme or parts.netloc:
                continue
            target = posixpath.normpath(parts.path) if parts.path else ch.url
            line = _source_line(ch.source.lines, url)
            if target.startswith("../") or target not in site_files:
                hint = " (a chapter must be listed in site.toml)" if target.endswith(".html") else ""
                raise BuildError(ch.entry.path, line, f"broken link '{url}': no such page or file in the site{hint}")
            if parts.fragment and target in ids and parts.fragment not in ids[target]:
                raise BuildError(ch.entry.path, line, f"broken link '{url}': '{target}' has no '#{parts.fragment}'")
