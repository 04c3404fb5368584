"""Where a build puts what its pages load: the theme's files and Pyodide's under folders named by
their digest (builder/build.py address_assets, package_runtime), which tests look up, not spell."""
from __future__ import annotations

import json
import re
from pathlib import Path

THEME = re.compile(r"assets/[0-9a-f]{12}")  # the theme's folder as the pages name it


def runtime_config(out: Path) -> dict:
    return json.loads((out / "runtime.json").read_text())


def pyodide_folder(out: Path) -> Path:
    """Pyodide's files and the engine's wheel."""
    return out / runtime_config(out)["indexURL"]


def shipped_lock(out: Path) -> Path:
    return pyodide_folder(out) / runtime_config(out)["lock"]


def theme_folder(out: Path) -> Path:
    """The theme's scripts, views, styles and fonts: the one folder under assets/."""
    (folder,) = (out / "assets").iterdir()
    return folder


def theme_file(site, rel: str) -> str:
    """Where a Site (builder.build.Site) puts the theme's file `rel` (e.g. "css/site.css")."""
    (key,) = [k for k in (*site.files, *site.copies) if k.startswith("assets/") and k.split("/", 2)[2] == rel]
    return key
