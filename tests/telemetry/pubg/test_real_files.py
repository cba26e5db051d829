"""The recorded real PUBG telemetry reads value by value: the 29-event excerpt (one event per
type, 2018) and a whole 2025 file (2,871 events of 31 types), with 0 problems.

Every row of kills, knocks, damage and positions is compared with its event in the raw JSON,
column by column (each declared column's wire path), and a few values are written out by hand.
"""

from __future__ import annotations

import math
from collections import Counter
from typing import Any

import orjson
import pandas as pd
import pytest

from matchkit.model.schema import DATETIME_DTYPE
from matchkit.telemetry.pubg import PubgTelemetryFrames, to_pubg_telemetry_frames
from matchkit.telemetry.pubg.objects import leaves
from matchkit.telemetry.pubg.schema import TABLES
from matchkit.telemetry.pubg.tables import DOCUMENTED_TYPES, EVENT_TABLES
from tests.telemetry.pubg.files import (
    EXCERPT,
    EXCERPT_MATCH,
    WHOLE,
    WHOLE_MATCH,
    of_type,
    raw_events,
    recorded,
    value_at,
)


@pytest.fixture(scope="module")
def whole() -> PubgTelemetryFrames:
    return to_pubg_telemetry_frames(recorded(WHOLE))


@pytest.fixture(scope="module")
def excerpt() -> PubgTelemetryFrames:
    return to_pubg_telemetry_frames(recorded(EXCERPT))


@pytest.mark.parametrize(("name", "match"), [(WHOLE, WHOLE_MATCH), (EXCERPT, EXCERPT_MATCH)])
def test_reads_with_no_problem_and_every_type_documented(name: str, match: str) -> None:
    frames = to_pubg_telemetry_frames(recorded(name))
    events = raw_events(name)
    assert frames.problems == ()
    assert frames.match_ids == [match]
    counts = frames.event_counts
    assert dict(zip(counts["event_type"], counts["events"], strict=True)) == Counter(
        event["_T"] for event in events
    )
    assert counts["documented"].all()
    assert frames.files.loc[0, "events"] == len(events)
    assert frames.files.loc[0, "bytes"] == recorded(name).stat().st_size


def test_each_event_lands_in_its_table(whole: PubgTelemetryFrames) -> None:
    events = raw_events(WHOLE)
    types = Counter(event["_T"] for event in events)
    for table in EVENT_TABLES:
        if table.name == "match_definition":
            continue
        expected = sum(types[source.event_type] for source in table.sources)
        assert len(whole.tables[table.name]) == expected, table.name
    assert len(whole.match_end) == len(of_type(events, "LogMatchEnd")[0]["characters"]) == 36
    weapons = of_type(events, "LogMatchEnd")[0]["allWeaponStats"]
    assert len(whole.weapon_stats) == sum(len(player["stats"]) for player in weapons)
    other = {
        kind
        for kind in types
        if kind not in set(whole.event_counts.query("table != 'other_events'")["event_type"])
    }
    assert len(whole.other_events) == sum(types[kind] for kind in other)
    assert set(other) == {
        "LogPlayerAttack",
        "LogObjectInteraction",
        "LogPlayerCreate",
        "LogPlayerLogout",
        "LogWeaponFireCount",
        "LogPlayerLogin",
        "LogHeal",
        "LogVaultStart",
        "LogObjectDestroy",
        "LogPhaseChange",
        "LogPlayerUseThrowable",
    }
    assert other <= DOCUMENTED_TYPES


def _assert_rows_match(frame: pd.DataFrame, name: str, events: list[dict[str, Any]]) -> int:
    """Every declared column of every row against its event's raw value; returns the values
    compared."""
    table = next(t for t in EVENT_TABLES if t.name == name)
    trees = {source.event_type: source.tree for source in table.sources}
    compared = 0
    for row in frame.itertuples(index=False):
        event = events[row.event_index]
        tree = trees[event["_T"]]
        assert row.time == pd.Timestamp(event["_D"]).floor("us")
        for path, column, leaf in leaves(tree):
            value = getattr(row, column)
            raw = value_at(event, path)
            if raw is None:
                assert value is pd.NA or (isinstance(value, float) and math.isnan(value)), column
            elif leaf.kind == "json":
                assert orjson.loads(value) == raw, column
            elif leaf.kind == "float64":
                assert value == float(raw), column
            else:
                assert value == raw, column
            compared += 1
    return compared


@pytest.mark.parametrize("name", ["kills", "knocks", "damage", "positions"])
def test_the_whole_file_value_by_value(whole: PubgTelemetryFrames, name: str) -> None:
    events = raw_events(WHOLE)
    compared = _assert_rows_match(whole.tables[name], name, events)
    assert compared > 500


@pytest.mark.parametrize(
    "name",
    [
        "kills",
        "knocks",
        "revives",
        "damage",
        "positions",
        "game_states",
        "item_events",
        "vehicles",
        "care_packages",
    ],
)
def test_the_excerpt_value_by_value(excerpt: PubgTelemetryFrames, name: str) -> None:
    events = raw_events(EXCERPT)
    assert _assert_rows_match(excerpt.tables[name], name, events) > 5


def test_a_kill_written_out(whole: PubgTelemetryFrames) -> None:
    kill = whole.kills.iloc[0]
    assert kill["event_type"] == "LogPlayerKillV2"
    assert kill["time"] == pd.Timestamp("2025-07-12T17:12:02.807Z")
    assert kill["phase"] == 1.0
    assert kill["killer_id"] == "account.82bad0072f31455d8d9f8d834da2f2f3"
    assert kill["killer_name"] == "TGLTN"
    assert kill["victim_id"] == "account.91d1788893d34119b7bee3e9f7d8d265"
    assert kill["victim_name"] == "Myo0"
    assert kill["finisher_id"] == kill["killer_id"]
    assert pd.isna(kill["dbno_maker_id"])  # killed outright: no knock
    assert kill["damage_causer_name"] == "WeapSawnoff_C"
    assert kill["damage_type_category"] == "Damage_Gun"
    assert kill["damage_reason"] == "TorsoShot"
    assert kill["distance"] == 84.9913101196289
    assert not kill["is_suicide"]
    assert (kill["killer_x"], kill["killer_y"], kill["killer_z"]) == (
        604189.0,
        486179.125,
        570.6099853515625,
    )
    assert (kill["victim_x"], kill["victim_y"]) == (604260.6875, 486135.4375)
    assert kill["victim_zone"] == '["mylta"]'
    assert kill["victim_result_rank"] == 14
    assert kill["victim_kill_count"] == 0
    assert kill["dbno_id"] == -1
    assert kill["assist_ids"] == "[]"


def test_the_older_kill_event_fills_the_same_columns(excerpt: PubgTelemetryFrames) -> None:
    kill = excerpt.kills.iloc[0]
    assert kill["event_type"] == "LogPlayerKill"
    assert kill["killer_name"] == "CryForHonor"
    assert kill["victim_id"] == "account.767af0c6351a42f5a5eea8ccb0ab1062"
    assert kill["damage_causer_name"] == "WeapBerreta686_C"
    assert kill["damage_reason"] == "TorsoShot"
    assert kill["distance"] == 190.9481964111328
    assert kill["victim_z"] == 116.18999481201172
    assert pd.isna(kill["is_suicide"])  # LogPlayerKill has no isSuicide


def test_damage_and_positions_written_out(excerpt: PubgTelemetryFrames) -> None:
    hit = excerpt.damage.iloc[0]
    assert (hit["attacker_name"], hit["victim_name"]) == ("sami_70", "ogka121")
    assert hit["damage"] == 100.0
    assert (hit["damage_reason"], hit["damage_causer_name"]) == ("HeadShot", "WeapM16A4_C")
    assert hit["attack_id"] == 1073741859
    position = excerpt.positions.iloc[0]
    assert position["player_id"] == "account.65c28d3e23fb471eb925900590e91b67"
    assert (position["player_x"], position["player_y"]) == (727311.5625, 438198.625)
    assert position["player_health"] == 69.99652862548828
    assert position["elapsed_time"] == 626.0
    assert position["num_alive_players"] == 49
    assert position["phase"] == 1.5
    assert position["vehicle_fuel_percent"] == 0.0  # feulPercent on the wire
    assert position["vehicle_type"] == ""


def test_zones_by_time(whole: PubgTelemetryFrames) -> None:
    states = whole.game_states
    assert states["elapsed_time"].tolist()[:3] == [10, 20, 30]
    second = states.iloc[1]
    assert (second["blue_zone_x"], second["blue_zone_radius"]) == (608653.0625, 8000.0)
    assert second["safe_zone_radius"] == pytest.approx(5328, abs=1)
    # The blue zone (safetyZone) closes in on the safe zone (poisonGasWarning), phase by phase.
    shrinking = states[states["phase"] == 1.5]
    assert shrinking["blue_zone_radius"].is_monotonic_decreasing
    assert (shrinking["blue_zone_radius"] >= shrinking["safe_zone_radius"]).all()


def test_match_start_and_end(whole: PubgTelemetryFrames, excerpt: PubgTelemetryFrames) -> None:
    start = whole.match_start.iloc[0]
    assert start["map_name"] == "Baltic_Main"
    assert start["team_size"] == 4
    assert bool(start["is_custom_game"])
    assert start["definition_id"].endswith("." + WHOLE_MATCH)
    assert start["time"] == pd.Timestamp("2025-07-12T17:11:33.984Z")
    # LogMatchDefinition's _D has 7 decimals ("17:11:34.0158674Z"): read to the microsecond.
    assert start["definition_time"] == pd.Timestamp("2025-07-12T17:11:34.015867Z")
    assert len(orjson.loads(start["characters"])) == 36
    end = whole.match_end.set_index("player_id")
    tgltn = end.loc["account.82bad0072f31455d8d9f8d834da2f2f3"]
    assert (tgltn["player_ranking"], tgltn["player_individual_ranking"]) == (9, 25)
    assert pd.isna(tgltn["result_rank"])  # gameResultOnFinished lists the winners only
    winner = end.loc["account.4b20cc60640e46c4af4adadb4008c1ff"]
    assert (winner["result_rank"], winner["kill_count"]) == (1, 3)
    assert winner["distance_on_foot"] == 614.5816040039062
    old = excerpt.match_end  # 2018: bare Characters, no wrapper
    assert old["player_name"].tolist() == ["DjaYaithc", "Seniorhydra"]
    assert old["player_ranking"].tolist() == [18, 37]
    assert excerpt.match_start.iloc[0]["definition_id"].startswith("match.bro.official.2018-04")


def test_times_and_dtypes(whole: PubgTelemetryFrames) -> None:
    for name, schema in TABLES.items():
        frame = whole.tables[name]
        assert list(frame.columns[: len(schema.columns)]) == schema.column_names, name
        for column in schema.columns:
            dtype = frame[column.name].dtype
            if column.kind == "category":
                assert isinstance(dtype, pd.CategoricalDtype), (name, column.name)
            else:
                assert dtype == column.dtype, (name, column.name)
            if column.kind == "datetime":
                assert dtype == DATETIME_DTYPE, (name, column.name)
        empty = PubgTelemetryFrames.empty().tables[name]
        assert list(empty.columns) == schema.column_names
    assert whole.other_events["time"].dt.tz is not None
    assert whole.files.loc[0, "started_at"] == pd.Timestamp("2025-07-12T17:10:27.418Z")


def test_other_events_keep_their_json(whole: PubgTelemetryFrames) -> None:
    events = raw_events(WHOLE)
    for row in whole.other_events.itertuples(index=False):
        assert orjson.loads(row.data) == events[row.event_index]
        assert row.event_type == events[row.event_index]["_T"]
