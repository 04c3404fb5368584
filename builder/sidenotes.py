"""Markdown footnotes ([^name]) published as sidenotes: in the margin on wide screens, a
numbered toggle that opens the note in place on narrow ones, inline text in print.

Python-Markdown's footnotes extension (part of `extra`) parses the notes; this moves each
note next to its reference. The toggle is a real checkbox, so it works from the keyboard
and without JavaScript; the note's text stays in the paragraph for screen readers.
"""
from __future__ import annotations

import xml.etree.ElementTree as etree

from markdown.extensions import Extension
from markdown.extensions.footnotes import NBSP_PLACEHOLDER
from markdown.treeprocessors import Treeprocessor

from .errors import clip


class SidenoteError(Exception):
    """A note that cannot sit in a paragraph; `.name` is its footnote label, for the error line."""

    def __init__(self, name: str, message: str):
        super().__init__(message)
        self.name = name


def _parents(root: etree.Element) -> dict:
    return {child: parent for parent in root.iter() for child in parent}


def _remove(parent: etree.Element, child: etree.Element) -> None:
    """Remove child, keeping the text that follows it."""
    i = list(parent).index(child)
    if child.tail:
        if i:
            parent[i - 1].tail = (parent[i - 1].tail or "") + child.tail
        else:
            parent.text = (parent.text or "") + child.tail
    parent.remove(child)


def _strip_end(el: etree.Element) -> None:
    """Drop the space the footnotes extension puts before its back-link."""
    def strip(text):
        return (text or "").replace(NBSP_PLACEHOLDER, "").rstrip()

    if len(el):
        el[-1].tail = strip(el[-1].tail) or None
    else:
        el.text = strip(el.text)


def _note_content(li: etree.Element, name: str) -> list[etree.Element]:
    """The note's paragraphs as block-styled spans (a <p> cannot sit inside a <p>)."""
    spans = []
    for child in li:
        if child.tag != "p":
            raise SidenoteError(name, f"note [^{clip(name, 40)}] holds a <{child.tag}>: sidenotes can hold "
                                      "paragraphs and inline text only")
        for a in [a for a in child if a.tag == "a" and a.get("class") == "footnote-backref"]:
            _remove(child, a)
        _strip_end(child)
        child.tag = "span"
        child.set("class", "sidenote-para")
        child.tail = None
        spans.append(child)
    return spans


class _SidenoteTreeprocessor(Treeprocessor):
    def run(self, root: etree.Element) -> None:
        parents = _parents(root)
        box = next((el for el in root.iter("div") if el.get("class") == "footnote"), None)
        if box is None:
            return
        notes = {li.get("id", "")[3:]: li for li in box.iter("li") if li.get("id", "").startswith("fn:")}
        for sup in list(root.iter("sup")):
            ref_id = sup.get("id", "")
            if not ref_id.startswith("fnref") or len(sup) != 1:
                continue
            a = sup[0]
            number = a.text
            name = a.get("href", "")[len("#fn:"):]
            li = notes.get(name)
            if li is None:
                continue
            toggle = f"sn-toggle-{number}"
            wrapper = etree.Element("span", {"class": "sidenote-wrap"})
            etree.SubElement(wrapper, "input", {"type": "checkbox", "id": toggle, "class": "sidenote-toggle"})
            label = etree.SubElement(wrapper, "label", {"for": toggle, "class": "sidenote-number",
                                                       "id": f"sn-ref-{number}"})
            label.text = number
            hidden = etree.SubElement(label, "span", {"class": "visually-hidden"})
            hidden.text = f" (note {number})"
            note = etree.SubElement(wrapper, "span", {"class": "sidenote", "id": f"sn-{number}",
                                                      "role": "note"})
            mark = etree.SubElement(note, "span", {"class": "sidenote-mark", "aria-hidden": "true"})
            mark.text = number + " "
            note.extend(_note_content(li, name))
            wrapper.tail = sup.tail
            parent = parents[sup]
            parent[list(parent).index(sup)] = wrapper
        parents[box].remove(box)


class SidenotesExtension(Extension):
    def extendMarkdown(self, md):
        md.registerExtension(self)
        md.treeprocessors.register(_SidenoteTreeprocessor(md), "attention_sidenotes", 10)
