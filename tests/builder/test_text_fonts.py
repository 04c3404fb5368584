"""The series' text faces (builder/text_fonts.py): served as the packages ship them, with their licence,
and declared in site.css exactly as the build serves them."""
import re

from fontTools.ttLib import TTFont

from builder.text_fonts import FACES, PRELOADED


def test_the_site_serves_every_face_with_its_licence_and_its_stylesheet_declares_each_one(series_build):
    _, out = series_build
    css = next(out.glob("assets/*/css/site.css")).read_text()
    declared = re.findall(r'@font-face \{ font-family: "([^"]+)"; src: url\("\.\./fonts/([^"]+)"\) format\("woff2"\); '
                          r"font-weight: (\d+); font-style: (\w+); ((?:[a-z-]+-override: \d+%; )*)font-display: swap; \}", css)
    assert sorted(declared) == sorted((f.family, f.name, str(f.weight), f.style, f.metrics) for f in FACES)
    fonts = next(out.glob("assets/*/fonts"))
    for face in FACES:
        font = TTFont(fonts / face.name)
        assert font.flavor == "woff2" and all(ord(c) in font.getBestCmap() for c in "Why attention “it” — 0.97"), face
        assert "OFL" in font["name"].getDebugName(14)
    for package in {f.package for f in FACES}:
        assert "SIL Open Font License" in (fonts / f"{package}-LICENSE.txt").read_text()
    chapter = (out / "01-why-attention.html").read_text()
    assert re.search(rf'<link rel="preload" href="assets/[^/]+/fonts/{re.escape(PRELOADED.name)}" as="font"', chapter)
