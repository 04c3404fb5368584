"""`build.py fetch-runtime`: a Pyodide distribution folder for `--pyodide-dist`, made from the
pinned npm core and the official release archive of the same version.

The release archive (hundreds of MB) is streamed, never stored, and only the wheels the engine
needs are kept. Each kept file is checked against a pinned sha256: the core against
pyodide_core.json, the wheels against the npm core's pyodide-lock.json (itself pinned there),
so a changed or truncated download can never reach the site.
"""
from __future__ import annotations

import hashlib
import json
import shutil
import tarfile
import urllib.request
from pathlib import Path, PurePosixPath

from .errors import BuildError
from .runtime import ENGINE_NEEDS, PINNED, _closure, npm_core

RELEASE_URL = "https://github.com/pyodide/pyodide/releases/download/{version}/pyodide-{version}.tar.bz2"
TIMEOUT_S = 60  # per network read, not for the whole download


def release_url(version: str) -> str:
    return RELEASE_URL.format(version=version)


def fetch_runtime(out: Path, node_modules: Path, url: str | None = None, pinned: Path = PINNED) -> Path:
    """Write into `out` the npm core (checked) and the engine's wheels from the release archive at
    `url` (default: the official release of the pinned version), each checked against the lock."""
    version, core_files = npm_core(node_modules, pinned)
    core = node_modules / "pyodide"
    lock_path = core / "pyodide-lock.json"
    packages = {k.lower(): v for k, v in json.loads(lock_path.read_text())["packages"].items()}
    wanted = {packages[name]["file_name"]: packages[name]["sha256"]
              for name in _closure(packages, ENGINE_NEEDS, lock_path)}
    url = url or release_url(version)
    tmp = out.with_name(out.name + ".partial")
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir(parents=True)
    try:
        for name in core_files:
            shutil.copyfile(core / name, tmp / name)
        found = _extract(url, wanted, tmp, lock_path)
        missing = sorted(set(wanted) - found)
        if missing:
            raise BuildError(lock_path, None, f"the archive at {url[:120]} has no {', '.join(missing)}")
        shutil.rmtree(out, ignore_errors=True)
        tmp.rename(out)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return out


def _extract(url: str, wanted: dict[str, str], dest: Path, lock_path: Path) -> set[str]:
    """Stream the tar.bz2 at `url`, writing the members named in `wanted` (by base name) after
    checking each one's sha256; returns the names written."""
    found = set()
    try:
        with urllib.request.urlopen(url, timeout=TIMEOUT_S) as response, \
                tarfile.open(fileobj=response, mode="r|bz2") as archive:
            for member in archive:
                name = PurePosixPath(member.name).name
                if not member.isfile() or name not in wanted or name in found:
                    continue
                data = archive.extractfile(member).read()
                if hashlib.sha256(data).hexdigest() != wanted[name]:
                    raise BuildError(lock_path, None, f"{name} in {url[:120]}: sha256 does not match the pinned "
                                                 "pyodide-lock.json; refusing it")
                (dest / name).write_bytes(data)
                found.add(name)
                if found == set(wanted):
                    break
    except (OSError, tarfile.TarError, EOFError) as err:
        raise BuildError(dest, None, f"could not download {url[:120]}: {str(err)[:200]}") from None
    return found
