"""The readers' contract: every reader gives the same chunks, tables and problems.

Every recorded sample (../shared/samples) and recorded PUBG document (../shared/pubg), the
recorded pages together, and slices of the sample set (both shards, and the same pages read
in both sort orders) go through:

- each reader on its own: the typed reader (raw pages of the known shape) and the general reader
  (the same pages as dicts) split each page into the same groups and read each group into
  equivalent chunks (same ids, documents, non-empty columns and identifiers);
- ``to_frames`` over raw pages, over dicts (general reader only) and over the two in turn: the
  same tables and the same problems.
"""

from __future__ import annotations

from collections.abc import Callable

import msgspec
import pandas as pd
import pytest

from matchkit import to_frames
from matchkit.model.frames import MatchFrames
from matchkit.normalize.chunks import Chunk
from matchkit.normalize.general import GeneralReader
from matchkit.normalize.pipeline import shape_decoder
from matchkit.normalize.typed_reader import TypedReader
from tests.conftest import SHARED, shared_path
from tests.contract.sample_pages import build_pages, sample_documents

TYPED_SAMPLES = "battlerite/match"  # recorded files the typed reader reads (the global shape)


def recorded(pattern: str, folder: str = "samples") -> Callable[[], list[bytes]]:
    def load() -> list[bytes]:
        paths = sorted(shared_path(folder).glob(pattern))
        assert paths, pattern
        return [path.read_bytes() for path in paths]

    return load


def sample_set(shard: str, count: int, size: int, *, reverse: bool = False) -> Callable[[], list]:
    def load() -> list[bytes]:
        documents = list(sample_documents(shard)[:count])
        return build_pages(documents[::-1] if reverse else documents, size=size)

    return load


def _recorded_files() -> list[str]:
    samples = SHARED / "samples"
    if not samples.exists():
        return ["*/*.json"]  # shared_path fails (under CI) or skips in the tests themselves
    return sorted(path.relative_to(samples).as_posix() for path in samples.rglob("*.json"))


INPUTS: dict[str, Callable[[], list[bytes]]] = {
    **{f"recorded {name}": recorded(name) for name in _recorded_files()},
    "recorded battlerite pages together": recorded("battlerite/match*-response-*.json"),
    "recorded vainglory pages together": recorded("vainglory/*.json"),
    # PUBG's recorded documents (the telemetry files are not JSON:API documents).
    **{
        f"recorded pubg {name}": recorded(name, "pubg")
        for name in (
            "match-pubg-python-squad-fpp-baltic.json",
            "match-pubgkt-squad.json",
            "match-pubgkt-tdm.json",
            "players-pubg-python.json",
            "player-pubg-python.json",
            "samples-pubg-python.json",
            "seasons-pubg-python.json",
        )
    },
    "recorded pubg matches together": recorded("match-*.json", "pubg"),
    "sample set global, 400 matches in pages of 5": sample_set("global", 400, 5),
    "sample set global, the same matches newest first": sample_set("global", 400, 5, reverse=True),
    "sample set na, 150 matches in pages of 50": sample_set("na", 150, 50),
}


@pytest.fixture(params=sorted(INPUTS), scope="module")
def pages(request: pytest.FixtureRequest) -> list[bytes]:
    return INPUTS[request.param]()


def as_dicts(pages: list[bytes]) -> list[dict]:
    """The pages parsed as the general reader parses raw JSON (integers of any size kept)."""
    return [msgspec.json.decode(page) for page in pages]


def match_ids(documents: list[dict]) -> set[str]:
    """The ids of the match resources of the documents, counted without matchkit."""
    ids = set()
    for document in documents:
        data = document.get("data")
        for resource in [data] if isinstance(data, dict) else data or []:
            if resource["type"] == "match":
                ids.add(resource["id"])
    return ids


def assert_same_frames(left: MatchFrames, right: MatchFrames) -> None:
    assert list(left.tables) == list(right.tables)
    for name, frame in left.tables.items():
        pd.testing.assert_frame_equal(frame, right.tables[name], obj=name)
    assert left.problems == right.problems


def content(chunk: Chunk) -> dict:
    """What a chunk says, with columns that hold no value left out (a typed reader declares
    members that a general reader only sees when a resource carries them)."""
    sections = {
        (section, key): array
        for section, arrays in chunk.sections.items()
        for key, array in arrays.items()
        if array.null_count < len(array)
    }
    links = {
        name: (links.rows.tolist(), links.types.to_pylist(), links.ids.to_pylist())
        for name, links in chunk.links.items()
        if len(links.rows)
    }
    return {
        "ids": chunk.ids.to_pylist(),
        "documents": chunk.documents.tolist(),
        "sections": sections,
        "links": links,
    }


def assert_same_chunks(typed: Chunk, general: Chunk) -> None:
    left, right = content(typed), content(general)
    assert left["ids"] == right["ids"]
    assert left["documents"] == right["documents"]
    assert left["links"] == right["links"]
    assert left["sections"].keys() == right["sections"].keys()
    for key, array in left["sections"].items():
        other = right["sections"][key]
        assert array.type == other.type, key
        assert array.equals(other), key


def test_each_reader_gives_the_same_chunks(pages: list[bytes]) -> None:
    typed_reader, general_reader = TypedReader(shape_decoder()), GeneralReader()
    for index, page in enumerate(pages):
        groups = typed_reader.split(page, index)
        general_groups = general_reader.split(msgspec.json.decode(page), index)
        if groups is None:  # declined: not of the known shape; the general reader reads it
            continue
        assert [(g.type, g.ids) for g in groups] == [(g.type, g.ids) for g in general_groups]
        for group, general_group in zip(groups, general_groups, strict=True):
            documents = [index] * len(group.ids)
            assert_same_chunks(
                typed_reader.read(group.type, group.resources, group.ids, documents),
                general_reader.read(group.type, general_group.resources, group.ids, documents),
            )


def test_raw_pages_and_dicts_give_the_same_tables_and_problems(pages: list[bytes]) -> None:
    frames = to_frames(pages)
    assert set(frames.matches["match_id"]) == match_ids(as_dicts(pages))
    assert_same_frames(frames, to_frames(as_dicts(pages)))


def test_both_readers_in_turn_give_the_same_tables_and_problems(pages: list[bytes]) -> None:
    dicts = as_dicts(pages)
    mixed = [page if index % 2 else dicts[index] for index, page in enumerate(pages)]
    assert_same_frames(to_frames(mixed), to_frames(dicts))


def test_the_suite_exercises_both_readers() -> None:
    """The typed reader reads every recorded global page and the sample set's global pages,
    and declines the rest (the general reader reads those): both readers are under contract."""
    reader = TypedReader(shape_decoder())
    read, declined = set(), set()
    for name in sorted(INPUTS):
        for page in INPUTS[name]():
            (read if reader.split(page, 0) is not None else declined).add(name)
    assert {name for name in INPUTS if TYPED_SAMPLES in name or "global" in name} <= read
    assert {
        name for name in INPUTS if "vainglory" in name or "status" in name or " na," in name
    } <= (declined)
