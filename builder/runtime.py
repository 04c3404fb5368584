"""The browser runtime: Pyodide's core, numpy when vendored, and the engine wheel.

Without --pyodide-dist the core comes from the npm package `pyodide` (checked against
pyodide_core.json) and packages load from the CDN path of the same version. With it, the
core and numpy's wheels come from that folder, each checked against its pyodide-lock.json.
"""
from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass, field
from pathlib import Path

from .errors import BuildError

# What a pyodide.mjs may load from its folder, across released layouts: the core module is
# pyodide.asm.mjs in recent versions and pyodide.asm.js (loaded as a script) in older ones.
CORE_MODULES = ("pyodide.asm.mjs", "pyodide.asm.js")
LOADED = (*CORE_MODULES, "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json", "pyodide.asm.data")
NEEDED = ("pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json")
ENGINE_NEEDS = ("numpy",)  # what the engine imports, by Pyodide package name
ENGINE_PACKAGE = "attention-engine"  # the engine wheel's name in pyodide-lock.json
CDN = "https://cdn.jsdelivr.net/pyodide/v{version}/full/"
PINNED = Path(__file__).with_name("pyodide_core.json")
# A wheel's file_name in a lock: a plain name in the distribution's folder, never a path (an absolute
# name would publish a local file, '../x' would write outside the output folder).
RE_PLAIN_FILE = re.compile(r"[A-Za-z0-9_+-][A-Za-z0-9_.+-]{0,200}")


@dataclass
class Runtime:
    version: str  # Pyodide version of the core we ship
    files: dict[str, Path]  # dist-relative name -> source file to copy
    vendored: list[str] = field(default_factory=list)  # package names whose wheels we ship
    package_base_url: str | None = None  # where Pyodide fetches packages when not vendored

    def config(self, index_url: str, lock: str, engine_wheel: str | None = None, snapshot: str | None = None,
               downloads: dict[str, int] | None = None) -> dict:
        """What the worker boots with: Pyodide's folder, the lock's name in it, `engine_wheel`
        (relative to indexURL) when the lock has no entry for the engine (built without
        pyodide-build): the worker loads it by URL; `snapshot`, Python's start-up (builder/snapshot.py);
        and `downloads`, the size of each file of that folder the boot fetches, which its progress counts."""
        return {
            "pyodideVersion": self.version,
            "indexURL": index_url,
            "lock": lock,
            "packageBaseUrl": self.package_base_url,
            "vendored": self.vendored,
            "engine": ENGINE_PACKAGE,  # by name: its lock entry (builder/lockfile.py) lists numpy
            "shipped": [*self.vendored, ENGINE_PACKAGE],  # packages the site itself serves
            **({"engineWheel": engine_wheel, "engineNeeds": list(ENGINE_NEEDS)} if engine_wheel else {}),
            **({"snapshot": snapshot} if snapshot else {}),
            "downloads": downloads or {},
        }


def downloads(files: dict[str, int]) -> dict[str, int]:
    """Of the files in Pyodide's folder (name -> bytes), those the worker fetches as it boots: all
    but the modules, which it imports (the browser fetches those where no script can count them)."""
    return {name: size for name, size in sorted(files.items()) if name not in ("pyodide.mjs", *CORE_MODULES)}


def sha256(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def core_version(folder: Path, module: str = "pyodide.asm.mjs") -> str:
    """The Pyodide version a core folder holds, read from its package.json or its core module."""
    pkg = folder / "package.json"
    if pkg.is_file():
        return json.loads(pkg.read_text())["version"]
    m = re.search(r'API\.version="([^"]{1,40})"', (folder / module).read_text(errors="replace"))
    if not m:
        raise BuildError(folder / module, None, "cannot tell the Pyodide version of this core")
    return m.group(1)


def loaded_files(folder: Path) -> list[str]:
    """The files of `folder` its pyodide.mjs loads (named in its source), pyodide.mjs first:
    exactly one core module, and the wasm, the standard library and the lock."""
    loader = folder / "pyodide.mjs"
    if not loader.is_file():
        raise BuildError(folder, None, "not a Pyodide distribution: no pyodide.mjs")
    text = loader.read_text(errors="replace")
    named = [n for n in LOADED if re.search(re.escape(n) + r"(?![\w.])", text)]
    modules = [n for n in named if n in CORE_MODULES]
    if len(modules) != 1 or not set(NEEDED) <= set(named):
        raise BuildError(loader, None, "cannot tell which core this pyodide.mjs loads (expected one of "
                                       f"{', '.join(CORE_MODULES)} and {', '.join(NEEDED)}; found "
                                       f"{', '.join(named) or 'none'})")
    missing = [n for n in named if not (folder / n).is_file()]
    if missing:
        raise BuildError(folder, None, f"not a Pyodide distribution: missing {', '.join(missing)} "
                                       "(its pyodide.mjs loads them)")
    return ["pyodide.mjs", *named]


def npm_core(node_modules: Path, pinned_path: Path = PINNED) -> tuple[str, list[str]]:
    """The npm core's version and the files its pyodide.mjs loads, each checked against the pins."""
    folder = node_modules / "pyodide"
    if not (folder / "pyodide.mjs").is_file():
        raise BuildError(folder, None, "Pyodide core missing: run 'npm ci' first")
    version = core_version(folder)
    pinned = json.loads(pinned_path.read_text())
    if pinned["version"] != version:
        raise BuildError(pinned_path, None, f"node_modules has Pyodide {version} but hashes are pinned for "
                                       f"{pinned['version']}; update package.json and {pinned_path.name} together")
    core = loaded_files(folder)
    if sorted(core) != sorted(pinned["sha256"]):
        raise BuildError(pinned_path, None, f"pins {', '.join(sorted(pinned['sha256']))} but this core loads "
                                       f"{', '.join(sorted(core))}")
    for name in core:
        if sha256(folder / name) != pinned["sha256"][name]:
            raise BuildError(folder / name, None, "sha256 differs from the pinned core: reinstall with 'npm ci'")
    return version, core


def from_npm(node_modules: Path, pinned_path: Path = PINNED) -> Runtime:
    version, core = npm_core(node_modules, pinned_path)
    folder = node_modules / "pyodide"
    return Runtime(version, {f"pyodide/{n}": folder / n for n in core},
                   package_base_url=CDN.format(version=version))


def _closure(packages: dict, names, lock_path: Path) -> list[str]:
    """The packages `names` need, themselves included, in dependency order."""
    order, seen = [], set()

    def visit(name):
        key = name.lower()
        if key in seen:
            return
        if key not in packages:
            raise BuildError(lock_path, None, f"package '{name}' is not in this Pyodide lock")
        seen.add(key)
        entry = packages[key]
        depends = entry.get("depends", []) if isinstance(entry, dict) else None
        if not isinstance(depends, list) or not all(isinstance(d, str) for d in depends):
            raise BuildError(lock_path, None, f"package '{name}' in this Pyodide lock is not an entry with a "
                                              "list of dependencies")
        for dep in depends:
            visit(dep)
        order.append(key)

    for n in names:
        visit(n)
    return order


def from_distribution(folder: Path) -> Runtime:
    """Core and the engine's packages from a Pyodide distribution folder, checked against its lock."""
    if not folder.is_dir():
        raise BuildError(folder, None, "--pyodide-dist is not a folder")
    core = loaded_files(folder)
    lock_path = folder / "pyodide-lock.json"
    try:
        lock = json.loads(lock_path.read_text())
        packages = {k.lower(): v for k, v in lock["packages"].items()}
    except (ValueError, KeyError, TypeError) as err:
        raise BuildError(lock_path, None, f"unreadable Pyodide lock: {err}") from None
    files = {f"pyodide/{n}": folder / n for n in core}
    vendored = _closure(packages, ENGINE_NEEDS, lock_path)
    for name in vendored:
        entry = packages[name]
        file_name, digest = entry.get("file_name"), entry.get("sha256")
        if not isinstance(file_name, str) or not RE_PLAIN_FILE.fullmatch(file_name) or ".." in file_name:
            raise BuildError(lock_path, None, f"'{name}' has file_name {json.dumps(file_name)[:80]}: only a plain "
                                              "file name in the distribution's folder is accepted")
        if not isinstance(digest, str):
            raise BuildError(lock_path, None, f"'{name}' has no sha256 in this Pyodide lock")
        wheel = folder / file_name
        if not wheel.is_file():
            raise BuildError(lock_path, None, f"'{name}' needs {file_name}, which is not in {folder}")
        if sha256(wheel) != digest:
            raise BuildError(wheel, None, f"sha256 does not match pyodide-lock.json for '{name}'")
        files[f"pyodide/{file_name}"] = wheel
    module = next(n for n in core if n in CORE_MODULES)
    return Runtime(core_version(folder, module), files, vendored=vendored, package_base_url=None)
