"""Package `engine/` as a pure-Python wheel for Pyodide, without the code only the build runs.

Written with zipfile rather than `pip wheel`: a wheel is a zip with three metadata files,
and doing it here gives byte-identical output on every build in milliseconds, offline.
"""
from __future__ import annotations

import ast
import base64
import functools
import hashlib
import io
import zipfile
from pathlib import Path

from .cache import BuildCache, digest

DIST_NAME = "attention_engine"
VERSION = "0.1.0"
_EPOCH = (1980, 1, 1, 0, 0, 0)  # zip's earliest date: no build time leaks into the bytes


def _record_hash(data: bytes) -> str:
    return "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()


BUILD_ONLY_MODULES = {"bench.py"}  # timed against PyTorch on CPython by the benchmarks; no page runs it
BUILD_ONLY_FUNCTION = "facts"  # a figure model's numbers for the prose: the build computes them, never the worker


def _functions(tree: ast.Module) -> dict[str, ast.FunctionDef]:
    return {n.name: n for n in tree.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))}


def _names_used(nodes) -> set[str]:
    return {n.id if isinstance(n, ast.Name) else n.attr
            for node in nodes for n in ast.walk(node) if isinstance(n, (ast.Name, ast.Attribute))}


def _build_only(tree: ast.Module, imported: set[str]) -> list[ast.FunctionDef]:
    """A model's `facts`, and its private helpers that nothing else in the wheel uses."""
    functions = _functions(tree)
    gone = {BUILD_ONLY_FUNCTION} & functions.keys()
    while True:
        kept = [n for n in tree.body if getattr(n, "name", None) not in gone]
        used = _names_used(kept) | imported
        more = {name for name in functions if name.startswith("_") and name not in used} - gone
        if not more:
            return [functions[name] for name in sorted(gone)]
        gone |= more


def without_build_only(source: bytes, imported: set[str]) -> bytes:
    """A figure model's source with its build-only functions blanked out, line for line: a
    traceback from the worker names the line that the same code has in engine/."""
    lines = source.decode().splitlines(keepends=True)
    for fn in _build_only(ast.parse(source), imported):
        first = min([fn.lineno, *(d.lineno for d in fn.decorator_list)])
        lines[first - 1:fn.end_lineno] = ["\n"] * (fn.end_lineno - first + 1)
    return "".join(lines).encode()


def engine_files(package_dir: Path, cache: BuildCache) -> list[tuple[str, bytes]]:
    """(archive name, bytes) of every .py file of the package that a page can run, sorted; a
    figure model without its build-only functions. Kept in the cache by the files' bytes: parsing
    every module is among a rebuild's slower steps, and serve rebuilds on every save."""
    root = package_dir.parent
    paths = [p for p in sorted(package_dir.rglob("*.py"))
             if "__pycache__" not in p.parts and p.relative_to(package_dir).as_posix() not in BUILD_ONLY_MODULES]
    models = (package_dir / "figures").relative_to(root).as_posix()
    files = [(p.relative_to(root).as_posix(), p.read_bytes()) for p in paths]
    key = digest(models.encode(), *(part for name, data in files for part in (name.encode(), data)))
    return cache.get("engine files", key, lambda: _without_build_only(models, files))


def _without_build_only(models: str, files: list[tuple[str, bytes]]) -> list[tuple[str, bytes]]:
    """`files` with each figure model in the folder `models` stripped."""
    # Names other modules import from a module: a private helper they use is no build-only code.
    imported = frozenset().union(*(_imported_names(data) for _, data in files))
    return [(name, _stripped(data, imported) if name.rpartition("/")[0] == models
             and not name.endswith("/__init__.py") else data)
            for name, data in files]


# Each file parsed once while its bytes stay the same: after an edit to one model, `serve` parses
# that file again, not the whole engine (over a second of every rebuild).
@functools.lru_cache(maxsize=1024)
def _imported_names(source: bytes) -> frozenset[str]:
    """The names a module imports with `from ... import name`."""
    return frozenset(a.name for n in ast.walk(ast.parse(source)) if isinstance(n, ast.ImportFrom) for a in n.names)


@functools.lru_cache(maxsize=1024)
def _stripped(source: bytes, imported: frozenset[str]) -> bytes:
    return without_build_only(source, imported)


def build_wheel(package_dir: Path, cache: BuildCache) -> tuple[str, bytes]:
    """(file name, wheel bytes) for the package at `package_dir`."""
    files = engine_files(package_dir, cache)
    info = f"{DIST_NAME}-{VERSION}.dist-info"
    meta = [
        (f"{info}/METADATA", f"Metadata-Version: 2.1\nName: {DIST_NAME.replace('_', '-')}\nVersion: {VERSION}\n"
                             "Summary: The attention engine of attention-explorable\nRequires-Dist: numpy\n".encode()),
        (f"{info}/WHEEL", b"Wheel-Version: 1.0\nGenerator: attention-explorable builder\nRoot-Is-Purelib: true\nTag: py3-none-any\n"),
        (f"{info}/top_level.txt", f"{package_dir.name}\n".encode()),
    ]
    entries = [*files, *meta]
    record = "".join(f"{name},{_record_hash(data)},{len(data)}\n" for name, data in entries)
    record += f"{info}/RECORD,,\n"
    entries.append((f"{info}/RECORD", record.encode()))
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, data in entries:
            zi = zipfile.ZipInfo(name, date_time=_EPOCH)
            zi.external_attr = 0o644 << 16
            zi.compress_type = zipfile.ZIP_DEFLATED
            zf.writestr(zi, data)
    return f"{DIST_NAME}-{VERSION}-py3-none-any.whl", buf.getvalue()
