"""Build errors that name the file and line, so an author can go straight to the mistake."""
from __future__ import annotations

import difflib
import re
import traceback
from pathlib import Path


class BuildError(Exception):
    """One bad input; str() gives `path:line: message` as printed by the CLI."""

    def __init__(self, path: Path | str, line: int | None, message: str, column: int | None = None):
        super().__init__(message)
        self.path = Path(path)
        self.line = line
        self.column = column  # 1-based, where a tool reports one (a view's syntax error)
        self.message = message

    def __str__(self) -> str:
        where = display_path(self.path)
        if self.line and self.column:
            where += f":{self.line}:{self.column}"
        elif self.line:
            where += f":{self.line}"
        return f"{where}: {self.message}"


def display_path(path: Path) -> str:
    """The path relative to the working directory when it lies below it, else as given."""
    try:
        return str(Path(path).resolve().relative_to(Path.cwd()))
    except ValueError:
        return str(path)


def _ours(filename: str, root: Path) -> bool:
    return ".venv" not in Path(filename).parts and Path(filename).resolve().is_relative_to(root)


def describe(err: BaseException, root: Path) -> str:
    """`path:line: Type: message` for an unexpected exception, at its deepest frame in the repo
    (`root`): the line of our own code (a figure's model, its fallback, the builder) to look at."""
    if isinstance(err, SyntaxError) and err.filename:
        where, line, text = err.filename, err.lineno, err.msg
    else:
        frames = traceback.extract_tb(err.__traceback__)
        frame = ([f for f in frames if _ours(f.filename, root)] or frames or [None])[-1]
        where, line = (frame.filename, frame.lineno) if frame else ("?", None)
        text = str(err)
    return f"{display_path(Path(where))}:{line}: {type(err).__name__}: {text}"


def line_containing(lines: list[str], needle: str) -> int | None:
    """The first 1-based line that contains `needle`: where to point an error found after parsing."""
    if needle:
        for i, line in enumerate(lines, 1):
            if needle in line:
                return i
    return None


def clip(text: str, limit: int = 60, words: bool = False) -> str:
    """`text` cut to `limit` characters, for quoting input in a message without echoing all of it;
    with `words`, cut at a space (a message to read whole, not a quote), unless none is near."""
    text = str(text)
    if len(text) <= limit:
        return text
    cut = text[:limit - 1]
    space = cut.rfind(" ") if words else -1
    return (cut[:space].rstrip(",;:") if space > limit // 2 else cut) + "…"


def unknown_name(what: str, name, names, listed: str = "allowed") -> str:
    """"unknown option 'x' (did you mean 'y'?)", or with every name listed when none is near."""
    return f"unknown {what} '{clip(name, 40)}'" + did_you_mean(name, names, f" ({listed}: {', '.join(names) or 'none'})")


def did_you_mean(word: str, choices, otherwise: str = "") -> str:
    """' (did you mean 'x'?)' for the choice nearest `word` by difflib's ratio (as Python's own
    NameError hints), else `otherwise`."""
    close = difflib.get_close_matches(str(word), [str(c) for c in choices], n=1)
    return f" (did you mean '{clip(close[0])}'?)" if close else otherwise


def split_lines(text: str) -> list[str]:
    """Lines as Python-Markdown counts them: split at \\n only (read_source has turned \\r\\n and \\r
    into \\n). str.splitlines would also split at U+2028, \\x0c, \\x85, ..., and shift every line number."""
    return text.split("\n")


# C0 controls except tab, newline and carriage return; DEL and the C1 controls. They are
# invisible in an editor and meaningless in HTML, so they are reported, not silently dropped.
RE_CONTROL = re.compile("[\\x00-\\x08\\x0b\\x0c\\x0e-\\x1f\\x7f-\\x9f]")


def read_source(path: Path) -> str:
    """A source file's text with \\n line ends and no byte-order mark; bytes that are not UTF-8 and
    control characters are a BuildError at their line."""
    data = Path(path).read_bytes()
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as err:
        line = data.count(b"\n", 0, err.start) + 1
        raise BuildError(path, line, f"not UTF-8 (byte 0x{data[err.start]:02x}); save the file as UTF-8") from None
    text = text.removeprefix("\ufeff").replace("\r\n", "\n").replace("\r", "\n")
    bad = RE_CONTROL.search(text)
    if bad:
        line = text.count("\n", 0, bad.start()) + 1
        raise BuildError(path, line, f"control character U+{ord(bad.group()):04X} in the text: delete it "
                                     "(it is invisible in most editors)")
    return text
