import json

from engine import bench


def test_bench_prints_json_with_numpy_seconds(capsys, monkeypatch):
    monkeypatch.setattr(bench, "time_torch", lambda *a: None)
    bench.main(["1"])
    report = json.loads(capsys.readouterr().out)
    assert report["steps"] == 400 and report["numpy_seconds"] > 0
    assert report["torch"].startswith("not importable")
    assert report["final_loss"] < 0.05
