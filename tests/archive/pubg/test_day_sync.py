"""``archive.sync`` of the PUBG double: a day of its clock a batch, across more than its 14
days of retention, every sampled match exactly once, the lost days recorded and reported."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pandas as pd
import pytest

import matchkit.archive as archive
from matchkit.archive.days import format_days
from matchkit.archive.manifest import read_manifest
from matchkit.archive.state import Gap, Scope
from matchkit.errors import ArchiveScopeError, InvalidArgumentError
from tests.archive.pubg.conftest import SHARD, archived_ids, client_at, sampled, utc

FIRST_NOW = "2026-11-04T00:00:00Z"
SECOND_NOW = "2026-11-19T00:00:00Z"  # 15 days later: the days from 11-03 to 11-05 are gone


def test_two_syncs_across_more_than_14_days_hold_every_sampled_match_once(
    pubg_double, tmp_path: Path
) -> None:
    folder, cache = tmp_path / "archive", tmp_path / "cache"
    with client_at(pubg_double, FIRST_NOW, cache) as client:
        first = archive.sync(client, folder, start="2026-11-01T07:00:00Z")
    # The start's day, then each day to the newest sample (11-03, still open: its end is
    # less than 24 hours old).
    assert [f"{record.day:%m-%d}" for record in first.days] == ["11-01", "11-02", "11-03"]
    assert [record.final for record in first.days] == [True, True, False]
    assert first.watermark == utc("2026-11-03T00:00:00Z")
    expected = sampled(pubg_double, "2026-11-01", "2026-11-03", now=FIRST_NOW)
    assert sorted(archived_ids(folder)) == sorted(expected)

    with client_at(pubg_double, SECOND_NOW, cache) as client:
        second = archive.sync(client, folder)
    # 11-03 and 11-04 were forgotten by the service before this sync came: a gap.
    assert second.gaps == [Gap(utc("2026-11-03T00:00:00Z"), utc("2026-11-05T00:00:00Z"))]
    assert "days lost (the service no longer served them): 2026-11-03, 2026-11-04" in str(second)
    assert f"{second.days[0].day:%m-%d}" == "11-05"
    assert f"{second.days[-1].day:%m-%d}" == "11-18"
    expected |= sampled(pubg_double, "2026-11-05", "2026-11-18", now=SECOND_NOW)
    ids = archived_ids(folder)
    assert len(ids) == len(set(ids))  # exactly once
    assert set(ids) == expected  # every sampled match of the days synced
    manifest = read_manifest(folder)
    assert manifest is not None
    assert manifest.scope == Scope(SHARD, profile="pubg")
    assert manifest.gaps == tuple(second.gaps)
    assert sum(record.added for record in manifest.days) == len(expected)

    # Again at the same now: only the open day is read again, and nothing is added twice.
    with client_at(pubg_double, SECOND_NOW, cache) as client:
        third = archive.sync(client, folder)
    assert [f"{record.day:%m-%d}" for record in third.days] == ["11-18"]
    assert third.added.get("matches", 0) == 0
    assert third.reread == third.days[0].listed > 0
    assert sorted(archived_ids(folder)) == sorted(ids)

    shown = str(archive.info(folder))
    assert "scope: profile pubg; shard console" in shown
    assert f"{FIRST_NOW}: 2026-11-01 to 2026-11-03 (3 days): +" in shown
    assert f"{SECOND_NOW}: 2026-11-05 to 2026-11-18 (14 days): +" in shown
    assert "days lost (the service no longer served them): 2026-11-03, 2026-11-04" in shown
    empty = [
        utc(f"2026-11-{day:02d}T00:00:00Z")
        for day, now in [(1, FIRST_NOW), (2, FIRST_NOW), *((n, SECOND_NOW) for n in range(5, 19))]
        if not sampled(pubg_double, f"2026-11-{day:02d}", f"2026-11-{day:02d}", now=now)
    ]
    assert f"days with no sample (nothing listed): {format_days(empty) or 'none'}" in shown


def test_the_archive_reads_back_as_the_client_fetched_it(pubg_double, tmp_path: Path) -> None:
    folder, cache = tmp_path / "archive", tmp_path / "cache"
    now = "2026-11-12T00:00:00Z"
    with client_at(pubg_double, now, cache) as client:
        archive.sync(client, folder, start="2026-11-10")
        fetched = client.samples(start="2026-11-10")
    opened = archive.open(folder)
    day = fetched.matches["match_id"].tolist()
    assert set(day) <= set(archived_ids(folder))
    columns = ["match_id", "game", "map_name", "game_mode", "match_type", "is_royale"]
    stored = opened.matches[columns].compute()
    stored = stored[stored["match_id"].isin(day)].sort_values("match_id")
    expected = fetched.matches[columns].sort_values("match_id")
    pd.testing.assert_frame_equal(
        stored.reset_index(drop=True).astype(str), expected.reset_index(drop=True).astype(str)
    )
    people = ["match_id", "player_id", "kind", "dbnos", "kills", "win_place"]
    people = [column for column in people if column in fetched.participants.columns]
    stored = opened.participants[people].compute()
    stored = stored[stored["match_id"].isin(day)].sort_values(["match_id", "player_id"])
    expected = fetched.participants[people].sort_values(["match_id", "player_id"])
    pd.testing.assert_frame_equal(
        stored.reset_index(drop=True).astype(str), expected.reset_index(drop=True).astype(str)
    )
    # The PUBG analyses on these tables: tests/archive/pubg/test_telemetry.py.


def test_a_player_centred_scope_keeps_those_players_matches(pubg_double, tmp_path: Path) -> None:
    folder, cache = tmp_path / "archive", tmp_path / "cache"
    now = "2026-11-12T00:00:00Z"
    sample_set = pubg_double.app.state.service.sample_set
    plan = sample_set.shard(SHARD)
    # Two of the most active players: their matches span the days synced.
    busiest = sorted(
        plan.players_by_name.values(), key=lambda p: -len(plan.matches_of.get(p.id, ()))
    )
    names = [player.name for player in busiest[:2]]
    with client_at(pubg_double, now, cache) as client:
        result = archive.sync(client, folder, start="2026-11-08", player_names=names)
    # The days from the start to the newest sample's (11-11, open: read again next time).
    first, end = utc("2026-11-08T00:00:00Z"), utc("2026-11-12T00:00:00Z")
    expected = {
        match.id
        for player in busiest[:2]
        for match in sample_set.player_matches(SHARD, player, now=utc(now))
        if first <= match.created_at < end
    }
    assert expected  # the test tests something
    ids = archived_ids(folder)
    assert len(ids) == len(set(ids)) == len(expected)
    assert set(ids) == expected
    assert [f"{record.day:%m-%d}" for record in result.days] == ["11-08", "11-09", "11-10", "11-11"]
    assert read_manifest(folder).scope == Scope.of(  # type: ignore[union-attr]
        SHARD, {"player_names": names}, telemetry=False, profile="pubg"
    )
    # A sample scope is another scope: refused unless asked for.
    with client_at(pubg_double, now, cache) as client:
        with pytest.raises(ArchiveScopeError, match="allow_scope_change"):
            archive.sync(client, folder)
        changed = archive.sync(client, folder, allow_scope_change=True)
    assert changed.days
    assert [record.day for record in changed.days] == [utc("2026-11-11T00:00:00Z")]
    history = read_manifest(folder).scopes  # type: ignore[union-attr]
    assert [period.scope.filters for period in history] == [
        (("player_names", tuple(sorted(names))),),
        (),
    ]


def test_an_archive_of_another_profile_is_refused_even_with_a_scope_change(
    pubg_double, tmp_path: Path
) -> None:
    from matchkit.archive.manifest import ArchiveManifest, write_manifest

    folder = tmp_path / "archive"
    folder.mkdir()
    write_manifest(folder, ArchiveManifest.new(Scope("global"), source=None))
    before = len(pubg_double.requests.entries)
    with (
        client_at(pubg_double, "2026-11-12T00:00:00Z", tmp_path / "cache") as client,
        pytest.raises(ArchiveScopeError, match="gamelocker profile"),
    ):
        archive.sync(client, folder, allow_scope_change=True)
    assert len(pubg_double.requests.entries) == before


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ({"player_names": [f"p{n}" for n in range(11)]}, "at most 10"),
        ({"server_types": ["QUICK3V3"]}, "takes the filters player_names on the pubg"),
        ({"window": timedelta(days=2)}, "a batch is one day of its samples"),
        ({"settle": timedelta(hours=1)}, "leave settle out"),
        ({"start": "2026-13-40"}, "not an ISO 8601"),
        ({"shard": "global"}, "the client fetches from 'console'"),
    ],
)
def test_bad_input_is_refused_before_any_request(
    pubg_double, tmp_path: Path, arguments: dict, message: str
) -> None:
    with client_at(pubg_double, "2026-11-12T00:00:00Z", tmp_path / "cache") as client:
        before = len(pubg_double.requests.entries)
        with pytest.raises(InvalidArgumentError, match=message):
            archive.sync(client, tmp_path / "archive", **arguments)
        assert len(pubg_double.requests.entries) == before
    assert not (tmp_path / "archive").exists()
