import base64
import csv
import hashlib
import io
import zipfile

from builder.wheel import build_wheel
from tests.conftest import ROOT


def test_wheel_is_byte_identical_and_its_record_is_right():
    name, first = build_wheel(ROOT / "engine")
    assert name == "attention_engine-0.1.0-py3-none-any.whl"
    assert build_wheel(ROOT / "engine")[1] == first
    with zipfile.ZipFile(io.BytesIO(first)) as zf:
        record = zf.read("attention_engine-0.1.0.dist-info/RECORD").decode()
        rows = list(csv.reader(io.StringIO(record)))
        assert {r[0] for r in rows} == set(zf.namelist())
        for path, digest, size in rows:
            if digest:
                data = zf.read(path)
                want = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
                assert digest == f"sha256={want}" and int(size) == len(data)
        assert not any("__pycache__" in n for n in zf.namelist())
