"""Helpers for builder tests: write a one-chapter site and build or check it in-process."""
from __future__ import annotations

import textwrap
from pathlib import Path

from builder.build import Paths
from tests.conftest import ROOT


def one_chapter_site(folder: Path, markdown: str, name: str = "01-test.md") -> Path:
    """A content folder with site.toml naming one chapter holding `markdown`."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "site.toml").write_text(f'[site]\ntitle = "Test"\n\n[[chapters]]\nfile = "{name}"\n')
    (folder / name).write_text(textwrap.dedent(markdown).lstrip())
    return folder


def paths_for(content: Path) -> Paths:
    return Paths.at(ROOT, content)
