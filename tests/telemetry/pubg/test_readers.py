"""The typed reader and the general reader give identical tables, whatever the batch size, and
what neither knows is kept and counted: an unknown member as an extra column, an unknown event
type in other_events, a value of another type as missing, each with a problem."""

from __future__ import annotations

import copy
from typing import Any

import orjson
import pandas as pd
import pytest

from matchkit.telemetry.pubg import PubgTelemetryFrames, build, read_pubg_file
from matchkit.telemetry.pubg.schema import TABLE_NAMES
from tests.telemetry.pubg.files import WHOLE, of_type, raw_events, recorded, small_file


def general(source: Any, monkeypatch: pytest.MonkeyPatch, **options: Any) -> PubgTelemetryFrames:
    """read_pubg_file with the typed reader refusing every batch."""

    class Refusing:
        def read(self, raws: object) -> None:
            return None

    with monkeypatch.context() as patch:
        patch.setattr(build, "typed_reader", lambda source: Refusing())
        return read_pubg_file(source, **options)


def assert_same(left: PubgTelemetryFrames, right: PubgTelemetryFrames) -> None:
    for name in TABLE_NAMES:
        pd.testing.assert_frame_equal(left.tables[name], right.tables[name], obj=name)
    assert left.problems == right.problems


def test_typed_and_general_readers_agree_on_the_whole_file(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    path = recorded(WHOLE)
    assert_same(read_pubg_file(path), general(path, monkeypatch))


@pytest.mark.parametrize("batch_events", [1, 7, 100])
def test_the_tables_do_not_depend_on_the_batch_size(batch_events: int) -> None:
    path = recorded(WHOLE)
    assert_same(read_pubg_file(path), read_pubg_file(path, batch_events=batch_events))


def test_a_batch_the_typed_reader_refuses_is_read_the_general_way() -> None:
    """One position with a new member: its batch goes general, the others stay typed; the
    declared columns are the same as without it, and the new member is an extra column."""
    events = raw_events(WHOLE)
    changed = copy.deepcopy(events)
    position = next(i for i, e in enumerate(changed) if e["_T"] == "LogPlayerPosition")
    changed[position]["character"]["stance"] = "prone"
    plain = read_pubg_file(orjson.dumps(events), batch_events=64)
    mixed = read_pubg_file(orjson.dumps(changed), batch_events=64)
    positions = mixed.positions
    pd.testing.assert_frame_equal(positions.drop(columns=["player_stance"]), plain.positions)
    assert positions["player_stance"].notna().sum() == 1
    assert positions.loc[positions["event_index"] == position, "player_stance"].item() == "prone"
    assert mixed.problems == (
        "positions.player_stance: character.stance is a new member matchkit does not know, in "
        "1 event(s); kept as an extra column",
    )


def test_a_value_of_another_type_is_missing_and_reported() -> None:
    events = small_file()
    hit = of_type(events, "LogPlayerTakeDamage")[0]
    hit["damage"] = "a lot"
    hit["victim"]["teamId"] = 2.5
    frames = read_pubg_file(orjson.dumps(events))
    assert pd.isna(frames.damage.loc[0, "damage"])
    assert pd.isna(frames.damage.loc[0, "victim_team_id"])
    assert any(p.startswith("damage.damage:") for p in frames.problems)
    assert any(p.startswith("damage.victim_team_id:") for p in frames.problems)
    assert frames.damage.loc[0, "victim_id"] == hit["victim"]["accountId"]  # the rest is read


def test_an_unknown_event_type_is_kept_and_counted() -> None:
    future = {"_T": "LogPlayerTeleport", "_D": "2026-01-01T00:00:00.000Z", "to": {"x": 1}}
    frames = read_pubg_file(orjson.dumps(small_file(future)))
    other = frames.other_events
    assert other["event_type"].tolist() == ["LogPlayerTeleport"]
    assert orjson.loads(other.loc[0, "data"]) == future
    assert other.loc[0, "time"] == pd.Timestamp("2026-01-01", tz="UTC")
    counts = frames.event_counts.set_index("event_type")
    assert counts.loc["LogPlayerTeleport", "table"] == "other_events"
    assert not counts.loc["LogPlayerTeleport", "documented"]
    assert frames.problems == (
        "event type 'LogPlayerTeleport' is not in PUBG's documentation (1 event(s)); kept whole "
        "in other_events",
    )


def test_a_documented_type_without_a_table_is_no_problem() -> None:
    attack = of_type(raw_events(WHOLE), "LogPlayerAttack")[0]
    frames = read_pubg_file(orjson.dumps(small_file(attack)))
    assert frames.problems == ()
    assert frames.other_events["event_type"].tolist() == ["LogPlayerAttack"]


def test_an_object_that_is_not_one_is_kept_as_an_extra_column() -> None:
    events = small_file()
    kill = of_type(events, "LogPlayerKillV2")[0]
    kill["killerDamageInfo"] = "gun"
    frames = read_pubg_file(orjson.dumps(events))
    assert frames.kills.loc[0, "killer_damage_info"] == "gun"
    assert pd.isna(frames.kills.loc[0, "damage_causer_name"])
    assert frames.problems == (
        "kills.killer_damage_info: killerDamageInfo is not an object matchkit does not know, in "
        "1 event(s); kept as an extra column",
    )


def test_null_members_read_as_missing() -> None:
    """Real CDN files carry null members (the recorded whole file had its nulls dropped)."""
    events = small_file()
    kill = of_type(events, "LogPlayerKillV2")[0]
    kill["killer"] = None
    kill["dBNOMaker"] = None
    position = of_type(events, "LogPlayerPosition")[0]
    position["vehicle"] = None
    frames = read_pubg_file(orjson.dumps(events))
    assert frames.problems == ()
    assert pd.isna(frames.kills.loc[0, "killer_id"])
    assert pd.isna(frames.kills.loc[0, "killer_x"])
    assert pd.isna(frames.positions.loc[0, "vehicle_id"])


def test_a_common_that_is_not_an_object_is_a_problem_not_an_error() -> None:
    events = small_file()
    of_type(events, "LogPlayerTakeDamage")[0]["common"] = "in game"
    frames = read_pubg_file(orjson.dumps(events))
    assert frames.damage.loc[0, "common"] == "in game"
    assert pd.isna(frames.damage.loc[0, "phase"])
    assert frames.problems == (
        "damage.common: common is not an object matchkit does not know, in 1 event(s); kept as "
        "an extra column",
    )


def test_frames_of_two_files_combine() -> None:
    whole = read_pubg_file(recorded(WHOLE))
    excerpt = read_pubg_file(recorded("telemetry-excerpt-tpa-dist.json"))
    both = PubgTelemetryFrames.concat([whole, excerpt, whole])
    assert both.match_ids == [*whole.match_ids, *excerpt.match_ids]
    for name in TABLE_NAMES:
        assert len(both.tables[name]) == len(whole.tables[name]) + len(excerpt.tables[name])
        for column, dtype in whole.tables[name].dtypes.items():
            combined = both.tables[name][column].dtype
            same = (
                isinstance(combined, pd.CategoricalDtype)
                if dtype == "category"
                else (combined == dtype)
            )
            assert same, (name, column)
    assert both.kills["event_type"].tolist() == ["LogPlayerKillV2"] * 34 + ["LogPlayerKill"]


def test_new_members_of_the_nested_lists_are_kept() -> None:
    events = raw_events(WHOLE)
    end = of_type(events, "LogMatchEnd")[0]
    end["characters"][0]["skin"] = "gold"
    end["allWeaponStats"][0]["stats"][0]["reloads"] = 3
    end["newSummary"] = {"x": 1}
    frames = read_pubg_file(orjson.dumps(events))
    rankings = frames.match_end
    assert rankings["skin"].iloc[0] == "gold"
    assert rankings["skin"].iloc[1:].isna().all()
    assert rankings["new_summary"].unique().tolist() == ['{"x":1}']  # each row of its event
    assert frames.weapon_stats.loc[0, "reloads"] == 3
    assert set(frames.problems) == {
        "match_end.skin: characters.skin is a new member matchkit does not know, in 1 row(s); "
        "kept as an extra column",
        "match_end.new_summary: newSummary is a new member matchkit does not know, in 36 row(s); "
        "kept as an extra column",
        "weapon_stats.reloads: allWeaponStats.stats.reloads is a new member matchkit does not "
        "know, in 1 row(s); kept as an extra column",
    }
