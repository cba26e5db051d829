"""Syncing an archive from the reference service over loopback: two periods 200 days apart, a
re-run, scopes, schema changes."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta
from pathlib import Path

import pandas as pd
import pytest

import matchkit.archive as archive
from matchkit.archive.manifest import read_manifest
from matchkit.errors import ArchiveScopeError, InvalidArgumentError, NotFoundError
from matchkit.rules.windows import format_time, parse_time
from tests.archive.conftest import (
    DAYS_PER_PERIOD,
    MATCHES_PER_PERIOD,
    NOW_A,
    NOW_B,
    client_of,
    serve,
    stored_tables,
)


def test_two_syncs_200_days_apart_keep_both_periods_once(
    two_periods: Path, store_dir: Path, tmp_path: Path
) -> None:
    folder = tmp_path / "archive"
    with (
        serve(two_periods, store_dir, NOW_A) as service,
        client_of(service, tmp_path / "cache") as client,
    ):
        first = archive.sync(client, folder, window=timedelta(days=30))
        period_a = client.matches(parse_time(NOW_A) - timedelta(days=DAYS_PER_PERIOD))
    assert first.added["matches"] == MATCHES_PER_PERIOD == len(period_a)
    with (
        serve(two_periods, store_dir, NOW_B) as service,
        client_of(service, tmp_path / "cache") as client,
    ):
        second = archive.sync(client, folder, window=timedelta(days=30))
        # The service has forgotten the first period...
        with pytest.raises(NotFoundError):
            client.get_match(period_a.matches["match_id"].iloc[0])
        period_b = client.matches(parse_time(NOW_B) - timedelta(days=DAYS_PER_PERIOD))
    assert second.added["matches"] == MATCHES_PER_PERIOD == len(period_b)
    # ... the archive has not, and it says where it could not reach: from where it was final
    # (6 hours before the first sync's end: the settle period) to where the service's
    # retention begins.
    assert [(gap.start.isoformat(), gap.end.isoformat()) for gap in second.gaps] == [
        ("2026-10-30T18:00:00+00:00", "2027-01-19T00:00:00+00:00")
    ]
    opened = archive.open(folder)
    ids = opened.matches["match_id"].compute()
    assert ids.is_unique
    expected = set(period_a.matches["match_id"]) | set(period_b.matches["match_id"])
    assert set(ids) == expected
    assert len(ids) == 2 * MATCHES_PER_PERIOD
    # Each batch records its tables' versions from its own commits (no table is reopened):
    # the last one's are the tables' latest, and no table's version goes back between batches.
    from matchkit.archive.versions import table_versions

    manifest = read_manifest(folder)
    assert dict(manifest.pinned()) == table_versions(folder)
    for batch in range(2, manifest.batch + 1):
        before, after = manifest.pinned(batch - 1), manifest.pinned(batch)
        assert all(after[label] >= version for label, version in before.items())
    # Every table as a fetch of each period gave it, each row once.
    frames = opened.to_frames()
    for name in ("rosters", "participants", "rounds", "round_participants", "assets"):
        key = {"round_participants": ["round_id", "participant_id"]}.get(name, [f"{name[:-1]}_id"])
        got = frames.tables[name].sort_values(key).reset_index(drop=True)
        want = pd.concat([period_a.tables[name], period_b.tables[name]])
        want = want.sort_values(key).reset_index(drop=True)
        assert not got.duplicated(key).any()
        pd.testing.assert_series_equal(got[key[0]], want[key[0]].astype(got[key[0]].dtype))
        assert len(got) == len(want)
    assert len(frames.matches) == 2 * MATCHES_PER_PERIOD
    info = archive.info(folder)
    assert info.tables["matches"].rows == 2 * MATCHES_PER_PERIOD
    assert info.first_match == period_a.matches["created_at"].min()
    assert info.last_match == period_b.matches["created_at"].max()


def test_a_rerun_reads_the_settle_period_again_and_adds_nothing(service_a, tmp_path: Path) -> None:
    folder = tmp_path / "archive"
    with client_of(service_a, tmp_path / "cache") as client:
        archive.sync(client, folder)
        before = stored_tables(folder)
        versions = archive.open(folder).versions
        again = archive.sync(client, folder, start="2026-09-01")
    assert not any(again.added.values())
    assert again.start == parse_time(NOW_A) - timedelta(hours=6)  # the settle period
    assert again.reread > 0  # matches it had: read again, none added twice
    assert "none added twice" in str(again)
    assert "start 2026-09-01T00:00:00Z ignored" in str(again)
    assert archive.open(folder).versions == versions
    after = stored_tables(folder)
    for label, frame in before.items():
        pd.testing.assert_frame_equal(after[label], frame)


def test_another_scope_is_refused_unless_asked(service_a, tmp_path: Path) -> None:
    folder = tmp_path / "archive"
    with client_of(service_a, tmp_path / "cache") as client:
        archive.sync(
            client, folder, now=parse_time(NOW_A) - timedelta(days=3), server_types=["QUICK3V3"]
        )
        with pytest.raises(ArchiveScopeError, match="QUICK3V3") as caught:
            archive.sync(client, folder)
        assert caught.value.stored.filters == (("server_types", ("QUICK3V3",)),)
        watermark = parse_time("2026-10-27T18:00:00Z")  # 6 hours before the end: settling
        assert read_manifest(folder).watermark == watermark  # unchanged
        changed = archive.sync(client, folder, allow_scope_change=True)
    assert changed.start == watermark
    manifest = read_manifest(folder)
    assert manifest.scope.filters == ()
    old, new = manifest.scopes
    assert old.scope.filters == (("server_types", ("QUICK3V3",)),)
    assert old.end == parse_time("2026-10-28T00:00:00Z")  # what its syncs had fetched
    assert new.start == watermark
    assert new.end is None


def test_bad_arguments_fail_before_anything_is_written(service_a, tmp_path: Path) -> None:
    folder = tmp_path / "archive"
    with client_of(service_a, tmp_path / "cache") as client:
        with pytest.raises(InvalidArgumentError, match="server_type"):
            archive.sync(client, folder, server_type=["QUICK3V3"])
        with pytest.raises(InvalidArgumentError, match="later than"):
            archive.sync(client, folder, now="2030-01-01")
        with pytest.raises(InvalidArgumentError, match="shard"):
            archive.sync(client, folder, shard="na")
        with pytest.raises(InvalidArgumentError, match=r"settle=.* zero or more"):
            archive.sync(client, folder, settle=timedelta(hours=-1))
        with pytest.raises(InvalidArgumentError, match=r"window=.* positive"):
            archive.sync(client, folder, window=timedelta(0))
    assert not folder.exists()


def test_buckets_are_chosen_at_creation_and_kept(service_a, tmp_path: Path) -> None:
    folder = tmp_path / "archive"
    with client_of(service_a, tmp_path / "cache") as client:
        with pytest.raises(InvalidArgumentError, match="1 to 1024"):
            archive.sync(client, folder, buckets=0)
        assert not folder.exists()
        archive.sync(client, folder, now=parse_time(NOW_A) - timedelta(days=3), buckets=3)
        assert read_manifest(folder).buckets == 3
        with pytest.raises(InvalidArgumentError, match="into 3 bucket"):
            archive.sync(client, folder, buckets=2)
        archive.sync(client, folder)  # the archive's own count, when left out
        frames = client.matches(parse_time(NOW_A) - timedelta(days=DAYS_PER_PERIOD))
    opened = archive.open(folder)
    months = opened.matches.divisions
    assert {str(value).rsplit(".", 1)[1] for value in months} <= {"0", "1", "2"}
    assert len({str(value).rsplit(".", 1)[1] for value in months}) == 3
    stored = opened.matches.compute().sort_values("match_id")["match_id"].tolist()
    assert stored == sorted(frames.matches["match_id"])


def test_a_new_column_is_added_explicitly_and_never_dropped(service_a, tmp_path: Path) -> None:
    from matchkit.archive.manifest import ArchiveManifest, write_manifest
    from matchkit.archive.state import Scope
    from matchkit.archive.versions import table_versions
    from matchkit.archive.writer import commit_batch, prepare_batch

    folder = tmp_path / "archive"
    with client_of(service_a, tmp_path / "cache") as client:
        frames = client.matches(parse_time(NOW_A) - timedelta(days=4))
    created = frames.matches["created_at"]
    cuts = [parse_time(NOW_A) - timedelta(days=days) for days in (3, 1)]
    early = frames.filter(created < cuts[0])
    middle = frames.filter((created >= cuts[0]) & (created < cuts[1]))
    late = frames.filter(created >= cuts[1])
    assert min(len(early), len(middle), len(late)) > 0
    commit_batch(folder, 1, prepare_batch(early.tables))
    # The service starts sending a new match stat.
    tables = dict(middle.tables)
    tables["matches"] = tables["matches"].assign(
        spectators_peak=pd.array(range(len(middle)), dtype="Int64")
    )
    added = commit_batch(folder, 2, prepare_batch(tables))
    assert added.new_columns == ["matches.spectators_peak"]
    # ... and stops again: the column stays, empty in the new rows.
    gone = commit_batch(folder, 3, prepare_batch(late.tables))
    assert gone.absent_columns == ["matches.spectators_peak"]
    assert gone.added["matches"] == len(late)
    # A batch of matches already there adds nothing, and reports nothing absent.
    again = commit_batch(folder, 4, prepare_batch(early.tables))
    assert again.added["matches"] == 0
    assert again.absent_columns == []
    manifest = ArchiveManifest.new(Scope("global"), source=None)
    write_manifest(folder, replace(manifest, batch=4, versions={4: table_versions(folder)}))
    matches = archive.open(folder).matches.compute()
    assert str(matches["spectators_peak"].dtype) == "Int64"
    assert matches["spectators_peak"].notna().sum() == len(middle)
    assert len(matches) == len(frames)


def test_a_repeated_batch_is_skipped_by_its_transaction(service_a, tmp_path: Path) -> None:
    from deltalake import DeltaTable

    from matchkit.archive.writer import commit_batch, prepare_batch

    folder = tmp_path / "archive"
    with client_of(service_a, tmp_path / "cache") as client:
        frames = client.matches(parse_time(NOW_A) - timedelta(days=2))
    first = commit_batch(folder, 1, prepare_batch(frames.tables))
    assert first.added["matches"] == len(frames)
    version = DeltaTable(str(folder / "matches")).version()
    again = commit_batch(folder, 1, prepare_batch(frames.tables))
    assert again.added == {}  # every table already had batch 1
    assert DeltaTable(str(folder / "matches")).version() == version
    assert DeltaTable(str(folder / "matches")).transaction_version("matchkit-archive") == 1


def test_telemetry_is_archived_with_its_matches(service_a, tmp_path: Path) -> None:
    folder = tmp_path / "archive"
    start = parse_time(NOW_A) - timedelta(days=1)
    with client_of(service_a, tmp_path / "cache") as client:
        result = archive.sync(client, folder, start=start, telemetry=True)
        frames = client.matches(start, NOW_A)
        telemetry = client.telemetry(frames)
    assert result.added["telemetry/files"] == len(frames) > 0
    opened = archive.open(folder)
    assert set(opened.telemetry.files["match_id"].compute()) == set(frames.matches["match_id"])
    deaths = opened.telemetry.deaths.compute().sort_values(["match_id", "cursor"])
    expected = telemetry.deaths.sort_values(["match_id", "cursor"])
    assert len(deaths) == len(expected) > 0
    assert list(deaths["user_id"].astype(str)) == list(expected["user_id"].astype(str))
    assert read_manifest(folder).scope.telemetry is True


def test_the_settle_period_is_read_again_and_adds_no_duplicate(service_a, tmp_path: Path) -> None:
    folder = tmp_path / "archive"
    day = parse_time(NOW_A) - timedelta(days=2)
    with client_of(service_a, tmp_path / "cache") as client:
        first = archive.sync(client, folder, start=day - timedelta(days=2), now=day)
        before = len(service_a.requests)
        second = archive.sync(client, folder, now=day + timedelta(days=1))
        asked = len(service_a.requests) - before
        frames = client.matches(day - timedelta(days=2), day + timedelta(days=1))
    settle = timedelta(hours=6)
    assert first.watermark == day - settle  # final only up to the settle period
    assert second.start == day - settle  # ... which the next sync reads again
    assert second.watermark == day + timedelta(days=1) - settle
    created = frames.matches["created_at"]
    overlap = ((created >= day - settle) & (created < day)).sum()
    assert second.reread == overlap > 0  # read again: requests, not rows
    assert asked > 0
    assert second.added["matches"] == ((created >= day) & (created < day + timedelta(days=1))).sum()
    tables = stored_tables(folder)
    keys = {
        "matches": ["match_id"],
        "participants": ["participant_id"],
        "rosters": ["roster_id"],
        "players": ["player_id", "match_id"],
    }
    for label, key in keys.items():
        assert not tables[label].duplicated(key).any(), label
    assert set(tables["matches"]["match_id"]) == set(frames.matches["match_id"])
    info = archive.info(folder)
    assert info.watermark == second.watermark
    assert f"final up to: {format_time(second.watermark)}" in str(info)
