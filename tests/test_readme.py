"""The README's tour runs as written."""

from __future__ import annotations

import re
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

README = Path(__file__).resolve().parents[1] / "README.md"


def test_the_tour_runs_as_written(tmp_path, monkeypatch) -> None:
    blocks = re.findall(r"```python\n(.*?)```", README.read_text(), flags=re.S)
    assert blocks, "the README has no python block"
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("MATCHKIT_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("MATCHKIT_BASE_URL", raising=False)
    namespace: dict = {}
    exec(compile(blocks[0], str(README), "exec"), namespace)
    frames = namespace["frames"]
    assert len(frames) > 0
    assert set(frames.matches["server_type"].unique()) <= {"QUICK2V2", "QUICK3V3"}
    assert set(frames.matches["ranking_type"].unique()) == {"RANKED"}
    assert (tmp_path / "matches").is_dir()
    assert namespace["ax"].get_title()
