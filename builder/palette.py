"""The one palette (theme/palette.toml): CSS custom properties for the pages, colours for matplotlib,
in a light scheme and a dark one (prefers-color-scheme: dark)."""
from __future__ import annotations

import re
import tomllib
from pathlib import Path

from .errors import BuildError

RE_NAME = re.compile(r"^[a-z][a-z0-9-]*$")
RE_COLOUR = re.compile(r"^#[0-9a-fA-F]{6}$")


def _table(path: Path, name: str) -> dict[str, str]:
    try:
        colours = tomllib.loads(path.read_text(encoding="utf-8"))[name]
    except (OSError, KeyError, tomllib.TOMLDecodeError) as err:
        raise BuildError(path, None, f"cannot read the palette: {err}") from None
    for role, value in colours.items():
        if not RE_NAME.match(role) or not isinstance(value, str) or not RE_COLOUR.match(value):
            raise BuildError(path, None, f"palette entry {role[:40]!r} must be a lowercase name = \"#rrggbb\"")
    return colours


def load(path: Path) -> dict[str, str]:
    """Colour role -> '#rrggbb' in the light scheme; a malformed table is a BuildError at the palette file."""
    return _table(path, "colours")


def load_dark(path: Path) -> dict[str, str]:
    """The dark scheme's colours: the light scheme's roles, every one of them, and no other."""
    light, dark = load(path), _table(path, "dark")
    if set(dark) != set(light):
        missing, extra = sorted(set(light) - set(dark)), sorted(set(dark) - set(light))
        raise BuildError(path, None, f"[dark] must give every role of [colours] and no other "
                                     f"(missing: {', '.join(missing) or 'none'}; unknown: {', '.join(extra) or 'none'})")
    return dark


def _props(colours: dict[str, str], indent: str) -> str:
    return "".join(f"{indent}--{name}: {value};\n" for name, value in colours.items())


def css(colours: dict[str, str], dark: dict[str, str] | None = None) -> str:
    """The palette as custom properties on :root, for site.css, with the dark scheme's in a media query."""
    out = f"/* theme/palette.toml */\n:root {{\n{_props(colours, '  ')}}}\n"
    if dark:
        out += ("@media (prefers-color-scheme: dark) {\n  :root {\n" + _props(dark, "    ") + "  }\n}\n")
    return out
