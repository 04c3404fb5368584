"""Jinja environment for theme/templates: strict undefined and autoescape, so a typo fails the build."""
from __future__ import annotations

import functools
from pathlib import Path

import jinja2

THEME = Path(__file__).resolve().parents[1] / "theme"  # the repository's


def environment(theme_dir: Path) -> jinja2.Environment:
    return jinja2.Environment(
        loader=jinja2.FileSystemLoader(theme_dir / "templates"),
        undefined=jinja2.StrictUndefined,
        autoescape=jinja2.select_autoescape(["html"]),
        keep_trailing_newline=True,
    )


@functools.cache
def default_environment() -> jinja2.Environment:
    """The repository's theme, for a chapter rendered on its own (tests, tools): its templates
    compiled once per process."""
    return environment(THEME)


def stamp(templates: jinja2.Environment, folder: str = "directives") -> tuple:
    """The templates of `folder` as they are on disk (name, time, size): what rendered with other
    ones is rendered again (`serve` keeps chapters' HTML across builds)."""
    found = []
    for base in templates.loader.searchpath:
        for path in sorted((Path(base) / folder).glob("*.html")):
            st = path.stat()
            found.append((path.name, st.st_mtime_ns, st.st_size))
    return tuple(found)
