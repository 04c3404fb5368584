"""Put a freshly written folder in place of the output folder, so readers always find a whole site.

On Linux renameat2(RENAME_EXCHANGE) swaps the two names in one step: at every instant the
output name holds the complete old site or the complete new one. Where that call is missing
(macOS, Linux before 3.15 or glibc before 2.28, filesystems that refuse it) the fallback is two
renames, with a moment between them where the output name does not exist.

Writers hold a lock file beside the output (flock: released by the kernel when a build dies),
so a second build waits for the first, and every temporary folder found while holding the lock
belongs to a build that has ended: the next build removes what a killed one left. Without
fcntl (Windows) there is no lock and leftovers are left alone.
"""
from __future__ import annotations

import contextlib
import ctypes
import errno
import os
import re
import shutil
import sys
from pathlib import Path

try:
    import fcntl
except ImportError:  # Windows
    fcntl = None

AT_FDCWD = -100  # <fcntl.h>: paths relative to the working directory
RENAME_EXCHANGE = 1 << 1  # <linux/fs.h>
_UNSUPPORTED = {errno.EINVAL, errno.ENOSYS, errno.EOPNOTSUPP}  # kernel or filesystem without it


def _load_renameat2():
    """glibc's renameat2 (2.28+), or None where there is none."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        fn = ctypes.CDLL(None, use_errno=True).renameat2
    except (OSError, AttributeError):
        return None
    fn.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_uint]
    fn.restype = ctypes.c_int
    return fn


_renameat2 = _load_renameat2()


def exchange(a: Path, b: Path) -> bool:
    """Swap the names of two existing paths atomically; False where this system cannot."""
    if _renameat2 is None:
        return False
    if _renameat2(AT_FDCWD, os.fsencode(a), AT_FDCWD, os.fsencode(b), RENAME_EXCHANGE) == 0:
        return True
    err = ctypes.get_errno()
    if err in _UNSUPPORTED:
        return False
    raise OSError(err, os.strerror(err), str(a), None, str(b))


def temp_name(out: Path, kind: str) -> Path:
    """The sibling folder a build with this process id uses: kind is "tmp" or "old"."""
    return out.parent / f".{out.name}.{kind}-{os.getpid()}"


def leftovers(out: Path) -> list[Path]:
    """Temporary folders of builds into `out`, this one's included."""
    pattern = re.compile(rf"\.{re.escape(out.name)}\.(?:tmp|old)-\d+")
    return sorted(p for p in out.parent.iterdir() if pattern.fullmatch(p.name))


@contextlib.contextmanager
def locked(out: Path):
    """Hold the output folder's lock; a second build says that it waits, then waits."""
    if fcntl is None:
        yield
        return
    with open(out.parent / f".{out.name}.lock", "a") as lock:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            print(f"another build is writing {out}: waiting for it to finish", file=sys.stderr, flush=True)
            fcntl.flock(lock, fcntl.LOCK_EX)
        yield


def remove_leftovers(out: Path) -> None:
    """Delete what ended builds left beside `out` (call with the lock held)."""
    if fcntl is None:
        return
    for p in leftovers(out):
        if p.is_dir() and not p.is_symlink():
            shutil.rmtree(p, ignore_errors=True)
        else:
            p.unlink(missing_ok=True)


def swap_in(new: Path, out: Path) -> Path | None:
    """Make the complete folder `new` the one named `out`; returns where the old site now is."""
    if not out.exists():
        new.rename(out)
        return None
    if exchange(new, out):
        return new  # the old site now carries the temporary name
    old = temp_name(out, "old")
    out.rename(old)
    try:
        new.rename(out)
    except BaseException:
        old.rename(out)
        raise
    return old
