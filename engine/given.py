"""What the host gives the engine that no figure option can carry: the series' own prose, and files
the build made from it (chapter 14's trained weights). The build gives them from the chapters
(builder/build.py); in the page, the worker fetches a figure's files from the site and gives them
before that figure's first request (theme/runtime/server.js), so a model reads them one way."""
from __future__ import annotations

import hashlib
import importlib

SERIES = "series"  # the series' prose, UTF-8: builder/corpus.py's text, which chapter 14's model learns

# Files the build makes from what it was given, and the function (module:name, called with no
# arguments) that makes each: a figure model lists the ones it reads in GIVEN, and the build ships
# them beside the pages, named by their content, for the worker to fetch when the figure asks.
MADE = {"writing-model": "engine.tasks.writing:model_file"}

# Each value is held with its digest, hashed once when it is given or made: the figure cache asks for
# the prose's on every lookup (tens of times a build), and the prose and the model are hundreds of KB.
_given: dict[str, tuple[bytes, str]] = {}  # what the host gave, and its digest
_made: dict[tuple[str, str], tuple[bytes, str]] = {}  # (name, the prose's digest) -> the file made from it, and its digest
KEEP_MADE = 4  # a test run's process switches between the series and small test chapters: no retraining
_drafting = False  # keep_made(): a made file outlives edits to the prose


def give(name: str, data: bytes) -> None:
    """Hand the engine `data` under `name`, replacing what it held (serve gives each rebuild's
    prose). New prose drops any made file given earlier: it was made from other prose."""
    data = bytes(data)
    if name == SERIES:
        for made in MADE:
            _given.pop(made, None)
    _given[name] = (data, _hash(data))


def give_file(name: str, path: str) -> None:
    """give() from a file: how the page's worker hands over what it fetched."""
    with open(path, "rb") as f:
        give(name, f.read())


def get(name: str) -> bytes:
    """What was given under `name`; a file the build makes, made from the prose it was given."""
    return _held(name)[0]


def _hash(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()[:12]


def _held(name: str) -> tuple[bytes, str]:
    """What `name` holds and its digest; a made file is made on the first ask."""
    if name in _given:
        return _given[name]
    if name in MADE and SERIES in _given:
        key = (name, digest(SERIES))
        if key not in _made and _drafting and (kept := [v for (n, _), v in _made.items() if n == name]):
            return kept[-1]
        if key not in _made:
            module, function = MADE[name].split(":")
            made = getattr(importlib.import_module(module), function)()
            if len(_made) >= KEEP_MADE:
                del _made[next(iter(_made))]  # the oldest
            _made[key] = (made, _hash(made))
        return _made[key]
    raise LookupError(f"the engine was not given '{name}'")


def keep_made(drafting: bool = True) -> None:
    """While an author drafts (`serve`), a file made from the prose stays in use when the prose
    changes, rather than being made again on every save (chapter 14's model: seconds of training
    for a sentence); it is made anew when its code changes (forget_made). A build makes it from the
    prose as it is."""
    global _drafting
    _drafting = drafting


def forget_made() -> None:
    """Drop every file made so far: the code that makes them changed (serve reloaded it)."""
    _made.clear()


def made() -> dict[tuple[str, str], bytes]:
    """Every file made so far, by (name, digest of the prose it was made from): for a process that
    computes figures to hand them to others (the test run's processes, which would train again)."""
    return {key: data for key, (data, _) in _made.items()}


def remember(files: dict[tuple[str, str], bytes]) -> None:
    """Keep files another process made (made()), used when the same prose is given here."""
    _made.update({key: (data, _hash(data)) for key, data in files.items()})


def digest(name: str) -> str:
    """A short hash of what `name` holds: what the file's address and the build's caches are keyed by
    (hashed when it was given or made, not on every ask)."""
    return _held(name)[1]
