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


def build_one_chapter(tmp_path: Path, markdown: str) -> Path:
    """Build a one-chapter site from `markdown` into tmp_path/dist (no Pyodide folder) and return it."""
    from builder.build import build

    out = tmp_path / "dist"
    build(paths_for(one_chapter_site(tmp_path / "content", markdown)), out, pyodide_dist=None)
    return out


def assert_one_error(tmp_path: Path, markdown: str, line: int, message: str) -> None:
    """Building `markdown` fails with one error at `line` that says `message`."""
    import pytest

    from builder.errors import BuildError

    with pytest.raises(BuildError) as err:
        build_one_chapter(tmp_path, markdown)
    assert err.value.line == line and message in str(err.value), str(err.value)
