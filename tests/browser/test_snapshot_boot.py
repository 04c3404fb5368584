"""Python's start-up snapshot (builder/snapshot.py) in the real worker, with real numpy: a snapshot
that does not fit this core, or does not arrive, leaves an ordinary boot whose figures compute what
the engine computes on CPython, and one line in the console saying why. The boot that restores it is
every reader's: test_real_python.py's series read checks it (boot_restored_the_snapshot). Needs a
Pyodide distribution with numpy (conftest.pyodide_kit)."""
from __future__ import annotations

import gzip
import json

import pytest

from tests.site_layout import runtime_config

from .conftest import expect
from .test_real_python import JOB_MS, Reader, _ask, _check_answers

CHAPTER = "04-scores-to-weights.html"
FIGURE = "softmax-temperature"


def boot_restored_the_snapshot(reader: Reader, site) -> None:
    """The page's one boot restored the build's snapshot, before the engine loaded, with no warning."""
    config = runtime_config(site)
    assert config["snapshot"].startswith("snapshot.") and (site / config["indexURL"] / config["snapshot"]).is_file()
    (boot,) = _boots(reader)
    assert "boot:restored" in boot and "boot:snapshot-failed" not in boot, boot
    assert boot.index("boot:snapshot") < boot.index("boot:restored") < boot.index("boot:engine"), boot
    assert not [w for w in reader.warnings if "snapshot" in w], reader.warnings


def _boots(reader: Reader) -> list[list[str]]:
    """The boot marks of each worker of the page that booted Python (worker.js)."""
    marks = [w.evaluate("performance.getEntriesByType('mark').map((m) => m.name)") for w in reader.page.workers]
    return [[m for m in names if m.startswith("boot:")] for names in marks if "boot:start" in names]


def _live_and_right(reader: Reader) -> None:
    """The reader's change to the first figure is drawn from the worker, with CPython's numbers."""
    figure = reader.page.locator(f'[data-figure="{FIGURE}"]')
    figure.scroll_into_view_if_needed()
    _ask(figure, FIGURE, json.loads(figure.locator(".figure-data").text_content()))
    expect(figure).to_have_attribute("data-state", "live", timeout=JOB_MS)
    assert _check_answers(reader, CHAPTER) >= 1


@pytest.mark.parametrize("served", ["another core's", "missing"])
def test_a_snapshot_that_cannot_be_used_leaves_an_ordinary_boot(new_context, real_site, served):
    context = new_context(bypass_csp=False, viewport={"width": 1200, "height": 800})
    if served == "missing":
        context.route("**/snapshot.*.bin.gz", lambda route: route.fulfill(status=404, body="not here"))
    else:  # a snapshot of the right form from another build of Pyodide: its build id differs
        config = runtime_config(real_site["out"])
        real = real_site["out"] / config["indexURL"] / config["snapshot"]
        raw = bytearray(gzip.decompress(real.read_bytes()))
        raw[16:48] = bytes(32)  # the build id's place in Pyodide's snapshot header
        context.route("**/snapshot.*.bin.gz", lambda route: route.fulfill(status=200, body=gzip.compress(bytes(raw)),
                                                                           content_type="application/gzip"))
    reader = Reader(new_context, real_site["url"] + CHAPTER, context=context)  # routed before the page opens
    reader.boot()
    (boot,) = _boots(reader)
    assert "boot:snapshot-failed" in boot and "boot:restored" not in boot, boot
    _live_and_right(reader)
    said = [w for w in reader.warnings if "snapshot" in w]
    assert said and all("\n" not in w for w in said), reader.warnings
    # A 404 is the browser's own console error about the request; nothing else may be.
    reader.console = [c for c in reader.console if not ("404" in c and served == "missing")]
    reader.assert_clean(f"{CHAPTER} with a snapshot {served}")
    context.close()
