"""The README's PUBG example runs as written, on the embedded double, with no key."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from matchkit.telemetry.pubg import PubgTelemetryFrames

README = Path(__file__).resolve().parents[3] / "README.md"


def test_the_pubg_example_runs_as_written(tmp_path, monkeypatch: pytest.MonkeyPatch) -> None:
    section = README.read_text(encoding="utf-8").split("## PUBG\n", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"```python\n(.*?)```", section, flags=re.S)
    assert len(blocks) == 1
    assert len([line for line in blocks[0].splitlines() if line.strip()]) == 6
    monkeypatch.setenv("MATCHKIT_CACHE_DIR", str(tmp_path / "cache"))
    for name in ("MATCHKIT_BASE_URL", "MATCHKIT_API_KEY"):
        monkeypatch.delenv(name, raising=False)
    namespace: dict = {}
    exec(compile(blocks[0], str(README), "exec"), namespace)
    day, theirs, telemetry = namespace["day"], namespace["theirs"], namespace["telemetry"]
    assert len(day.matches) > 0
    assert len(theirs.matches) == len(theirs.player_matches) > 0
    assert isinstance(telemetry, PubgTelemetryFrames)
    assert telemetry.match_ids == day.matches["match_id"][:2].tolist()
