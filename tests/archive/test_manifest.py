"""The archive's typed state (``archive.json``): values that round-trip, the transitions a sync
makes, the format of the matchkit before (``matchkit-archive/1``) read and continued, and a
damaged field refused by name."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import orjson
import pytest

import matchkit.archive as archive
from matchkit.archive.manifest import FORMAT, ArchiveManifest, read_manifest
from matchkit.archive.state import Gap, PendingBatch, Scope, ScopePeriod
from matchkit.errors import ArchiveError
from matchkit.rules.windows import format_time, parse_time
from tests.archive.conftest import NOW_A, client_of, stored_tables

T = parse_time("2026-10-01T00:00:00Z")
QUICK = Scope.of("global", {"server_types": ["QUICK3V3", "QUICK2V2"]}, telemetry=False)
EVERYTHING = Scope("global", telemetry=True)


def full_manifest() -> ArchiveManifest:
    return ArchiveManifest(
        scopes=(ScopePeriod(QUICK, T, T + timedelta(days=3)), ScopePeriod(EVERYTHING, T)),
        source="http://127.0.0.1:8000",
        buckets=3,
        batch=4,
        watermark=T + timedelta(days=5),
        synced_to=T + timedelta(days=5, hours=6),
        pending=PendingBatch(5, T, T + timedelta(days=6), T + timedelta(days=5, hours=18), ("a",)),
        versions={1: {"matches": 0}, 4: {"matches": 3, "telemetry/deaths": 1}},
        gaps=(Gap(T - timedelta(days=9), T - timedelta(days=2)),),
        problems={2: ("note one", "note two")},
    )


def test_every_field_round_trips_through_json(tmp_path: Path) -> None:
    manifest = full_manifest()
    text = orjson.loads(orjson.dumps(manifest.to_json()))
    assert text["format"] == FORMAT
    assert ArchiveManifest.from_json(text, path=tmp_path) == manifest
    assert QUICK.filters == (("server_types", ("QUICK2V2", "QUICK3V3")),)  # sorted: one scope
    assert QUICK.filter_arguments() == {"server_types": ["QUICK2V2", "QUICK3V3"]}


def test_the_transitions_of_a_sync() -> None:
    manifest = ArchiveManifest.new(QUICK, source="s").with_start(T)
    assert manifest.scopes == (ScopePeriod(QUICK, T),)
    assert manifest.pinned() == {}  # no batch yet: readers see nothing
    pending = PendingBatch(1, T, T + timedelta(days=1), T + timedelta(hours=18))
    done = manifest.with_pending(pending).with_batch_done(pending, {"matches": 0})
    assert (done.batch, done.pending, done.pinned()) == (1, None, {"matches": 0})
    assert done.watermark == T + timedelta(hours=18)  # final up to end - settle
    assert done.synced_to == T + timedelta(days=1)
    # A later batch never moves the watermark back (a re-read of the settle period).
    again = PendingBatch(2, done.watermark, T + timedelta(days=1), done.watermark)
    assert done.with_batch_done(again, {"matches": 1}).watermark == done.watermark
    changed = done.with_scope(EVERYTHING, start=done.watermark)
    assert changed.scopes == (
        ScopePeriod(QUICK, T, T + timedelta(days=1)),
        ScopePeriod(EVERYTHING, T + timedelta(hours=18)),
    )
    gap = Gap(done.watermark, T + timedelta(days=30))
    past = done.with_gap(gap)
    assert (past.gaps, past.watermark) == ((gap,), gap.end)
    with pytest.raises(KeyError):
        done.pinned(7)


def v1_of(manifest: ArchiveManifest, *, scopes: list[dict] | None = None) -> dict:
    """``manifest`` as the matchkit before wrote it (``matchkit-archive/1``): the scope, the
    earlier scopes with the watermark each ended at, the watermark at the last batch's end."""
    scope = manifest.scope.to_json()
    return {
        "format": "matchkit-archive/1",
        "scope": scope,
        "source": manifest.source,
        "batch": manifest.batch,
        "watermark": format_time(manifest.synced_to) if manifest.synced_to else None,
        "pending": None,
        "versions": {str(n): dict(versions) for n, versions in manifest.versions.items()},
        "gaps": [gap.to_json() for gap in manifest.gaps],
        "scopes": scopes or [],
        "buckets": manifest.buckets,
        "problems": {str(n): list(notes) for n, notes in manifest.problems.items()},
    }


def test_the_format_before_is_read_as_it_meant(tmp_path: Path) -> None:
    old = {
        "format": "matchkit-archive/1",
        "scope": EVERYTHING.to_json(),
        "source": "embedded sample service",
        "batch": 2,
        "watermark": "2026-10-05T00:00:00Z",
        "pending": {
            "batch": 3,
            "start": "2026-10-05T00:00:00Z",
            "end": "2026-10-06T00:00:00Z",
            "problems": ["x"],
        },
        "versions": {"1": {"matches": 0}, "2": {"matches": 1}},
        "gaps": [["2026-09-01T00:00:00Z", "2026-09-02T00:00:00Z"]],
        "scopes": [{"scope": QUICK.to_json(), "until": "2026-10-02T00:00:00Z"}],
    }  # no "buckets" nor "problems": the first archives had none
    manifest = ArchiveManifest.from_json(old, path=tmp_path / "archive.json")
    assert manifest.scopes == (
        ScopePeriod(QUICK, None, parse_time("2026-10-02T00:00:00Z")),
        ScopePeriod(EVERYTHING, parse_time("2026-10-02T00:00:00Z")),
    )
    assert manifest.watermark == manifest.synced_to == parse_time("2026-10-05T00:00:00Z")
    assert manifest.pending == PendingBatch(
        3, parse_time("2026-10-05"), parse_time("2026-10-06"), parse_time("2026-10-06"), ("x",)
    )
    assert (manifest.buckets, manifest.problems, manifest.pinned()) == (1, {}, {"matches": 1})
    assert "from the archive's start to 2026-10-02T00:00:00Z" in str(manifest.scopes[0])


def test_an_archive_of_the_format_before_opens_and_syncs_on(service_a, tmp_path: Path) -> None:
    folder = tmp_path / "archive"
    start = parse_time(NOW_A) - timedelta(days=2)
    with client_of(service_a, tmp_path / "cache") as client:
        archive.sync(
            client, folder, start=start, now=start + timedelta(days=1), settle=timedelta(0)
        )
        # The manifest as the matchkit before wrote it for this archive.
        (folder / "archive.json").write_bytes(orjson.dumps(v1_of(read_manifest(folder))))
        before = stored_tables(folder)
        opened = archive.open(folder)
        assert opened.scope == Scope("global")
        assert opened.scopes[0].start is None  # not recorded by the format before
        assert archive.info(folder).tables["matches"].rows == len(opened.matches) > 0
        for label, frame in stored_tables(folder).items():  # reading changed nothing
            assert frame.equals(before[label]), label
        result = archive.sync(client, folder)
        frames = client.matches(start, NOW_A)
    assert result.start == start + timedelta(days=1)  # from the old watermark
    assert read_manifest(folder).watermark == parse_time(NOW_A) - timedelta(hours=6)
    assert orjson.loads((folder / "archive.json").read_bytes())["format"] == FORMAT
    ids = archive.open(folder).matches["match_id"].compute()
    assert ids.is_unique
    assert set(ids) == set(frames.matches["match_id"])


@pytest.mark.parametrize(
    ("field", "value", "named"),
    [
        ("batch", "3", "batch"),
        ("watermark", "yesterday", "watermark"),
        ("versions", {"3": {"matches": "x"}}, "versions.3.matches"),
        ("scopes", [], "scopes"),
        ("gaps", [["2026-10-01T00:00:00Z"]], "gaps"),
        ("pending", {"batch": 1}, "pending"),
        ("buckets", 0, "buckets"),
    ],
)
def test_a_damaged_field_is_an_archive_error_naming_it(tmp_path: Path, field, value, named) -> None:
    text = full_manifest().to_json() | {field: value}
    (tmp_path / "archive.json").write_bytes(orjson.dumps(text))
    with pytest.raises(ArchiveError, match=named) as caught:
        read_manifest(tmp_path)
    assert caught.value.path == tmp_path / "archive.json"
    assert "restore it from a backup" in str(caught.value)


def test_another_format_is_refused(tmp_path: Path) -> None:
    (tmp_path / "archive.json").write_bytes(b'{"format": "matchkit-archive/9"}')
    with pytest.raises(ArchiveError, match="reads matchkit-archive/2 and matchkit-archive/1"):
        read_manifest(tmp_path)
