"""Package `engine/` as a pure-Python wheel for Pyodide.

Written with zipfile rather than `pip wheel`: a wheel is a zip with three metadata files,
and doing it here gives byte-identical output on every build in milliseconds, offline.
"""
from __future__ import annotations

import base64
import hashlib
import io
import zipfile
from pathlib import Path

DIST_NAME = "attention_engine"
VERSION = "0.1.0"
_EPOCH = (1980, 1, 1, 0, 0, 0)  # zip's earliest date: no build time leaks into the bytes


def _record_hash(data: bytes) -> str:
    return "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()


def engine_files(package_dir: Path) -> list[tuple[str, bytes]]:
    """(archive name, bytes) of every .py file of the package, sorted."""
    root = package_dir.parent
    return [(p.relative_to(root).as_posix(), p.read_bytes())
            for p in sorted(package_dir.rglob("*.py")) if "__pycache__" not in p.parts]


def build_wheel(package_dir: Path) -> tuple[str, bytes]:
    """(file name, wheel bytes) for the package at `package_dir`."""
    files = engine_files(package_dir)
    info = f"{DIST_NAME}-{VERSION}.dist-info"
    meta = [
        (f"{info}/METADATA", f"Metadata-Version: 2.1\nName: {DIST_NAME.replace('_', '-')}\nVersion: {VERSION}\n"
                             "Summary: The attention engine of attention-explorable\nRequires-Dist: numpy\n".encode()),
        (f"{info}/WHEEL", b"Wheel-Version: 1.0\nGenerator: attention-explorable builder\nRoot-Is-Purelib: true\nTag: py3-none-any\n"),
        (f"{info}/top_level.txt", f"{package_dir.name}\n".encode()),
    ]
    entries = files + meta
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
