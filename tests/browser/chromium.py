"""Debian's Chromium as the browser tests and the benchmarks launch it: never downloaded, and
without the browser features no page here uses, which cost every new context CPU time."""
from __future__ import annotations

from builder.print_edition import CHROMIUM  # the one the print edition prints with: /usr/bin/chromium

ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
# Chromium gives every new window, so every browser context, an address-bar popup drawn by a renderer
# of its own: the tests never use it and open hundreds of contexts a run.
NOT_NEEDED_FEATURES = ("WebUIOmniboxPopup", "WebUIOmniboxAimPopup")


def launch(pw, *args: str):
    """Chromium under Playwright `pw` (a sync Playwright), with ARGS, `args`, and the features not needed off."""
    return pw.chromium.launch(executable_path=str(CHROMIUM), args=[*ARGS, _disable_features(pw), *args])


def _disable_features(pw) -> str:
    """The --disable-features switch for NOT_NEEDED_FEATURES and those Playwright disables: it passes
    its own, and Chromium keeps only a switch's last value. Its list is read from a first launch's
    command line (which Chromium shows to automation)."""
    probe = pw.chromium.launch(executable_path=str(CHROMIUM), args=[*ARGS, "--enable-automation"])
    try:
        line = probe.new_browser_cdp_session().send("Browser.getBrowserCommandLine")["arguments"]
    finally:
        probe.close()
    playwrights = [f for arg in line if arg.startswith("--disable-features=") for f in arg.split("=", 1)[1].split(",")]
    assert playwrights, f"Playwright no longer disables any Chromium feature: {line}"
    return "--disable-features=" + ",".join(dict.fromkeys([*playwrights, *NOT_NEEDED_FEATURES]))
