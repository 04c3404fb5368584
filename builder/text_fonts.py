"""The series' own faces: Source Serif 4 for reading, Source Sans 3 for headings and controls.

Without faces of its own the book took whatever the reader's system had (Charter or Georgia on
some, Liberation or DejaVu on others), so no two readers saw the same page. Both families are
Adobe's, under the SIL Open Font License, and come from Fontsource's npm packages (maintained,
pinned in package-lock.json, one woff2 per weight, style and script), not from files copied into
the repository. The site serves their Latin files as the packages ship them, with the licence
beside them: the licence reserves the name "Source", so a subset of our own making would have to
be renamed, and cut further to the pages' characters it saved about a fifth (a few kilobytes a face).
site.css declares them with font-display: swap, so text is never hidden while a face loads.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

FOLDER = "assets/fonts"


@dataclass(frozen=True)
class Face:
    family: str  # the name site.css gives it: ours, so it never stands in for a reader's full font
    package: str  # the Fontsource package under node_modules/@fontsource
    weight: int
    style: str  # normal or italic
    metrics: str = ""  # CSS font metric overrides (SANS_METRICS), or none

    @property
    def name(self) -> str:
        """Its file's name, in the package and on the site."""
        return f"{self.package}-latin-{self.weight}-{self.style}.woff2"


TEXT, SANS = "Series Text", "Series Sans"
# Source Sans 3's line box is 1.42 em (ascent 1.024, descent 0.4), a fifth taller than the system faces
# the figures were laid out with (Roboto and DejaVu Sans: 1.17): a figure's labels, a line apart at
# 12 px, then had boxes that overlap where their letters do not, and controls of `line-height: normal`
# grew. Its letters fit in 0.93 above the baseline and 0.27 below (accented capitals, descenders,
# brackets), so the face's box is set to that; browsers without the overrides (Safari) keep the
# taller box, which changes spacing, never what is drawn. The prose's line height is set in site.css.
SANS_METRICS = "ascent-override: 93%; descent-override: 27%; line-gap-override: 0%; "
FACES = (
    Face(TEXT, "source-serif-4", 400, "normal"),
    Face(TEXT, "source-serif-4", 400, "italic"),
    Face(TEXT, "source-serif-4", 700, "normal"),
    Face(TEXT, "source-serif-4", 700, "italic"),
    Face(SANS, "source-sans-3", 400, "normal", SANS_METRICS),
    Face(SANS, "source-sans-3", 600, "normal", SANS_METRICS),
    Face(SANS, "source-sans-3", 700, "normal", SANS_METRICS),
)
PRELOADED = FACES[0]  # the reading face: every page's first text is in it (theme/templates/base.html)


def files(node_modules: Path) -> dict[str, Path]:
    """Site path -> the package's file: every face, and each package's licence."""
    packages = {f.package for f in FACES}
    out = {f"{FOLDER}/{f.name}": node_modules / "@fontsource" / f.package / "files" / f.name for f in FACES}
    out |= {f"{FOLDER}/{p}-LICENSE.txt": node_modules / "@fontsource" / p / "LICENSE" for p in sorted(packages)}
    return out


def css() -> str:
    """site.css's @font-face rules for FACES (the stylesheet lies in assets/css, the faces in assets/fonts)."""
    return "".join(f'@font-face {{ font-family: "{f.family}"; src: url("../fonts/{f.name}") format("woff2"); '
                   f"font-weight: {f.weight}; font-style: {f.style}; {f.metrics}font-display: swap; }}\n" for f in FACES)
