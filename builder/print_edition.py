"""The print edition: every chapter on one page (print.html) and, where Chromium is installed, as a PDF.

Each chapter's rendered HTML goes in as the chapter pages have it, made static for paper: its ids
take the chapter's prefix (every chapter has a `chapter-references`, an `sn-1`...), links between
chapters become links within the page, figures keep their drawing and lose their data and view,
and every disclosure (key numbers, quiz answers, hints, solutions) is open. No script survives,
so the page loads neither Python nor a figure's code.
"""
from __future__ import annotations

import html
import re
import shutil
import subprocess
import tempfile
from html.parser import HTMLParser
from pathlib import Path

from .errors import BuildError

PAGE = "print.html"
CHROMIUM = Path("/usr/bin/chromium")  # Debian's, as the browser tests use; never downloaded
WITHOUT = f"no Chromium at {CHROMIUM}: the print edition is built without its PDF (apt-get install chromium)"
ID_REFS = ("for", "aria-labelledby", "aria-describedby", "aria-controls")  # attributes naming ids
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}


def pdf_name(title: str) -> str:
    """`Attention, explored` -> `attention-explored.pdf`: the file a reader saves, named as the series."""
    return (re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-") or "series") + ".pdf"


def chapter_anchor(number: int) -> str:
    return f"chapter-{number}"


class _Static(HTMLParser):
    """Re-emits a chapter's HTML as written, with its ids prefixed, links between pages turned into
    links within the page, scripts and figure views dropped, and disclosures open."""

    def __init__(self, prefix: str, pages: dict[str, str]):
        super().__init__(convert_charrefs=False)  # entities are re-emitted as written
        self.prefix, self.pages = prefix, pages
        self.out: list[str] = []
        self.skip: list[str] = []  # the open elements being dropped (a script, a figure's view)

    def _href(self, href: str) -> str:
        page, sep, fragment = href.partition("#")
        if not page:
            return f"#{self.prefix}{fragment}" if fragment else href
        if page in self.pages:  # another chapter (or the bibliography) of this page
            target = self.pages[page]
            return f"#{target}{fragment}" if fragment else "#" + target.rstrip("-")
        return href

    def _tag(self, tag: str, attrs: list, close: str) -> str:
        parts = [tag]
        names = {name for name, _ in attrs}
        for name, value in attrs:
            # loading="lazy" stays: a reader of print.html fetches only the drawings near the screen
            # (36 of them, 1.5 MB, would compete with the text on a slow line), and Chromium's print
            # fetches every lazy image before it lays out the pages (test_print_edition.py checks
            # that each figure's drawing is painted in the PDF).
            if name == "data-live":  # nothing here asks Python: no figure of this page is live
                continue
            if value is not None:
                if name == "id" or (name == "name" and tag == "input"):  # a radio group is one chapter's
                    value = self.prefix + value
                elif name in ID_REFS:
                    value = " ".join(self.prefix + v for v in value.split())
                elif name == "href" and tag == "a":
                    value = self._href(value)
            parts.append(name if value is None else f'{name}="{html.escape(value)}"')
        if tag == "details" and "open" not in names:
            parts.append("open")
        return "<" + " ".join(parts) + close

    def _dropped(self, tag: str, attrs: list) -> bool:
        classes = (dict(attrs).get("class") or "").split()
        return tag == "script" or (tag == "div" and "figure-view" in classes)

    def handle_starttag(self, tag, attrs):
        if self.skip or self._dropped(tag, attrs):
            if tag not in VOID:
                self.skip.append(tag)
            return
        self.out.append(self._tag(tag, attrs, ">"))

    def handle_startendtag(self, tag, attrs):
        if not self.skip and not self._dropped(tag, attrs):
            self.out.append(self._tag(tag, attrs, " />" if tag not in VOID else ">"))

    def handle_endtag(self, tag):
        if self.skip:
            if self.skip[-1] == tag:
                self.skip.pop()
            return
        self.out.append(f"</{tag}>")

    def _raw(self, text: str) -> None:
        if not self.skip:
            self.out.append(text)

    def handle_data(self, data):
        self._raw(data)

    def handle_entityref(self, name):
        self._raw(f"&{name};")

    def handle_charref(self, name):
        self._raw(f"&#{name};")

    def handle_comment(self, data):
        self._raw(f"<!--{data}-->")

    def handle_decl(self, decl):
        self._raw(f"<!{decl}>")

    def unknown_decl(self, data):
        self._raw(f"<![{data}]>")


def static_chapter(chapter_html: str, number: int, pages: dict[str, str]) -> str:
    """A chapter's HTML for the print edition; `pages` maps each page this one holds (a chapter's
    `NN-slug.html`, `bibliography.html`) to the prefix of its ids here."""
    parser = _Static(f"{chapter_anchor(number)}-", pages)
    parser.feed(chapter_html)
    parser.close()
    return "".join(parser.out)


def chromium() -> Path | None:
    return CHROMIUM if CHROMIUM.is_file() else None


def _undated(pdf: bytes) -> bytes:
    """The PDF without the time it was made: Skia dates it, so two builds of the same sources would
    differ (and the site's hash with them). Blanked with spaces of the same length, so every offset
    in the file's cross-reference table still holds."""
    return re.sub(rb"/(?:CreationDate|ModDate) \(D:[0-9+\-Z']*\)", lambda m: b" " * len(m.group()), pdf)


def print_pdf(files: dict[str, bytes], browser: Path) -> bytes:
    """The PDF of print.html as Chromium prints it, from a folder holding the page and what it
    loads (its stylesheets, fonts and drawings; nothing else of the site is needed)."""
    with tempfile.TemporaryDirectory(prefix="attention-print-") as tmp:
        folder = Path(tmp)
        for rel, data in files.items():
            if rel == PAGE or rel.startswith("figures/") or (rel.startswith("assets/") and rel.endswith((".css", ".woff2"))):
                (folder / rel).parent.mkdir(parents=True, exist_ok=True)
                (folder / rel).write_bytes(data)
        out = folder / "print.pdf"
        # --allow-file-access-from-files: the page's font is a file:// URL, which Chromium otherwise
        # refuses to fonts. The profile folder keeps a build from touching the user's Chromium.
        args = [str(browser), "--headless", "--no-sandbox", "--disable-gpu", "--no-pdf-header-footer",
                "--allow-file-access-from-files", f"--user-data-dir={folder / 'profile'}",
                "--generate-pdf-document-outline", f"--print-to-pdf={out}", (folder / PAGE).as_uri()]
        try:
            done = subprocess.run(args, capture_output=True, text=True, timeout=300)
        except (OSError, subprocess.TimeoutExpired) as err:
            raise BuildError(browser, None, f"could not print the print edition: {err}") from None
        if done.returncode != 0 or not out.is_file():
            last = (done.stderr.strip().splitlines() or ["no output"])[-1][:200]
            raise BuildError(browser, None, f"printing the print edition failed (exit {done.returncode}): {last}")
        pdf = out.read_bytes()
        shutil.rmtree(folder / "profile", ignore_errors=True)
    return _undated(pdf)
