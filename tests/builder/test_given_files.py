"""A figure whose model reads a file made from the series' prose (its GIVEN, engine/given.py): the
build gives the model that file, ships it at an address named by its content, and tells the figure's
element that address; new prose, new file, new address."""
import json
import re

from engine import given
from engine.figures import two_heads

from .helpers import build_one_chapter

CHAPTER = """\
# Reading

Some prose the model reads.

/// figure | two-heads
Two heads.
///
"""


def made_from_the_prose(series: bytes) -> bytes:
    return b"made from: " + series


def test_a_figure_that_reads_the_prose_ships_the_file_made_from_it(tmp_path, monkeypatch):
    read = []
    compute = two_heads.compute
    monkeypatch.setattr(two_heads, "GIVEN", ("made",), raising=False)
    monkeypatch.setattr(two_heads, "compute", lambda p, files: read.append(files["made"]) or compute(p))
    monkeypatch.setattr(two_heads, "facts", lambda p, data, files: {}, raising=False)
    monkeypatch.setattr(given, "MADE", {"made": f"{__name__}:made_from_the_prose"})
    addresses = []
    for prose in ("Some prose the model reads.", "Other prose."):
        out = build_one_chapter(tmp_path / prose[:4], CHAPTER.replace("Some prose the model reads.", prose))
        page = (out / "01-test.html").read_text()
        found = json.loads(re.search(r'data-given="([^"]*)"', page).group(1).replace("&quot;", '"'))
        assert list(found) == ["made"]
        address = found["made"]
        assert re.fullmatch(r"files/made-[0-9a-f]{12}\.bin", address)
        shipped = (out / address).read_bytes()
        assert shipped.startswith(b"made from: ") and prose.encode() in shipped
        assert read[-1] == shipped  # the model computed from the file the page ships
        addresses.append(address)
    assert addresses[0] != addresses[1]
