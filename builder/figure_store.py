"""The one store of what the build computes from its inputs, kept on disk (.cache/figures, or the folder
ATTN_FIGURE_STORE names: a test run's): a model's data and facts, a fallback's drawing, and the files
made from the prose (engine/given.py). build, check, catalogue, serve and the tests read it, so that a
run computes only what no earlier run computed from the same inputs, and processes asking at once
make each value once.

An entry's key names every input its value is made of: the figure's Params (their class and repr),
the source of every module of ours the code imports (followed through its import statements from
the model, or the fallback, or the maker of a made file: engine/figures/sentences.py is part of
every model that imports it), the digest of each input a model reads (its GIVEN: the prose, or a
file made from it, by its content), and the versions of Python, numpy and matplotlib. An edit to
one model recomputes that model's figures alone; an edit to an engine module every model imports
recomputes them all. The source is read when the key is made: a file saved while a run is under way
can be stored with what the code before it computed, until the next edit to it.
"""
from __future__ import annotations

import functools
import hashlib
import os
import pickle
import sys
import time
from importlib import metadata
from pathlib import Path
from typing import Callable, TypeVar

from engine import figures as models
from engine import given as inputs
from engine.given import Given
from .reload import imports

T = TypeVar("T")
KEEP_DAYS = 30  # an entry no run has read for this long is deleted (old options, old code)
OURS = ("engine", "builder")


@functools.cache
def _runtime() -> bytes:
    """The versions of what runs the code (read once: reading a package's metadata takes milliseconds)."""
    def version(package: str) -> str:
        try:
            return metadata.version(package)
        except metadata.PackageNotFoundError:
            return "none"

    return f"{sys.version}\0{version('numpy')}\0{version('matplotlib')}".encode()


def _file(root: Path, name: str) -> Path | None:
    """The source file of module `name` under `root`, or None when it is not one of ours."""
    if name.split(".")[0] not in OURS:
        return None
    base = root.joinpath(*name.split("."))
    for path in (base.with_suffix(".py"), base / "__init__.py"):
        if path.is_file():
            return path
    return None


@functools.lru_cache(maxsize=1024)
def _source(path: Path, mtime_ns: int, size: int) -> bytes:
    """A source file's digest (kept while the file is unchanged: a run asks for a few hundred keys).
    engine.figures finds its figures and lists none, so a figure added changes no other's key."""
    return hashlib.sha256(path.read_bytes()).digest()


def _stamps(files: list[tuple[str, Path]]) -> list[tuple[int, int]]:
    """Each file's modification time and size: a file saved since has other ones."""
    return [(stat.st_mtime_ns, stat.st_size) for stat in (path.stat() for _, path in files)]


def _packages(name: str) -> list[str]:
    """The packages importing `name` runs first: engine.figures.x -> engine, engine.figures."""
    parts = name.split(".")
    return [".".join(parts[:i]) for i in range(1, len(parts))]


class FigureStore:
    def __init__(self, folder: Path, root: Path, kept: Path | None = None, keep: bool = False,
                 follows_edits: bool = False):
        self.folder = folder  # where the entries are
        self.root = root  # the repository whose engine/ and builder/ the code is imported from
        # Whether a key follows the code's files as they are edited: serve's, which reloads the code it
        # runs when they change. A run that imports its code once (build, check, the tests) keys by
        # the files as it first read them, so an edit saved while it runs cannot store what the old
        # code made under the new code's key (found by the next run in place of the new code's).
        self.follows_edits = follows_edits
        # made files kept under version control (the repository's models/), read before the store, so a
        # fresh clone's build does not train chapter 14's model: named by the digest of the prose and
        # of their maker's source; a run that `keep`s writes there what it makes (build.py's, not a test's)
        self.kept, self.keep = kept, keep
        self.computed = 0  # values made in this run (none found), for the command line's report
        self.found = 0
        self._codes: dict = {}  # modules -> (their files and those they import, the files' stamps, code())

    def report(self) -> str:
        return f"figures: {self.computed} computed, {self.found} found from earlier runs (in {self.folder})"

    # keys

    def code(self, *modules: str) -> str:
        """A digest of the source of `modules` and of every module of ours they import, however
        deep, with the versions of what runs them."""
        return _hash(self.sources(*modules), _runtime().decode())

    def sources(self, *modules: str) -> str:
        """A digest of the source of `modules` and of every module of ours they import, however deep;
        followed again, where the store follows edits, when one of those files changed."""
        kept = self._codes.get(modules)
        if kept is not None and not self.follows_edits:
            return kept[2]
        if kept is not None:
            try:
                if kept[1] == _stamps(kept[0]):
                    return kept[2]
            except OSError:  # a file deleted: follow the imports again
                pass
        seen, todo, h = set(), list(modules), hashlib.sha256()
        while todo:
            name = todo.pop()
            path = _file(self.root, name)
            if name in seen or path is None:
                continue
            seen.add(name)
            todo += _packages(name) + sorted(self._imports(name, path))
        files = [(name, _file(self.root, name)) for name in sorted(seen)]
        stamps = _stamps(files)
        for (name, path), (mtime_ns, size) in zip(files, stamps):
            h.update(name.encode() + b"\0" + _source(path, mtime_ns, size))
        self._codes[modules] = (files, stamps, h.hexdigest())
        return h.hexdigest()

    def _imports(self, name: str, path: Path) -> set[str]:
        """reload.imports(name, path), kept in the store by the file's content: parsing every module
        of ours is a second or two of a process's first build (serve's on a built clone)."""
        stat = path.stat()
        entry = self.folder / (_hash("imports", name, _source(path, stat.st_mtime_ns, stat.st_size).hex()) + ".imports")
        found = self._read(entry) if entry.is_file() else None
        if not isinstance(found, frozenset):
            found = frozenset(imports(name, path))
            self._write(entry, found)
        return set(found)

    def _model_key(self, params, given: Given) -> str:
        """What a model's data and facts are made of: its code, its Params, and the digest of each
        input it reads (its GIVEN: the prose, or a file made from it, named by its content)."""
        parts = [self.code(type(params).__module__), f"{type(params).__qualname__}{params!r}"]
        for name in sorted(models.given_names(params)):
            parts += [name, given.digest(name)]
        return _hash("model", *parts)

    # values

    def data(self, params, given: Given, make: Callable[[], T]) -> T:
        return self._get(self._model_key(params, given) + ".data", make)

    def facts(self, params, given: Given, make: Callable[[], T]) -> T:
        return self._get(self._model_key(params, given) + ".facts", make)

    def svg(self, name: str, data_json: str, make: Callable[[], bytes]) -> bytes:
        """A fallback's drawing of `data` (its JSON, keys sorted): its code and the data."""
        return self._get(_hash("svg", self.code(f"builder.fallbacks.{name.replace('-', '_')}"), data_json) + ".svg", make)

    def value(self, kind: str, key, modules, files: tuple[str, ...], make: Callable[[], T]) -> T:
        """A value of the build's own (builder/cache.py DURABLE, the graders' verdicts) by its key (a
        digest or a text), the code of `modules` (a name or several), and the files `files` (relative
        to the repository)."""
        return self._get(self._value_key(kind, key, modules, files), make, count=False)

    def found_value(self, kind: str, key, modules, files: tuple[str, ...] = ()):
        """That value if an earlier run kept it (value() or keep_value()), else None."""
        return self._found(self.folder / self._value_key(kind, key, modules, files), count=False)

    def keep_value(self, kind: str, key, modules, files: tuple[str, ...], value) -> None:
        self._write(self.folder / self._value_key(kind, key, modules, files), value)

    def _value_key(self, kind: str, key, modules, files: tuple[str, ...]) -> str:
        parts = [kind, repr(key), self.code(*([modules] if isinstance(modules, str) else modules))]
        parts += [hashlib.sha256((self.root / f).read_bytes()).hexdigest() if (self.root / f).is_file() else f for f in files]
        return _hash("value", *parts) + ".value"

    def made(self, name: str, series: Given) -> bytes:
        """The file engine.given.MADE[name] made from the prose `series` holds, by its maker's code:
        the kept one, or the store's, or made now (and then kept, by a run that keeps)."""
        kept = self.kept_file(name, series)
        if kept is not None and kept.is_file():
            return kept.read_bytes()
        data = self._get(self._made_key(name, series), lambda: self._make(name, series))
        if kept is not None and self.keep:
            self._keep(kept, data)
        return data

    def find_made(self, name: str, series: Given) -> bytes | None:
        """That file if it is kept or an earlier run made it, else None (nothing is made)."""
        kept = self.kept_file(name, series)
        if kept is not None and kept.is_file():
            return kept.read_bytes()
        value = self._found(self.folder / self._made_key(name, series))
        return value if isinstance(value, bytes) else None

    def kept_file(self, name: str, series: Given) -> Path | None:
        """Where the file made from `series` by the maker's current source is kept (it may not be
        there yet), or None when this store keeps none."""
        if self.kept is None:
            return None
        key = _hash("kept", name, self.sources(inputs.maker_module(name)), series.digest(inputs.SERIES))
        return self.kept / f"{name}-{key[:16]}.bin"

    @staticmethod
    def _make(name: str, series: Given) -> bytes:
        started = time.perf_counter()
        print(f"making {name} from the prose (the prose or its maker's code changed since it was kept)",
              file=sys.stderr, flush=True)
        data = inputs.make(name, series[inputs.SERIES])
        print(f"made {name} in {time.perf_counter() - started:.0f} s", file=sys.stderr, flush=True)
        return data

    def _keep(self, path: Path, data: bytes) -> None:
        """`data` kept at `path`, whole, in place of the file that name kept before."""
        _write_whole(path, data)
        stem = path.name.rsplit("-", 1)[0]
        for old in path.parent.glob(f"{stem}-*.bin"):
            if old != path:
                old.unlink()
        print(f"kept {path.relative_to(self.root) if path.is_relative_to(self.root) else path}: "
              "commit it with the change, so that a fresh clone need not make it", file=sys.stderr, flush=True)

    def _made_key(self, name: str, series: Given) -> str:
        return _hash("made", name, self.code(inputs.maker_module(name)), series.digest(inputs.SERIES)) + ".made"

    # files

    def _get(self, entry: str, make: Callable[[], T], count: bool = True) -> T:
        """The value stored as `entry`, or make() kept there. Made under a lock of its own, so that
        of several processes asking at once (a test run's) one makes it while the others wait and
        read it: chapter 14's model is trained once. filelock: portable, and released if the
        process dies. `count`: in the report's figures (not for the build's other values)."""
        from filelock import FileLock

        value = self._found(self.folder / entry, count)
        if value is not None:
            return value
        (self.folder / "locks").mkdir(parents=True, exist_ok=True)
        with FileLock(self.folder / "locks" / entry):
            value = self._found(self.folder / entry, count)
            if value is None:
                value = make()
                self.computed += count
                self._write(self.folder / entry, value)
        return value

    def _found(self, path: Path, count: bool = True):
        value = self._read(path) if path.is_file() else None
        if value is not None:
            self.found += count
        return value

    def _read(self, path: Path):
        """The value stored at `path`, or None for an entry that cannot be read (cut short, or
        written by another version of Python): it is made again."""
        try:
            value = pickle.loads(path.read_bytes())
            os.utime(path)  # read: kept another KEEP_DAYS
            return value
        except Exception:  # noqa: BLE001 (any unpickling failure means "not there")
            return None

    def _write(self, path: Path, value) -> None:
        """Whole or not at all: written beside, then moved in place (another run may be reading it)."""
        _write_whole(path, pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL))

    def prune(self) -> int:
        """Delete entries no run has read for KEEP_DAYS, and lock files as old (filelock leaves them
        on Unix; a lock is made when its entry is, so one that old guards nothing being made); how
        many entries."""
        old = time.time() - KEEP_DAYS * 86400
        gone = _delete_older(self.folder, old)
        _delete_older(self.folder / "locks", old)
        return gone


def _write_whole(path: Path, data: bytes) -> None:
    """`data` at `path`, whole or not at all: written beside, then moved in place (another run may be
    reading it)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}")
    tmp.write_bytes(data)
    os.replace(tmp, path)


def _delete_older(folder: Path, than: float) -> int:
    """Delete the files in `folder` last written before `than`; how many."""
    if not folder.is_dir():
        return 0
    gone = 0
    for entry in os.scandir(folder):
        if entry.is_file() and entry.stat().st_mtime < than:
            os.unlink(entry.path)
            gone += 1
    return gone


def _hash(*parts: str) -> str:
    h = hashlib.sha256()
    for part in parts:
        h.update(hashlib.sha256(part.encode()).digest())
    return h.hexdigest()
