"""PUBG's typed fast path gives the general path's tables on varied PUBG documents.

PUBG's match documents as raw JSON take the PUBG profile's typed reader (its Structs decoded,
read into per-field lists a few pages at a time and converted to columns a batch at a time); the
same documents as dicts take the general reader. The tables, their dtypes, column and row order,
and the problems must be the same, whatever the documents vary in: decimals written as
integers, integers beyond 2**53 among decimals, sections missing or null in some documents and
not others, members null, a value of another type (which sends its document down the general
reader), documents of several seeds and shards read together, and how many rows are read
together.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from functools import cache
from typing import Any

import msgspec
import orjson
import pandas as pd
import pytest

from matchkit import to_frames
from matchkit.model.frames import MatchFrames
from matchkit.normalize import typed_reader, walker
from matchkit.normalize.pipeline import shape_decoders
from matchkit.normalize.typed_reader import TypedReader
from matchkit.sampledata.pubg.documents import match_document
from matchkit.sampledata.pubg.plan import build_plan

Document = dict[str, Any]


@cache
def _encoded(seed: int, count: int) -> tuple[bytes, ...]:
    found: list[bytes] = []
    for shard in build_plan(seed=seed).shards.values():
        found += [
            orjson.dumps(match_document(match, telemetry_url="http://cdn"))
            for match in shard.matches[:count]
        ]
    return tuple(found[:count])


def documents(seed: int, count: int) -> list[Document]:
    """``count`` match documents of the PUBG sample set of ``seed``, every shard's in turn
    (fresh dicts: the variations change them)."""
    return [orjson.loads(document) for document in _encoded(seed, count)]


def _resources(document: Document, type_: str) -> list[Document]:
    return [item for item in document["included"] if item["type"] == type_]


def decimals_as_integers(document: Document, rng: random.Random) -> None:
    for participant in _resources(document, "participant"):
        stats = participant["attributes"]["stats"]
        if rng.random() < 0.5:
            stats["walkDistance"] = int(stats["walkDistance"])
            stats["damageDealt"] = 0


def huge_integer_among_decimals(document: Document, rng: random.Random) -> None:
    participant = rng.choice(_resources(document, "participant"))
    participant["attributes"]["stats"]["rideDistance"] = 2**53 + 1


def roster_stats_null(document: Document, rng: random.Random) -> None:
    for roster in _resources(document, "roster"):
        roster["attributes"]["stats"] = None


def some_participants_without_stats(document: Document, rng: random.Random) -> None:
    for participant in _resources(document, "participant"):
        if rng.random() < 0.3:
            del participant["attributes"]["stats"]


def members_null(document: Document, rng: random.Random) -> None:
    for participant in _resources(document, "participant"):
        stats = participant["attributes"]["stats"]
        for member in rng.sample(sorted(stats), 3):
            stats[member] = None


def a_decimal_as_text(document: Document, rng: random.Random) -> None:
    rng.choice(_resources(document, "participant"))["attributes"]["stats"]["heals"] = "2"


def a_boolean_among_decimals(document: Document, rng: random.Random) -> None:
    rng.choice(_resources(document, "participant"))["attributes"]["stats"]["longestKill"] = True


def an_extra_stats_member(document: Document, rng: random.Random) -> None:
    rng.choice(_resources(document, "participant"))["attributes"]["stats"]["newStat"] = 7


VARIATIONS: dict[str, Callable[[Document, random.Random], None]] = {
    "decimals as integers": decimals_as_integers,
    "an integer beyond 2**53 among decimals": huge_integer_among_decimals,
    "roster stats null": roster_stats_null,
    "some participants without stats": some_participants_without_stats,
    "members null": members_null,
    "a decimal as text": a_decimal_as_text,
    "a boolean among decimals": a_boolean_among_decimals,
    "an extra stats member": an_extra_stats_member,
}


def varied(seed: int, count: int, share: float) -> list[Document]:
    """Documents of the sample set, a ``share`` of them changed by one variation each."""
    rng = random.Random(seed)
    found = documents(seed, count)
    for document in found:
        if rng.random() < share:
            VARIATIONS[rng.choice(sorted(VARIATIONS))](document, rng)
    return found


def assert_same_frames(left: MatchFrames, right: MatchFrames) -> None:
    assert left.problems == right.problems
    for name in left.__dataclass_fields__:
        if name == "problems":
            continue
        mine, theirs = getattr(left, name), getattr(right, name)
        assert list(mine.columns) == list(theirs.columns), name
        assert list(mine.dtypes) == list(theirs.dtypes), name
        pd.testing.assert_frame_equal(mine, theirs, check_exact=True, obj=name)


def raw_and_dicts(found: list[Document]) -> tuple[list[bytes], list[Document]]:
    raw = [orjson.dumps(document) for document in found]
    return raw, [msgspec.json.decode(page) for page in raw]


@pytest.mark.parametrize(
    ("seed", "count", "share"),
    [(1, 40, 0.0), (2, 60, 0.5), (3, 90, 1.0), (4, 9, 1.0)],
)
def test_the_fast_path_gives_the_general_paths_tables(seed: int, count: int, share: float) -> None:
    raw, dicts = raw_and_dicts(varied(seed, count, share))
    frames = to_frames(raw)
    assert len(frames.matches) == count
    assert len(frames.participants) > 10 * count
    assert_same_frames(frames, to_frames(dicts))


@pytest.mark.parametrize("variation", sorted(VARIATIONS))
def test_each_variation_on_its_own(variation: str) -> None:
    rng = random.Random(7)
    found = documents(5, 6)
    for document in found[1::2]:  # among unchanged documents, before and after
        VARIATIONS[variation](document, rng)
    raw, dicts = raw_and_dicts(found)
    assert_same_frames(to_frames(raw), to_frames(dicts))


def test_the_typed_reader_reads_plain_documents_and_declines_the_others() -> None:
    """The comparisons above compare two readers: the PUBG typed reader reads the sample set's
    documents and those with decimals written as integers, missing or null sections and null
    members, and declines those a wire type or an undeclared member rules out."""
    reader = TypedReader(shape_decoders()[1])
    rng = random.Random(3)
    for variation, read in (
        (None, True),
        ("decimals as integers", True),
        ("an integer beyond 2**53 among decimals", True),
        ("roster stats null", True),
        ("some participants without stats", True),
        ("members null", True),
        ("a decimal as text", False),
        ("a boolean among decimals", False),
        ("an extra stats member", False),
    ):
        (document,) = documents(6, 1)
        if variation is not None:
            VARIATIONS[variation](document, rng)
        assert (reader.split(orjson.dumps(document), 0) is not None) is read, variation


@pytest.mark.parametrize("warm_rows", [1, 7, 100_000])
def test_the_tables_do_not_depend_on_how_many_rows_are_read_together(
    warm_rows: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The typed reader reads each type's Structs into lists WARM_ROWS at a time, across the
    pages of a batch (a section carried by some pages and not others, identifiers of several
    pages, values of another type that send a page down the general reader between them): the
    tables are the general path's whatever that count, and a walker's batch cut short."""
    monkeypatch.setattr(typed_reader, "WARM_ROWS", warm_rows)
    monkeypatch.setattr(walker, "FLUSH_ROWS", 300)  # several batches of several pages
    raw, dicts = raw_and_dicts(varied(8, 24, 0.5))
    assert_same_frames(to_frames(raw), to_frames(dicts))
