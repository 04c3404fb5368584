"""Jinja environment for theme/templates: strict undefined and autoescape, so a typo fails the build."""
from __future__ import annotations

from pathlib import Path

import jinja2


def environment(theme_dir: Path) -> jinja2.Environment:
    return jinja2.Environment(
        loader=jinja2.FileSystemLoader(theme_dir / "templates"),
        undefined=jinja2.StrictUndefined,
        autoescape=jinja2.select_autoescape(["html"]),
        keep_trailing_newline=True,
    )
