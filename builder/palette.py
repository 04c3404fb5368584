"""The one palette (theme/palette.toml): CSS custom properties for the pages, colours for matplotlib."""
from __future__ import annotations

import re
import tomllib
from pathlib import Path

from .errors import BuildError

PALETTE = Path(__file__).resolve().parents[1] / "theme" / "palette.toml"
RE_NAME = re.compile(r"^[a-z][a-z0-9-]*$")
RE_COLOUR = re.compile(r"^#[0-9a-fA-F]{6}$")


def load(path: Path = PALETTE) -> dict[str, str]:
    """Colour role -> '#rrggbb'; a malformed table is a BuildError at the palette file."""
    try:
        colours = tomllib.loads(path.read_text(encoding="utf-8"))["colours"]
    except (OSError, KeyError, tomllib.TOMLDecodeError) as err:
        raise BuildError(path, None, f"cannot read the palette: {err}") from None
    for name, value in colours.items():
        if not RE_NAME.match(name) or not isinstance(value, str) or not RE_COLOUR.match(value):
            raise BuildError(path, None, f"palette entry {name[:40]!r} must be a lowercase name = \"#rrggbb\"")
    return colours


def css(colours: dict[str, str]) -> str:
    """The palette as custom properties on :root, for site.css."""
    props = "".join(f"  --{name}: {value};\n" for name, value in colours.items())
    return f"/* theme/palette.toml */\n:root {{\n{props}}}\n"
