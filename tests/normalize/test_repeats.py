"""Later copies of a resource (matchkit.normalize.repeats, decision 17) and the walk that finds
them (matchkit.normalize.walker)."""

from __future__ import annotations

import numpy as np
import orjson
import pyarrow as pa
import pytest

from matchkit.model.schema import RESOURCE_TABLES, SNAPSHOT_OWNERS
from matchkit.normalize import walker as walker_module
from matchkit.normalize.chunks import Chunk, ChunkTable, Links
from matchkit.normalize.general import GeneralReader
from matchkit.normalize.pipeline import shape_decoder
from matchkit.normalize.problems import Problems
from matchkit.normalize.repeats import (
    Repeats,
    SnapshotKeys,
    differing,
    keep_latest_snapshots,
    report_conflicts,
)
from matchkit.normalize.typed import TypedReader
from matchkit.normalize.walker import Walker
from tests.builders.resources import arena, page


def test_snapshot_keys_take_the_latest_match_of_the_document_that_refers_to_it() -> None:
    keys = SnapshotKeys(
        [(0, "m1"), (0, "m2"), (1, "m3"), (2, "m4")],
        {"m1": 100, "m2": 300, "m3": 200, "m4": None},
        [("p", "m1"), ("p", "m3"), ("p", "m4"), ("q", "m2")],
    )
    assert keys.key("p", 0) == (1, 100, "m1")  # m2 is in the document but not p's match
    assert keys.key("p", 1) == (1, 200, "m3")
    assert keys.key("q", 0) == (1, 300, "m2")
    assert keys.key("p", 2) < keys.key("p", 0)  # a missing createdAt counts as the earliest
    assert keys.key("p", 9) == (0, 0, "")  # no match of that document refers to it
    assert keys.key("nobody", 0) == (0, 0, "")


def _chunk(ids: list[str], documents: list[int], names: list[str | None]) -> Chunk:
    return Chunk.of(
        "player", ids, documents, {"attributes": {"name": pa.array(names, pa.string())}}
    )


def test_differing_compares_every_column_and_identifier_with_the_kept_row() -> None:
    kept = {"attributes": {"name": pa.array(["a", "b", None])}}
    copies = ChunkTable("player")
    copies.append(
        Chunk.of(
            "player",
            ["x", "y", "z", "x"],
            [1, 1, 1, 2],
            {"attributes": {"name": pa.array(["a", "B", None, "a"])}},
            {"team": Links.of(np.array([3]), ["team"], ["t9"])},
        )
    )
    kept_links = {"team": Links.of(np.array([0]), ["team"], ["t1"])}
    flags = differing(kept, kept_links.__getitem__, np.array([0, 1, 2, 0]), copies, ["team"])
    assert flags.tolist() == [True, True, False, True]  # x: t1 missing; y: name; x again: t9


def test_the_latest_copy_replaces_the_kept_row_and_the_count_is_reported() -> None:
    problems = Problems()
    kept = {"attributes": {"name": pa.array(["old", "same"])}}
    copies = ChunkTable("player")
    copies.append(_chunk(["p", "p", "q"], [1, 2, 1], ["newest", "middle", "same"]))
    keys = SnapshotKeys(
        [(0, "m0"), (1, "m9"), (2, "m5")],
        {"m0": 0, "m9": 9, "m5": 5},
        [("p", m) for m in ("m0", "m9", "m5")],
    )
    flags = np.array([True, True, False])
    result = keep_latest_snapshots(
        "player", kept, np.array([0, 0, 1]), [0, 0], copies, flags, keys, problems
    )
    assert result["attributes"]["name"].to_pylist() == ["newest", "same"]
    [problem] = list(problems)
    assert (problem.kind, problem.subject, problem.count) == ("differing_snapshots", "player", 1)


def test_conflicts_count_ids_once() -> None:
    problems = Problems()
    copies = ChunkTable("roster")
    copies.append(Chunk.of("roster", ["r", "r", "s"], [1, 2, 2]))
    report_conflicts("roster", copies, np.array([True, True, False]), problems)
    assert problems.texts() == (
        "1 roster resource(s) arrived more than once with different content; "
        "the first copy of each was kept",
    )
    report_conflicts("roster", copies, np.array([False, False, False]), Problems())


def test_repeats_are_read_by_the_reader_that_split_them_in_runs() -> None:
    calls = []

    class Recording:
        def read(self, type_, resources, ids, documents):
            calls.append((self, ids))
            return Chunk.of(type_, ids, documents)

    first, second = Recording(), Recording()
    repeats = Repeats()
    for ids, document, reader in ((["a"], 0, first), (["b"], 1, first), (["c", "e"], 1, second)):
        repeats.extend("player", [{}] * len(ids), ids, document, reader)
    repeats.extend("player", [{}], ["d"], 2, first)
    table = repeats.read("player")
    assert table is not None
    assert table.ids().to_pylist() == ["a", "b", "c", "e", "d"]
    assert table.documents().tolist() == [0, 1, 1, 1, 2]
    assert calls == [(first, ["a", "b"]), (second, ["c", "e"]), (first, ["d"])]
    assert repeats.read("player") is None  # read once


def walked(pages: list) -> Walker:
    walker = Walker(TypedReader(shape_decoder()), GeneralReader())
    for index, document in enumerate(pages):
        walker.add(document, index)
    walker.flush()
    return walker


def test_the_walker_keeps_first_copies_in_order_and_hands_later_ones_on() -> None:
    first, second = page(arena("m1")), page(arena("m2"))
    again = page(arena("m1"))
    walker = walked([orjson.dumps(first), second, orjson.dumps(again)])
    assert walker.tables["match"].ids().to_pylist() == ["m1", "m2"]
    assert walker.match_documents == [0, 1, 2]
    assert walker.match_ids == ["m1", "m2", "m1"]
    copies = walker.repeats.read("participant")
    assert copies is not None
    assert copies.documents().tolist() == [2] * copies.rows
    first_participants = walker.tables["participant"].ids().to_pylist()[: copies.rows]
    assert set(copies.ids().to_pylist()) == set(first_participants)


@pytest.mark.parametrize("raw", [True, False], ids=["typed reader", "general reader"])
def test_the_walker_hands_on_a_copy_repeated_within_one_page(raw: bool) -> None:
    document = page(arena("m1"))
    player = next(r for r in document["included"] if r["type"] == "player")
    document["included"].append(player)  # the same player twice in one page
    walker = walked([orjson.dumps(document) if raw else document])
    players = walker.tables["player"].ids().to_pylist()
    assert sorted(players) == sorted(set(players))  # once in the table
    assert player["id"] in players
    copies = walker.repeats.read("player")
    assert copies is not None
    assert copies.ids().to_pylist() == [player["id"]]
    assert walker.seen["player"] == set(players)


def test_the_walker_reads_a_batch_when_the_reader_changes_or_it_is_full(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    pages = [page(arena(f"m{i}")) for i in range(4)]
    walker = walked([orjson.dumps(pages[0]), pages[1], orjson.dumps(pages[2])])
    chunks = walker.tables["match"].chunks
    assert [chunk.ids.to_pylist() for chunk in chunks] == [["m0"], ["m1"], ["m2"]]
    monkeypatch.setattr(walker_module, "FLUSH_ROWS", 1)
    walker = walked([orjson.dumps(p) for p in pages])
    assert len(walker.tables["match"].chunks) == 4  # read after every page
    monkeypatch.setattr(walker_module, "FLUSH_ROWS", 2048)
    assert len(walked([orjson.dumps(p) for p in pages]).tables["match"].chunks) == 1


def test_the_walker_counts_resources_of_types_outside_the_model() -> None:
    document = page(arena("m1"))
    document["included"] += [{"type": "status", "id": "s"}, {"type": "status", "id": "s"}]
    assert walked([document]).ignored == {"status": 2}


def test_snapshot_types_carry_no_relationship_read_as_identifiers() -> None:
    """keep_latest_snapshots replaces columns only: a snapshot type whose relationships were
    read as identifier arrays would keep the first copy's identifiers."""
    assert SNAPSHOT_OWNERS
    assert all(not RESOURCE_TABLES[type_][1] for type_ in SNAPSHOT_OWNERS)
