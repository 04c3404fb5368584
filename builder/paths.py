"""Where a build reads: the repository's tree and the content folder it is pointed at. Every location
of an input comes from here, so a test or a tool can point a build at another theme or content."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Paths:
    root: Path  # the repository
    content: Path
    theme: Path
    engine: Path  # packaged as the wheel the pages load
    node_modules: Path
    cache: Path  # what builds keep between runs on disk (the editor's bundle)
    pyodide_cli: Path  # pyodide-build's `pyodide`, in the venv `python3 dev.py setup` makes

    @classmethod
    def at(cls, root: Path, content: Path | None = None) -> "Paths":
        return cls(root, content or root / "content", root / "theme", root / "engine", root / "node_modules",
                   root / ".cache", root / ".venv-pyodide" / "bin" / "pyodide")

    @property
    def palette(self) -> Path:
        return self.theme / "palette.toml"
