"""The site's icon, drawn from the palette: three bars of attention weights in the query, key and
value colours. One small SVG that every page links, so no browser asks for a missing favicon.ico."""
from __future__ import annotations

PATH = "assets/favicon.svg"


def favicon_svg(colours: dict[str, str]) -> bytes:
    bars = (("query", 14, 18), ("key", 27, 8), ("value", 40, 26))  # (role, x, height of the gap above)
    rects = "".join(f'<rect x="{x}" y="{6 + gap}" width="10" height="{52 - gap}" rx="2" fill="{colours[role]}"/>'
                    for role, x, gap in bars)
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64">'
            f'<rect width="64" height="64" rx="12" fill="{colours["surface"]}"/>{rects}</svg>\n').encode()
