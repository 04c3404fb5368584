"""`serve` after an edit to the engine: reload the changed modules in this process, or say that
only a restart can take the change in.

A figure model, or an engine module models import, is reloaded (importlib.reload) together with
every loaded module that imports it, directly or not, dependencies first, so that no module keeps
a name bound to the old code; the figure cache then drops what those models computed, and the
rebuild recomputes their figures alone. That is safe only where nothing else holds on to the old
code: when a builder module imports one of them (engine.figures' registry, its params, the
exercises), the builder's own names would stay bound to the old objects, so serve restarts as
before. A subprocess per model was the other way, but the build calls models in-process
everywhere (expressions, figures, facts) and would pay an interpreter and numpy per call.
"""
from __future__ import annotations

import ast
import functools
import importlib
import sys
from pathlib import Path

from .errors import clip, describe


def module_name(root: Path, path: Path) -> str | None:
    """The module a .py file under `root` is imported as, or None for a file that is not one."""
    if path.suffix != ".py" or not path.is_relative_to(root):
        return None
    parts = path.relative_to(root).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _ours(root: Path) -> dict[str, Path]:
    """The loaded modules whose files lie under `root`, by name."""
    out = {}
    for name, mod in list(sys.modules.items()):
        file = getattr(mod, "__file__", None)
        if file and Path(file).resolve().is_relative_to(root) and name.split(".")[0] in ("engine", "builder"):
            out[name] = Path(file).resolve()
    return out


def imports(name: str, path: Path, known=None) -> set[str]:
    """The modules of `known` (None: any name) that module `name` (file `path`) imports by a statement
    anywhere in it; none for a file that is gone or does not parse (its reload says why)."""
    try:
        stat = path.stat()
        found = _imported(name, path, stat.st_mtime_ns, stat.st_size)
    except (OSError, SyntaxError, ValueError):
        return set()
    return {m for m in found if (known is None or m in known) and m != name}


@functools.lru_cache(maxsize=1024)
def _imported(name: str, path: Path, mtime_ns: int, size: int) -> frozenset[str]:
    """Every module name an import statement of the file names (kept while the file is unchanged:
    serve asks on every engine save, and parsing all of the builder and engine takes most of a second)."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_bytes(), str(path))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = package
            for _ in range(node.level - 1):
                base = base.rpartition(".")[0]
            base = ".".join(filter(None, [base if node.level else "", node.module or ""]))
            found.add(base)
            found.update(f"{base}.{alias.name}" for alias in node.names)  # `from . import fmt`: a module
    return frozenset(found)


def _new_figure(name: str) -> bool:
    """Whether module `name` is a figure's that engine.figures' FIGURES does not hold (a file added)."""
    package, _, leaf = name.rpartition(".")
    if package != "engine.figures" or leaf.startswith("_"):
        return False
    from engine import figures
    return leaf not in figures.SHARED and leaf.replace("_", "-") not in figures.FIGURES


def plan(root: Path, changed: list[Path]) -> list[str] | None:
    """The modules to reload for `changed` files, dependencies first; None when a restart is needed
    (a builder module, or a module a builder module imports, would be among them)."""
    root = root.resolve()
    loaded = _ours(root)
    names = {module_name(root, p) for p in changed}
    if None in names or any(n.split(".")[0] != "engine" for n in names):
        return None
    if any(_new_figure(n) for n in names):
        return None  # engine.figures found its figures at import: only a new process finds this one
    names &= set(loaded)  # a module not loaded yet is read fresh when first imported
    deps = {name: imports(name, path, loaded) for name, path in loaded.items()}
    affected, todo = set(names), list(names)
    while todo:
        current = todo.pop()
        for name, uses in deps.items():
            if current in uses and name not in affected:
                affected.add(name)
                todo.append(name)
    if any(n.split(".")[0] != "engine" for n in affected):
        return None
    order, done = [], set()

    def visit(name: str, path: tuple = ()) -> None:
        if name in done or name in path:
            return
        for dep in sorted(deps[name] & affected):
            visit(dep, path + (name,))
        done.add(name)
        order.append(name)

    for name in sorted(affected):
        visit(name)
    return order


def apply(order: list[str], root: Path) -> str | None:
    """Reload the modules of `order` in turn; None, or `path:line: message` for the first that fails
    (its module keeps the code it had, or part of the new: the caller retries on the next save)."""
    for name in order:
        try:
            importlib.reload(sys.modules[name])
        except Exception as err:  # a syntax error, or its top level raising
            return clip(describe(err, root), 800, words=True)
    return None
