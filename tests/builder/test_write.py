"""The write phase: the output folder is swapped whole, never missing, never half written; killed
builds leave leftovers that the next build removes; a second build waits for the first."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from builder import swap
from builder.build import Site, write
from tests.conftest import ROOT

PAGES = 60  # files per test site

# A build in another process: writes a site whose every page says `text`, optionally pausing
# mid-write or right after the swap (before the old site is removed): it touches `marker`, then
# waits until `release` exists.
BUILD = """
import pathlib, sys, time
from builder import build, swap
out, text, hold, marker, release = sys.argv[1:6]
pages = {f"pages/{i:03d}.html": text.encode() for i in range(int(sys.argv[6]))}
site = build.Site(files={"index.html": text.encode(), **pages})

def pause():
    pathlib.Path(marker).touch()
    while not pathlib.Path(release).exists():
        time.sleep(0.02)

if hold == "write":
    real_write, count = pathlib.Path.write_bytes, [0]
    def write_bytes(self, data):
        count[0] += 1
        if count[0] == len(pages) // 2:
            pause()
        return real_write(self, data)
    pathlib.Path.write_bytes = write_bytes
elif hold == "swapped":
    real_swap = swap.swap_in
    def swap_in(new, out):
        old = real_swap(new, out)
        pause()
        return old
    swap.swap_in = swap_in
build.write(site, pathlib.Path(out))
"""

# Opens index.html and the last page over and over until `stop` exists, touching `missed` at
# the first miss; prints misses and reads.
READER = """
import os, sys
paths, stop, missed = sys.argv[1:3], sys.argv[3], sys.argv[4]
misses = reads = 0
while not os.path.exists(stop):
    for _ in range(200):
        for p in paths:
            try:
                os.close(os.open(p, os.O_RDONLY))
            except FileNotFoundError:
                misses += 1
                if misses == 1:
                    open(missed, "w").close()
        reads += 1
print(misses, reads)
"""

needs_exchange = pytest.mark.skipif(
    swap._renameat2 is None, reason="no renameat2 on this system (Linux with glibc 2.28+ has it): "
                                    "builds fall back to two renames, whose window these tests would see")


def _site(text: str) -> Site:
    return Site(files={"index.html": text.encode(),
                       **{f"pages/{i:03d}.html": text.encode() for i in range(PAGES)}})


def _assert_whole(out: Path, text: str) -> None:
    names = sorted(p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file())
    assert names == sorted(_site(text).files), f"{out} holds {len(names)} files"
    assert {p.read_text() for p in out.rglob("*.html")} == {text}


def _build_process(out: Path, text: str, hold: str = "none", marker: Path | None = None, release: Path | None = None):
    return subprocess.Popen([sys.executable, "-c", BUILD, str(out), text, hold, str(marker), str(release), str(PAGES)],
                            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)


def _wait_for(path: Path, proc, seconds: float = 30) -> None:
    deadline = time.monotonic() + seconds
    while not path.exists():
        assert proc.poll() is None, proc.communicate()[0]
        assert time.monotonic() < deadline, f"{path} never appeared"
        time.sleep(0.02)


class Reader:
    """A process that keeps opening two files of the site while builds swap it."""

    def __init__(self, out: Path):
        self.stop, self.missed = out.parent / "stop-reading", out.parent / "missed"
        self.proc = subprocess.Popen(
            [sys.executable, "-c", READER, str(out / "index.html"), str(out / f"pages/{PAGES - 1:03d}.html"),
             str(self.stop), str(self.missed)], stdout=subprocess.PIPE, text=True)

    def finish(self) -> tuple[int, int]:
        self.stop.touch()
        misses, reads = map(int, self.proc.communicate(timeout=30)[0].split())
        assert reads > 0
        return misses, reads


def test_a_build_replaces_the_site_whole_and_leaves_only_its_lock(tmp_path):
    out = tmp_path / "dist"
    write(Site(files={"index.html": b"old", "gone.html": b"old"}), out)
    write(_site("new"), out)
    _assert_whole(out, "new")
    assert sorted(p.name for p in tmp_path.iterdir()) == [".dist.lock", "dist"]


@pytest.mark.parametrize("hold", ["write", "swapped"])
def test_a_killed_build_leaves_leftovers_that_the_next_build_removes(tmp_path, hold):
    out, marker = tmp_path / "dist", tmp_path / "paused"
    write(_site("first"), out)
    proc = _build_process(out, "killed", hold, marker, release=tmp_path / "never")
    _wait_for(marker, proc)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait(timeout=10)
    left = swap.leftovers(out)
    assert left, "the killed build left nothing behind: the test did not kill it mid-build"
    _assert_whole(out, "killed" if hold == "swapped" else "first")

    write(_site("next"), out)
    _assert_whole(out, "next")
    assert swap.leftovers(out) == [] and not any(p.exists() for p in left)


@needs_exchange
def test_concurrent_builds_take_turns_and_the_site_is_always_whole(tmp_path):
    out, marker, release = tmp_path / "dist", tmp_path / "paused", tmp_path / "release"
    write(_site("zero"), out)
    reader = Reader(out)
    first = _build_process(out, "one", "write", marker, release)
    _wait_for(marker, first)  # the first build holds the lock, half written
    second = _build_process(out, "two")
    said = second.stdout.readline()
    assert "another build is writing" in said and "waiting" in said, said
    release.touch()
    assert first.wait(timeout=60) == 0, first.communicate()[0]
    assert second.wait(timeout=60) == 0, second.communicate()[0]
    _assert_whole(out, "two")  # the second build, which waited, wrote last
    misses, reads = reader.finish()
    assert misses == 0, f"the site was missing {misses} times in {reads} reads"
    assert swap.leftovers(out) == []


@needs_exchange
def test_a_reader_never_finds_the_site_missing_during_swaps(tmp_path):
    out = tmp_path / "dist"
    write(_site("0"), out)
    reader = Reader(out)
    for i in range(1, 101):
        write(_site(str(i)), out)
    misses, reads = reader.finish()
    assert misses == 0, f"the site was missing {misses} times in {reads} reads"
    _assert_whole(out, "100")


def test_the_two_rename_fallback_has_the_window_the_reader_sees(tmp_path, monkeypatch):
    """Where renameat2 is missing, builds still swap whole sites; the reader above does see the
    moment between the two renames, so it would catch an exchange that was not atomic."""
    monkeypatch.setattr(swap, "_renameat2", None)
    out = tmp_path / "dist"
    write(_site("0"), out)
    reader = Reader(out)
    swaps = 0
    while swaps < 500 and not reader.missed.exists():
        swaps += 1
        write(_site(str(swaps)), out)
    misses, reads = reader.finish()
    assert misses > 0, f"no miss in {reads} reads over {swaps} two-rename swaps"
    _assert_whole(out, str(swaps))
    assert swap.leftovers(out) == []
