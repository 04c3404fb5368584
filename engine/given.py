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

_given: dict[str, bytes] = {}


def give(name: str, data: bytes) -> None:
    """Hand the engine `data` under `name`, replacing what it held (serve gives each rebuild's prose):
    new prose drops the files made from the old."""
    data = bytes(data)
    if name == SERIES and _given.get(SERIES) != data:
        for made in MADE:
            _given.pop(made, None)
    _given[name] = data


def has(name: str) -> bool:
    return name in _given


def get(name: str) -> bytes:
    """What was given under `name`; a file the build makes is made from what it was given."""
    if name not in _given and name in MADE:
        module, function = MADE[name].split(":")
        _given[name] = getattr(importlib.import_module(module), function)()
    if name not in _given:
        raise LookupError(f"the engine was not given '{name}'")
    return _given[name]


def digest(name: str) -> str:
    """A short hash of what `name` holds: what the file's address and the build's caches are keyed by."""
    return hashlib.sha256(get(name)).hexdigest()[:12]

