"""The tables are built a batch of events at a time: where batches are cut changes nothing.

Once ``BATCH_EVENTS`` events wait, the builder turns the most numerous types' into Arrow chunks
(so that no Python list holds a value per row for long); the chunks of a column are unified and
converted once at the end. These tests cut the same input into batches of very different sizes,
typed and general files mixed, and compare every table, the problems and the errors.
"""

from __future__ import annotations

import itertools
from typing import Any

import orjson
import pytest

from matchkit.errors import DocumentError
from matchkit.rules.events import SHUTDOWN
from matchkit.telemetry import build, to_telemetry_frames
from matchkit.telemetry.build import TableBuilder
from matchkit.telemetry.parse import iter_sources
from tests.normalize.test_arrow_pool import DEFAULT_SHARE, default_pool_share
from tests.telemetry.test_parse import small_file
from tests.telemetry.test_typed import (  # noqa: F401 (generated: a fixture)
    assert_same,
    generated,
    odd_files_by_match,
)


def _mixed(generated: dict[str, bytes]) -> dict[str, bytes]:  # noqa: F811
    """Typed files with every odd (general) file among them, the odd ones in the middle."""
    items = list(itertools.islice(generated.items(), 30))
    return dict(items[:15]) | odd_files_by_match() | dict(items[15:])


@pytest.mark.parametrize("batch", [1, 37, 5_000])
def test_where_batches_are_cut_changes_no_table(
    batch: int,
    generated: dict[str, bytes],  # noqa: F811
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    files = _mixed(generated)
    whole = to_telemetry_frames(files)  # default batches (the 30 typed files span several)
    assert len(whole) == len(files)
    assert whole.problems  # the odd files' unfit values are reported
    assert len(whole.other_events) == 1
    with monkeypatch.context() as patch:
        patch.setattr(build, "BATCH_EVENTS", batch)
        cut = to_telemetry_frames(files)
    assert_same(cut, whole)


def test_no_more_than_a_batch_of_events_waits(
    generated: dict[str, bytes],  # noqa: F811
) -> None:
    builder = TableBuilder(batch_events=500)
    seen = 0
    for file in iter_sources(dict(itertools.islice(generated.items(), 20)), match_ids=None):
        builder.add(file)
        seen += len(file.events)
        assert builder.waiting < 500
    assert seen > 2_000
    tables, _ = builder.finish()
    assert builder.waiting == 0
    assert sum(map(len, tables.values())) > seen  # every event is in a table (and more rows)


def test_a_rare_type_waits_for_a_batch_of_its_own(
    generated: dict[str, bytes],  # noqa: F811
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """One ServerShutdown per file is converted once, not with every batch of the others."""
    converted: list[str] = []
    convert_type = TableBuilder._convert_type

    def counted(builder: TableBuilder, kind: str, waiting: Any) -> None:
        converted.append(kind)
        convert_type(builder, kind, waiting)

    monkeypatch.setattr(TableBuilder, "_convert_type", counted)
    builder = TableBuilder(batch_events=500)
    batches = 0
    for file in iter_sources(dict(itertools.islice(generated.items(), 20)), match_ids=None):
        before = builder.waiting
        builder.add(file)
        batches += builder.waiting < before + len(file.events)
    tables, _ = builder.finish()
    assert batches >= 4
    assert len(tables["shutdowns"]) == 20
    assert converted.count(SHUTDOWN) == 1
    assert max(map(converted.count, set(converted))) > batches / 2  # the numerous ones, often


def _offending(match_id: str, *, other: str) -> bytes:
    events = small_file(match_id)
    events[2]["dataObject"]["matchID"] = other
    return orjson.dumps(events)


def test_the_first_offending_file_is_named_whatever_the_batches(
    generated: dict[str, bytes],  # noqa: F811
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    files = dict(itertools.islice(generated.items(), 3))
    files["first"] = _offending("first", other="elsewhere 1")
    files |= dict(itertools.islice(generated.items(), 3, 6))
    files["second"] = _offending("second", other="elsewhere 2")
    for batch in (1, 10_000):
        with monkeypatch.context() as patch:
            patch.setattr(build, "BATCH_EVENTS", batch)
            with pytest.raises(DocumentError, match="match first holds an event of match 'else"):
                to_telemetry_frames(files)


def test_a_file_of_another_match_is_refused_before_a_table_error() -> None:
    """A file is checked against its match as it is read, before any table is built."""
    broken = small_file("early")
    broken[0]["dataObject"]["playerStats"] = [1]
    files: dict[str, Any] = {
        "early": orjson.dumps(broken),
        "late": _offending("late", other="elsewhere"),
    }
    with pytest.raises(DocumentError, match="match late holds an event of match 'elsewhere'"):
        to_telemetry_frames(files)
    del files["late"]
    with pytest.raises(DocumentError, match="playerStats"):
        to_telemetry_frames(files)


def test_a_broken_file_is_refused_before_any_table_error() -> None:
    late = small_file("late")
    late[0]["dataObject"]["playerStats"] = [1]
    files = {"late": orjson.dumps(late), "broken": b"[1, 2]"}
    with pytest.raises(DocumentError, match="telemetry of match broken is not a JSON array"):
        to_telemetry_frames(files)


def test_telemetry_allocates_its_arrow_memory_from_the_normalizers_pool(
    generated: dict[str, bytes],  # noqa: F811
) -> None:
    share = default_pool_share(lambda: to_telemetry_frames(generated))
    assert share < DEFAULT_SHARE
