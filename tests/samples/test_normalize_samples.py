"""Every recorded real response in ../shared/samples normalizes, without losing a resource.

Expected numbers are counted here from the raw JSON with the standard library, independently of
the normalizer; spot values are read from the raw JSON too.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pandas as pd
import pytest

from matchkit import to_frames
from tests.conftest import SHARED

SAMPLES = SHARED / "samples"
SAMPLE_FILES = (
    sorted(path.relative_to(SAMPLES).as_posix() for path in SAMPLES.rglob("*.json"))
    if SAMPLES.exists()
    else ["(../shared/samples is missing)"]
)


def _resources(document: dict[str, Any]) -> dict[tuple[str, str], dict[str, Any]]:
    """Unique resources by (type, id), first one kept, counted without matchkit."""
    data = document.get("data")
    primary = [data] if isinstance(data, dict) else list(data or [])
    unique: dict[tuple[str, str], dict[str, Any]] = {}
    for resource in primary + document.get("included", []):
        unique.setdefault((resource["type"], resource["id"]), resource)
    return unique


def _of_type(resources: dict[tuple[str, str], dict[str, Any]], type_: str) -> list[dict]:
    return [resource for (t, _), resource in resources.items() if t == type_]


@pytest.fixture(params=SAMPLE_FILES)
def sample(request: pytest.FixtureRequest, samples_dir: Path) -> tuple[str, bytes]:
    return request.param, (samples_dir / request.param).read_bytes()


def test_the_samples_folder_holds_both_services(samples_dir: Path) -> None:
    names = {path.parent.name for path in samples_dir.rglob("*.json")}
    assert names == {"battlerite", "vainglory"}
    assert len(list(samples_dir.rglob("*.json"))) >= 18


def test_sample_counts_match_the_document(sample: tuple[str, bytes]) -> None:
    _, raw = sample
    resources = _resources(json.loads(raw))
    frames = to_frames(raw)
    for table, type_ in (
        ("matches", "match"),
        ("rosters", "roster"),
        ("participants", "participant"),
        ("rounds", "round"),
        ("players", "player"),
        ("teams", "team"),
        ("assets", "asset"),
    ):
        expected = {resource["id"] for resource in _of_type(resources, type_)}
        frame = frames.tables[table]
        assert len(frame) == len(expected), table
        assert set(frame[f"{type_}_id"]) == expected, table


def test_sample_foreign_keys_resolve(sample: tuple[str, bytes]) -> None:
    _, raw = sample
    frames = to_frames(raw)
    match_ids = set(frames.matches["match_id"])
    for table in ("rosters", "participants", "rounds", "assets"):
        frame = frames.tables[table]
        assert frame["match_id"].notna().all(), table
        assert set(frame["match_id"]) <= match_ids, table
    assert set(frames.participants["roster_id"]) <= set(frames.rosters["roster_id"])
    players = frames.participants["player_id"].dropna()
    assert set(players) <= set(frames.players["player_id"])
    assert not [p for p in frames.problems if "no document includes" in p]


def test_sample_won_and_created_at(sample: tuple[str, bytes]) -> None:
    _, raw = sample
    resources = _resources(json.loads(raw))
    frames = to_frames(raw)
    assert frames.rosters["won"].dtype == "boolean"
    won = dict(zip(frames.rosters["roster_id"], frames.rosters["won"], strict=True))
    for roster in _of_type(resources, "roster"):
        word = roster["attributes"].get("won")
        expected = {"true": True, "false": False}.get(word, pd.NA)
        assert won[roster["id"]] is expected or won[roster["id"]] == expected
    created = frames.matches["created_at"]
    assert str(created.dt.tz) == "UTC"
    by_id = dict(zip(frames.matches["match_id"], created, strict=True))
    for match in _of_type(resources, "match"):
        text = match["attributes"]["createdAt"]
        expected = datetime.strptime(text, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=UTC)
        assert by_id[match["id"]].to_pydatetime() == expected


def test_sample_spot_values(sample: tuple[str, bytes]) -> None:
    """Two values per file: a match's duration, and kills (plus mount, where the file has it)
    of the participant with the most stats; both read from the raw JSON."""
    name, raw = sample
    resources = _resources(json.loads(raw))
    frames = to_frames(raw)
    matches = _of_type(resources, "match")
    participants = _of_type(resources, "participant")
    if not matches:
        assert len(frames) == 0
        assert name.endswith(("empty.json", "status-response.json"))
        return
    match = matches[-1]
    row = frames.matches.set_index("match_id").loc[match["id"]]
    assert row["duration"] == match["attributes"]["duration"]
    richest = max(participants, key=lambda p: len(p["attributes"]["stats"]))
    stats = richest["attributes"]["stats"]
    row = frames.participants.set_index("participant_id").loc[richest["id"]]
    assert row["kills"] == stats["kills"]
    assert row["actor"] == richest["attributes"]["actor"]
    if "mount" in stats:
        assert row["mount"] == stats["mount"]
    else:  # the older variant: farm is a number, items a list kept as JSON text
        assert row["farm"] == pytest.approx(stats["farm"])
        assert json.loads(row["items"]) == stats["items"]


def test_status_document_gives_empty_frames_and_says_why(samples_dir: Path) -> None:
    frames = to_frames((samples_dir / "battlerite" / "status-response.json").read_bytes())
    assert len(frames) == 0
    assert any("'status'" in problem for problem in frames.problems)


def test_all_samples_together_deduplicate(samples_dir: Path) -> None:
    """The recorded lists overlap; normalized together, each resource appears once."""
    raws = [path.read_bytes() for path in sorted(samples_dir.rglob("*.json"))]
    unique: dict[tuple[str, str], dict] = {}
    for raw in raws:
        for key, resource in _resources(json.loads(raw)).items():
            unique.setdefault(key, resource)
    frames = to_frames(raws)
    assert len(frames.matches) == len(_of_type(unique, "match"))
    assert len(frames.participants) == len(_of_type(unique, "participant"))
    assert frames.participants["participant_id"].is_unique
    assert len(frames.players) == len(_of_type(unique, "player"))


def test_sample_bots_and_user_ids(samples_dir: Path) -> None:
    raw = (samples_dir / "battlerite" / "matches-response-934763458812112896.json").read_bytes()
    resources = _resources(json.loads(raw))
    frames = to_frames(raw)
    bots = [
        p["id"]
        for p in _of_type(resources, "participant")
        if p["attributes"]["stats"].get("userID") in (0, "0")
    ]
    assert len(bots) == 5
    kinds = frames.participants.set_index("participant_id")["kind"]
    assert set(kinds[bots]) == {"bot"}
    assert frames.participants["user_id"].dtype == pd.StringDtype()
    integers = [
        p
        for p in _of_type(resources, "participant")
        if isinstance(p["attributes"]["stats"].get("userID"), int)
        and p["attributes"]["stats"]["userID"] != 0
    ]
    user_ids = frames.participants.set_index("participant_id")["user_id"]
    for participant in integers:
        assert user_ids[participant["id"]] == str(participant["attributes"]["stats"]["userID"])


def test_vainglory_text_sides_and_rosters_without_won(samples_dir: Path) -> None:
    raw = (samples_dir / "vainglory" / "matchCollection.json").read_bytes()
    resources = _resources(json.loads(raw))
    frames = to_frames(raw)
    rosters = frames.rosters.set_index("roster_id")
    for roster in _of_type(resources, "roster"):
        label = roster["attributes"]["stats"]["side"]
        assert rosters.loc[roster["id"], "side_label"] == label
        assert rosters.loc[roster["id"], "side"] == {"left/blue": 1, "right/red": 2}[label]
        if "won" not in roster["attributes"]:
            assert rosters.loc[roster["id"], "won"] is pd.NA
        assert rosters.loc[roster["id"], "gold"] == roster["attributes"]["stats"]["gold"]
