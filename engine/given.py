"""What a figure's model reads beyond its options, handed to it with every call: the series' own prose,
and files made from that prose (chapter 14's trained weights). A model lists the names it reads in
GIVEN and receives them as a `Given`; nothing here holds state, so a figure is a function of its
Params and its Given alone. The build makes the files (builder/inputs.py); in the page the worker
fetches a figure's files from the site and hands them in (theme/runtime/worker.js)."""
from __future__ import annotations

import hashlib
import importlib
from collections.abc import Iterable, Mapping

SERIES = "series"  # the series' prose, UTF-8: builder/corpus.py's text, which chapter 14's model learns

# Files made from the prose, and the function (module:name, called with the prose's bytes) that makes
# each: the build ships them beside the pages, named by their content, for the worker to fetch.
MADE = {"writing-model": "engine.tasks.writing:model_file"}


def digest_of(data: bytes) -> str:
    """A short hash of `data`: what a file's address in the site and every cache key name it by."""
    return hashlib.sha256(data).hexdigest()[:12]


def make(name: str, series: bytes) -> bytes:
    """The file MADE[name] from the prose `series` (seconds of training for the writing model)."""
    module, function = MADE[name].split(":")
    return getattr(importlib.import_module(module), function)(series)


def maker_module(name: str) -> str:
    """The module whose code makes MADE[name]: a cache of the file is keyed by its source."""
    return MADE[name].split(":")[0]


class Given(Mapping):
    """Files by name, immutable, each hashed once: equal and hashable by the names and digests, so a
    model may key a cache on what it was given (the prose and the model are hundreds of KB)."""

    __slots__ = ("_files", "_digests")

    def __init__(self, files: Mapping[str, bytes] | None = None):
        files = files or {}
        self._files = {str(name): bytes(data) for name, data in files.items()}
        known = files._digests if isinstance(files, Given) else {}
        self._digests = {name: known.get(name) or digest_of(data) for name, data in self._files.items()}

    def __getitem__(self, name: str) -> bytes:
        return self._files[name]

    def __iter__(self):
        return iter(self._files)

    def __len__(self) -> int:
        return len(self._files)

    def digest(self, name: str) -> str:
        return self._digests[name]

    def only(self, names: Iterable[str]) -> Given:
        """The files of `names` this holds (a model's GIVEN), digests kept."""
        part = Given()
        part._files = {n: self._files[n] for n in names if n in self._files}
        part._digests = {n: self._digests[n] for n in part._files}
        return part

    def with_file(self, name: str, data: bytes) -> Given:
        """This and `data` under `name` (replacing what it held)."""
        more = self.only(self._files)
        more._files[name] = bytes(data)
        more._digests[name] = digest_of(more._files[name])
        return more

    def _key(self) -> tuple:
        return tuple(sorted(self._digests.items()))

    def __eq__(self, other) -> bool:
        return isinstance(other, Given) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        return f"Given({', '.join(f'{n}={d}' for n, d in self._key())})"


NOTHING = Given()
