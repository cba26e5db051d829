"""The PUBG analyses on files of the double's sample set, each checked against the same numbers
computed another way from the raw events, and against the sample set's documented truths."""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from datetime import datetime

import numpy as np
import pytest

from matchkit.analysis.pubg import (
    damage_by_placement,
    first_knock_summary,
    first_knock_times,
    kill_distances,
    landing_spots,
    player_damage,
    weapon_kill_shares,
    winner_zone_positions,
    zone_phases,
)
from matchkit.telemetry.pubg import MAP_SIZES
from tests.analysis.pubg import sample


def _time(text: str) -> datetime:
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


def _player_kills() -> list[dict]:
    return [
        event
        for events in sample.raw().values()
        for event in sample.of_type(events, "LogPlayerKillV2")
        if event["killer"] is not None and not event["isSuicide"]
    ]


def test_weapon_kill_shares_count_the_raw_kills() -> None:
    table = weapon_kill_shares(sample.frames(), sample.telemetry(), names=sample.names())
    expected = Counter(e["killerDamageInfo"]["damageCauserName"] for e in _player_kills())
    assert dict(zip(table["damage_causer"], table["kills"], strict=True)) == dict(expected)
    total = sum(expected.values())
    assert (table["group_kills"] == total).all()
    assert table["share"].to_numpy() == pytest.approx(table["kills"].to_numpy() / total)
    assert (table["ci_low"] <= table["share"]).all()
    assert (table["share"] <= table["ci_high"]).all()
    assert table["share"].sum() == pytest.approx(1.0)
    deaths = sum(len(sample.of_type(e, "LogPlayerKillV2")) for e in sample.raw().values())
    assert table.attrs["excluded"]["deaths without a player killer (zone, fall, suicide)"] == (
        deaths - total
    )
    # names from the sample set's catalogue; ids it does not name stay ids
    named = dict(zip(table["damage_causer"], table["damage_causer_name"], strict=True))
    assert named["WeapHK416_C"] == "M416"
    assert list(table["kills"]) == sorted(table["kills"], reverse=True)


def test_weapon_kill_shares_by_map_add_up_within_each_map() -> None:
    table = weapon_kill_shares(sample.frames(), sample.telemetry(), by="map_name")
    map_of = sample.map_of()
    expected = Counter()
    for match, events in sample.raw().items():
        for event in sample.of_type(events, "LogPlayerKillV2"):
            if event["killer"] is not None and not event["isSuicide"]:
                expected[map_of[match]] += 1
    sums = table.groupby("map_name")["kills"].sum()
    assert sums.to_dict() == dict(expected)
    assert table.groupby("map_name")["share"].sum().to_numpy() == pytest.approx(1.0)


def test_without_names_causers_show_as_their_ids() -> None:
    table = weapon_kill_shares(sample.frames(), sample.telemetry())
    assert (table["damage_causer_name"] == table["damage_causer"]).all()


def test_kill_distances_are_the_raw_distances_quantiles() -> None:
    table = kill_distances(sample.frames(), sample.telemetry(), names=sample.names())
    by_causer = defaultdict(list)
    for event in _player_kills():
        info = event["killerDamageInfo"]
        by_causer[info["damageCauserName"]].append(info["distance"] / 100)
    assert set(table["damage_causer"]) == set(by_causer)
    for row in table.itertuples():
        values = np.array(by_causer[row.damage_causer])
        assert row.kills == len(values)
        assert row.mean_m == pytest.approx(values.mean())
        assert row.q50_m == pytest.approx(np.median(values))
        assert row.q90_m == pytest.approx(np.quantile(values, 0.9))
        assert row.max_m == pytest.approx(values.max())
        if not math.isnan(row.median_ci_low_m):
            # the interval holds the median and is made of observed distances
            assert row.median_ci_low_m <= row.q50_m <= row.median_ci_high_m
            assert row.median_ci_low_m in values
            assert row.median_ci_high_m in values


def test_kill_distances_leave_out_causers_with_few_kills_and_count_them() -> None:
    full = kill_distances(sample.frames(), sample.telemetry())
    cut = int(full["kills"].median()) + 1
    table = kill_distances(sample.frames(), sample.telemetry(), min_kills=cut)
    assert (table["kills"] >= cut).all()
    excluded = table.attrs["excluded"][f"causers with fewer than {cut} kills"]
    assert excluded == int((full["kills"] < cut).sum()) > 0


def test_first_knock_is_the_raw_first_groggy_after_the_match_start() -> None:
    table = first_knock_times(sample.frames(), sample.telemetry()).set_index("match_id")
    assert len(table) == sample.MATCHES
    for match, events in sample.raw().items():
        start = _time(sample.of_type(events, "LogMatchStart")[0]["_D"])
        knocks = [_time(e["_D"]) for e in sample.of_type(events, "LogPlayerMakeGroggy")]
        assert table.loc[match, "knocks"] == len(knocks)
        if knocks:
            seconds = (min(knocks) - start).total_seconds()
            assert table.loc[match, "first_knock_s"] == pytest.approx(seconds)
        else:
            assert math.isnan(table.loc[match, "first_knock_s"])


def test_solo_matches_have_no_knock_as_the_sample_set_says() -> None:
    """docs/pubg.md: knocks only in team modes (70% of kills there)."""
    table = first_knock_times(sample.frames(), sample.telemetry())
    solo = table["game_mode"].astype(str).str.startswith("solo")
    assert solo.any()
    assert table.loc[solo, "first_knock_s"].isna().all()
    teams = table["game_mode"].astype(str).str.contains("duo|squad")
    assert table.loc[teams, "first_knock_s"].notna().all()


def test_first_knock_summary_describes_the_matches_with_a_knock() -> None:
    times = first_knock_times(sample.frames(), sample.telemetry())
    summary = first_knock_summary(sample.frames(), sample.telemetry())
    knocked = times["first_knock_s"].dropna()
    row = summary.iloc[0]
    assert row["matches"] == len(knocked)
    assert row["mean_s"] == pytest.approx(knocked.mean())
    assert row["median_s"] == pytest.approx(knocked.median())
    assert row["mean_ci_low_s"] < row["mean_s"] < row["mean_ci_high_s"]
    assert summary.attrs["excluded"]["matches without a knock"] == len(times) - len(knocked)
    by_mode = first_knock_summary(sample.frames(), sample.telemetry(), by="game_mode")
    assert by_mode["matches"].sum() == len(knocked)


def test_landing_spots_bin_the_raw_landings() -> None:
    bins = 16
    table = landing_spots(sample.frames(), sample.telemetry(), bins=bins, names=sample.names())
    map_of = sample.map_of()
    expected: Counter = Counter()
    unknown = 0
    for match, events in sample.raw().items():
        size = MAP_SIZES.get(map_of[match])
        for event in sample.of_type(events, "LogParachuteLanding"):
            if size is None:
                unknown += 1
                continue
            location = event["character"]["location"]
            cell = (
                min(int(location["x"] * bins // size), bins - 1),
                min(int(location["y"] * bins // size), bins - 1),
            )
            expected[(map_of[match], *cell)] += 1
    got = {
        (row.map_id, row.x_bin, row.y_bin): row.landings
        for row in table.itertuples()
        if row.landings
    }
    assert got == dict(expected)
    assert table.attrs["excluded"]["landings on maps of unknown size"] == unknown > 0
    assert table.groupby("map_id")["share"].sum().to_numpy() == pytest.approx(1.0)
    assert (table.groupby("map_id").size() == bins * bins).all()
    assert "Erangel" in set(table["map_name"])


def test_landing_spots_take_the_size_of_an_undocumented_map() -> None:
    table = landing_spots(sample.frames(), sample.telemetry(), map_size={"Neon_Main": 816_000})
    assert "Neon_Main" in set(table["map_id"])
    assert table.attrs["excluded"]["landings on maps of unknown size"] == 0
    landings = sum(
        len(sample.of_type(events, "LogParachuteLanding")) for events in sample.raw().values()
    )
    assert table["landings"].sum() == landings


def test_winner_zone_positions_match_the_raw_game_states() -> None:
    table = winner_zone_positions(sample.frames(), sample.telemetry())
    documents = {doc["data"]["id"]: doc for doc in sample.documents()}
    expected = []
    for match, events in sample.raw().items():
        won = sample.winners(documents[match])
        states = sample.of_type(events, "LogGameStatePeriodic")
        for event in sample.of_type(events, "LogPlayerPosition"):
            if event["character"]["accountId"] not in won:
                continue
            before = [s for s in states if s["_D"] <= event["_D"]]
            # the safe zone (the white circle) is PUBG's poisonGasWarning; safetyZone is blue
            if not before or before[-1]["gameState"]["poisonGasWarningRadius"] <= 0:
                continue
            state = before[-1]["gameState"]
            here = event["character"]["location"]
            centre = state["poisonGasWarningPosition"]
            distance = math.hypot(here["x"] - centre["x"], here["y"] - centre["y"])
            expected.append(distance / state["poisonGasWarningRadius"])
    assert len(table) == len(expected) > 0
    assert sorted(table["relative_distance"]) == pytest.approx(sorted(expected))
    assert (table["inside"] == (table["relative_distance"] <= 1)).all()


def test_zone_phases_summarise_the_winner_positions() -> None:
    positions = winner_zone_positions(sample.frames(), sample.telemetry())
    table = zone_phases(sample.frames(), sample.telemetry())
    assert table["positions"].sum() == len(positions)
    assert list(table["phase"]) == sorted(table["phase"])
    for row in table.itertuples():
        rows = positions[positions["phase"] == row.phase]
        assert row.mean_relative_distance == pytest.approx(rows["relative_distance"].mean())
        assert row.inside == int((rows["relative_distance"] <= 1).sum())
        assert row.inside_ci_low <= row.inside_share <= row.inside_ci_high


def test_player_damage_is_the_documents_damage_dealt() -> None:
    """docs/pubg.md: a participant's damageDealt is the sum of its hits."""
    table = player_damage(sample.frames(), sample.telemetry())
    assert len(table) == len(sample.frames().participants)
    assert table["damage"].to_numpy() == pytest.approx(table["damage_dealt"].to_numpy())
    raw = defaultdict(float)
    for match, events in sample.raw().items():
        for event in sample.of_type(events, "LogPlayerTakeDamage"):
            attacker = event.get("attacker")
            if attacker and attacker["teamId"] != event["victim"]["teamId"]:
                raw[(match, attacker["accountId"])] += event["damage"]
    got = {(row.match_id, row.player_id): row.damage for row in table.itertuples() if row.damage}
    assert got == pytest.approx(dict(raw))


def test_damage_by_placement_averages_the_players_of_each_rank() -> None:
    players = player_damage(sample.frames(), sample.telemetry())
    table = damage_by_placement(sample.frames(), sample.telemetry())
    assert table["players"].sum() == len(players)
    for row in table.itertuples():
        rows = players[players["rank"] == row.rank]
        assert row.mean_damage == pytest.approx(rows["damage"].mean())
    # the documented model: better placement, more time alive, more kills and damage
    first = table.set_index("rank").loc[1, "mean_damage"]
    assert first > table.loc[table["rank"] >= 10, "mean_damage"].mean()
