"""Later copies of a resource (matchkit.normalize.repeats, decision 17) and the walk that finds
them (matchkit.normalize.walker)."""

from __future__ import annotations

import itertools

import numpy as np
import orjson
import pyarrow as pa
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from matchkit.model.listings import LISTINGS
from matchkit.model.schema import RESOURCE_TABLES, SNAPSHOT_OWNERS
from matchkit.normalize import walker as walker_module
from matchkit.normalize.chunks import Chunk, ChunkTable, Held, Links
from matchkit.normalize.general import GeneralReader
from matchkit.normalize.pipeline import shape_decoder
from matchkit.normalize.problems import Problems
from matchkit.normalize.repeats import (
    NO_TIME,
    Repeats,
    SnapshotKeys,
    _links_differ,
    common_types,
    differing,
    keep_latest_snapshots,
    report_conflicts,
)
from matchkit.normalize.typed_reader import TypedReader
from matchkit.normalize.walker import Walker
from tests.builders.resources import arena, page


def _text(values: list[str] | list[str | None]) -> pa.Array:
    return pa.array(values, pa.string())


def _keys(
    snapshots: list[str],
    created: dict[str, int | None],
    walked: list[tuple[int, str]],
    owners: list[tuple[str | None, str]],
) -> SnapshotKeys:
    return SnapshotKeys(
        _text(snapshots),
        _text(list(created)),
        np.array([NO_TIME if t is None else t for t in created.values()], dtype=np.int64),
        (_text([m for _, m in walked]), np.array([d for d, _ in walked], dtype=np.int64)),
        (_text([s for s, _ in owners]), _text([m for _, m in owners])),
    )


def test_snapshot_keys_take_the_latest_match_of_the_document_that_refers_to_it() -> None:
    keys = _keys(
        ["p", "q"],
        {"m1": 100, "m2": 300, "m3": 200, "m4": None, "m5": 200},
        [(0, "m1"), (0, "m2"), (1, "m3"), (2, "m4"), (3, "m5"), (3, "m3"), (4, "m1")],
        [("p", "m1"), ("p", "m3"), ("p", "m4"), ("q", "m2"), ("nobody", "m2"), (None, "m1")],
    )
    p, q = 0, 1

    def rank(row: int, document: int) -> int:
        return int(keys.ranks(np.array([row]), np.array([document]))[0])

    assert rank(p, 0) == rank(p, 4)  # m2 is in document 0 but not p's match: m1 in both
    assert rank(p, 0) < rank(p, 1) < rank(q, 0)  # by createdAt: m1 100, m3 200, m2 300
    assert 0 < rank(p, 2) < rank(p, 0)  # a missing createdAt counts as the earliest
    assert rank(p, 3) == rank(p, 1)  # m5 is not p's: m3, which came again in document 3
    assert rank(p, 9) == 0  # no match of that document refers to it
    assert rank(q, 1) == 0
    both = keys.ranks(np.array([p, q, p]), np.array([1, 0, 9]))
    assert both.tolist() == [rank(p, 1), rank(q, 0), 0]


def test_snapshot_keys_order_matches_of_the_same_time_by_id() -> None:
    keys = _keys(["p"], {"mb": 5, "ma": 5}, [(0, "mb"), (1, "ma")], [("p", "ma"), ("p", "mb")])
    assert keys.ranks(np.array([0, 0]), np.array([0, 1])).tolist() == [2, 1]


def test_snapshot_keys_of_no_matches_are_zero() -> None:
    keys = _keys(["p"], {}, [], [])
    assert keys.ranks(np.array([0]), np.array([0])).tolist() == [0]


@settings(max_examples=200, deadline=None)
@given(
    created=st.lists(st.one_of(st.none(), st.integers(0, 3)), min_size=0, max_size=5),
    walked=st.lists(st.tuples(st.integers(0, 3), st.integers(0, 5)), max_size=8),
    owners=st.lists(st.tuples(st.integers(0, 3), st.integers(0, 5)), max_size=10),
)
def test_snapshot_keys_rank_copies_as_decision_17_reads(
    created: list[int | None], walked: list[tuple[int, int]], owners: list[tuple[int, int]]
) -> None:
    """Ranks order every (snapshot, document) as the plain reading does: the latest
    (createdAt, match id) among the matches of that document that refer to the snapshot."""
    matches = {f"m{i}": time for i, time in enumerate(created)}
    walked_ids = [(document, f"m{match}") for document, match in walked]
    owner_ids = [(f"p{snapshot}", f"m{match}") for snapshot, match in owners]
    keys = _keys([f"p{i}" for i in range(3)], matches, walked_ids, owner_ids)

    def plain(snapshot: int, document: int) -> tuple[int, int, str]:
        return max(
            (
                (1, NO_TIME if matches[match] is None else matches[match], match)
                for owner, match in owner_ids
                if owner == f"p{snapshot}" and match in matches
                if (document, match) in walked_ids
            ),
            default=(0, 0, ""),
        )

    slots = [(snapshot, document) for snapshot in range(3) for document in range(5)]
    ranks = keys.ranks(np.array([s for s, _ in slots]), np.array([d for _, d in slots]))
    for (slot, rank), (other, other_rank) in itertools.product(
        zip(slots, ranks, strict=True), repeat=2
    ):
        assert (rank < other_rank) == (plain(*slot) < plain(*other))
        assert (rank == 0) == (plain(*slot) == (0, 0, ""))


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
    rows = np.array([0, 1, 2, 0])
    flags = differing(kept, kept_links.__getitem__, rows, copies, copies.sections(), ["team"])
    assert flags.tolist() == [True, True, False, True]  # x: t1 missing; y: name; x again: t9


def test_the_latest_copy_replaces_the_kept_row_and_the_count_is_reported() -> None:
    problems = Problems()
    kept = {"attributes": {"name": pa.array(["old", "same"])}}
    copies = ChunkTable("player")
    copies.append(_chunk(["p", "p", "q"], [1, 2, 1], ["newest", "middle", "same"]))
    keys = _keys(
        ["p", "q"],
        {"m0": 0, "m9": 9, "m5": 5},
        [(0, "m0"), (1, "m9"), (2, "m5")],
        [("p", m) for m in ("m0", "m9", "m5")],
    )
    flags = np.array([True, True, False])
    result = keep_latest_snapshots(
        "player",
        kept,
        np.array([0, 0, 1]),
        np.array([0, 0]),
        copies,
        copies.sections(),
        flags,
        keys,
        problems,
    )
    assert result["attributes"]["name"].to_pylist() == ["newest", "same"]
    [problem] = list(problems)
    assert (problem.kind, problem.subject, problem.count) == ("differing_snapshots", "player", 1)


@settings(max_examples=200, deadline=None)
@given(
    copies=st.lists(
        st.tuples(st.integers(0, 2), st.integers(0, 4), st.booleans()), min_size=1, max_size=9
    ),
    created=st.lists(st.one_of(st.none(), st.integers(0, 2)), min_size=5, max_size=5),
)
def test_keep_latest_snapshots_picks_as_decision_17_reads(
    copies: list[tuple[int, int, bool]], created: list[int | None]
) -> None:
    """Each snapshot with a differing copy keeps its latest copy; of copies equally late, the
    one seen first (the kept row, then the earliest later copy)."""
    # document d carries match m{d}; snapshot row r is kept from document r
    matches = {f"m{d}": created[d] for d in range(5)}
    owners = [(f"p{r}", f"m{d}") for r, d, _ in copies] + [(f"p{r}", f"m{r}") for r in range(3)]
    keys = _keys(["p0", "p1", "p2"], matches, [(d, f"m{d}") for d in range(5)], owners)
    table = ChunkTable("player")
    names = [f"copy{i}" for i in range(len(copies))]
    table.append(_chunk([f"p{r}" for r, _, _ in copies], [d for _, d, _ in copies], names))
    problems = Problems()
    result = keep_latest_snapshots(
        "player",
        {"attributes": {"name": pa.array(["kept0", "kept1", "kept2"])}},
        np.array([r for r, _, _ in copies]),
        np.array([0, 1, 2]),
        table,
        table.sections(),
        np.array([flag for _, _, flag in copies]),
        keys,
        problems,
    )

    def key(document: int) -> tuple[int, str]:
        time = created[document]
        return (NO_TIME if time is None else time, f"m{document}")

    expected = ["kept0", "kept1", "kept2"]
    differing_rows = {r for r, _, flag in copies if flag}
    for row in differing_rows:
        best = key(row)
        for name, (r, document, _) in zip(names, copies, strict=True):
            if r == row and key(document) > best:
                best, expected[row] = key(document), name
    assert result["attributes"]["name"].to_pylist() == expected
    assert [p.count for p in problems] == ([len(differing_rows)] if differing_rows else [])


def test_common_types_cast_a_column_to_what_kept_rows_and_copies_share() -> None:
    kept = {"stats": {"wins": pa.array([3]), "level": pa.array([1])}}
    copies = ChunkTable("player")
    copies.append(
        Chunk.of("player", ["p"], [1], {"stats": {"wins": pa.array([True]), "xp": pa.array([5])}})
    )
    shared, copied = common_types(kept, 1, copies)
    assert shared["stats"]["wins"].to_pylist() == ["3"]  # int and bool: text
    assert copied["stats"]["wins"].to_pylist() == ["true"]
    assert shared["stats"]["level"].type == pa.int64()  # the copies lack it: as it was
    assert shared["stats"]["xp"].to_pylist() == [None]  # only the copies hold it
    assert shared["stats"]["xp"].type == pa.int64()
    assert kept["stats"]["wins"].type == pa.int64()  # the table's columns are not changed


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
        def stage(self, type_):
            return Held(self, type_)

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


def test_copies_are_read_at_each_flush_not_held_to_the_end() -> None:
    read: list[list[str]] = []

    class Recording:
        def stage(self, type_):
            return Held(self, type_)

        def read(self, type_, resources, ids, documents):
            read.append(ids)
            return Chunk.of(type_, ids, documents)

    reader = Recording()
    repeats = Repeats()
    repeats.extend("player", [{}], ["a"], 0, reader)
    assert read == []  # waits for the walker's flush
    repeats.flush()
    assert read == [["a"]]  # read then: the decoded copies are let go
    repeats.flush()
    assert read == [["a"]]
    repeats.extend("player", [{}], ["b"], 1, reader)
    table = repeats.read("player")
    assert table is not None
    assert table.ids().to_pylist() == ["a", "b"]
    assert table.documents().tolist() == [0, 1]


def test_the_walkers_flush_reads_the_copies_waiting(monkeypatch: pytest.MonkeyPatch) -> None:
    document = orjson.dumps(page(arena("m1")))
    walker = walked([document])
    walker.add(document, 1)  # every resource again: later copies, waiting
    flushed = []
    read = walker.repeats.flush
    monkeypatch.setattr(walker.repeats, "flush", lambda: flushed.append(read()))
    walker.flush()
    assert flushed == [None]
    copies = walker.repeats.read("participant")
    assert copies is not None
    assert copies.documents().tolist() == [1] * copies.rows


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
    read as identifier arrays would keep the first copy's identifiers. The one exception is a
    listing (PUBG's players' match lists), whose table keeps every copy's identifiers."""
    assert SNAPSHOT_OWNERS
    listed = set(LISTINGS.values())
    assert all(
        (type_, name) in listed for type_ in SNAPSHOT_OWNERS for name in RESOURCE_TABLES[type_][1]
    )


_IDENTIFIER = st.tuples(st.sampled_from(["player", "team"]), st.sampled_from(["a", "b", "c", "d"]))
_ROWS_OF_LINKS = st.lists(st.lists(_IDENTIFIER, max_size=3), min_size=1, max_size=8)


def _links_of(rows: list[list[tuple[str, str]]]) -> Links:
    flat = [(row, kind, key) for row, items in enumerate(rows) for kind, key in items]
    if not flat:
        return Links.empty()
    return Links.of(
        np.array([row for row, _, _ in flat], dtype=np.int64),
        [kind for _, kind, _ in flat],
        [key for _, _, key in flat],
    )


@settings(max_examples=300, deadline=None)
@given(left=_ROWS_OF_LINKS, right=_ROWS_OF_LINKS, data=st.data())
def test_links_differ_as_each_rows_identifiers_compared_in_order(left, right, data) -> None:
    """The vectorized comparison of later copies' identifiers with their kept rows' (it was a
    Python loop over every identifier, a sixth of a warm 120-day fetch) against the plain
    reading of it: row by row, the (type, id) lists in order."""
    kept_rows = data.draw(
        st.lists(st.integers(0, len(left) - 1), min_size=len(right), max_size=len(right))
    )
    found = _links_differ(
        _links_of(left), np.array(kept_rows, dtype=np.int64), _links_of(right), len(right)
    )
    expected = [left[kept] != copy for kept, copy in zip(kept_rows, right, strict=True)]
    assert found.tolist() == expected
