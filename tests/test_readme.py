"""The README as a newcomer reads it: two commands to start, then how to write a chapter and a
figure, with the long reference parts in docs/ files that exist."""
from __future__ import annotations

import re

from tests.conftest import ROOT

README = (ROOT / "README.md").read_text()


def _section(title: str) -> str:
    m = re.search(rf"^## {re.escape(title)}\n(.*?)(?=^## )", README, re.M | re.S)
    assert m, f"no section '## {title}'"
    return m.group(1)


def test_the_quick_start_is_two_commands_then_chapter_then_figure():
    headings = re.findall(r"^## (.+)$", README, re.M)
    assert headings[:3] == ["Quick start", "Writing a chapter", "Writing a figure"], headings
    block = re.search(r"```sh\n(.*?)```", _section("Quick start"), re.S).group(1)
    assert block.strip().splitlines() == ["python3 dev.py build", "python3 dev.py test"]


def test_writing_a_figure_starts_from_new_figure_and_fits_a_screen():
    section = _section("Writing a figure")
    first = re.search(r"```sh\n(.*?)```", section, re.S).group(1).strip()
    assert first.startswith("python3 dev.py new-figure ")
    assert len(section.strip().splitlines()) <= 45


def test_every_linked_doc_exists():
    links = set(re.findall(r"\]\((docs/[^)#]+)\)", README))
    assert links >= {"docs/figures.md", "docs/runtime.md", "docs/trust.md"}
    for link in links:
        assert (ROOT / link).is_file(), link
