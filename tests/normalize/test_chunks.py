"""Chunks, identifier arrays and tables of chunks (matchkit.normalize.chunks)."""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pytest

from matchkit.normalize.chunks import Chunk, ChunkTable, Links, combine_sections


def links(rows: list[int], types: list[str], ids: list[str]) -> Links:
    return Links.of(np.array(rows, dtype=np.int64), types, ids)


def test_links_of_one_repeated_type_write_it_once_and_keep_every_identifier() -> None:
    found = links([0, 0, 2], ["roster"] * 3, ["r1", "r2", "r3"])
    assert found.types.to_pylist() == ["roster"] * 3
    assert found.ids.to_pylist() == ["r1", "r2", "r3"]
    mixed = links([0, 1], ["roster", "team"], ["r1", "t1"])
    assert mixed.types.to_pylist() == ["roster", "team"]


def test_links_concat_shifts_rows_by_each_chunks_first_row() -> None:
    first = links([0, 1], ["p", "p"], ["a", "b"])
    second = links([0, 0], ["p", "p"], ["c", "d"])
    joined = Links.concat([first, Links.empty(), second], [0, 2, 2])
    assert joined.rows.tolist() == [0, 1, 2, 2]
    assert joined.ids.to_pylist() == ["a", "b", "c", "d"]
    assert Links.concat([Links.empty()], [0]).rows.tolist() == []


def _two_chunk_table() -> ChunkTable:
    table = ChunkTable("participant")
    table.append(
        Chunk.of(
            "participant",
            ["a", "b"],
            [0, 0],
            {"stats": {"kills": pa.array([1, 2])}},
            {"player": links([1], ["player"], ["x"])},
        )
    )
    table.append(Chunk.of("participant", [], []))  # an empty chunk adds nothing
    table.append(
        Chunk.of(
            "participant",
            ["c"],
            [3],
            {"stats": {"kills": pa.array([1.5]), "farm": pa.array(["big"])}},
            {"player": links([0], ["player"], ["y"])},
        )
    )
    return table


def _assert_reads_the_two_chunks(table: ChunkTable) -> None:
    assert table.rows == 3
    assert table.ids().to_pylist() == ["a", "b", "c"]
    assert table.documents().tolist() == [0, 0, 3]
    sections = table.sections()
    assert sections["stats"]["kills"].to_pylist() == [1.0, 2.0, 1.5]  # ints and a decimal
    assert sections["stats"]["farm"].to_pylist() == [None, None, "big"]
    player = table.links("player")
    assert player.rows.tolist() == [1, 2]
    assert player.ids.to_pylist() == ["x", "y"]
    assert table.links("unknown").rows.tolist() == []


def test_a_table_puts_chunks_together_column_by_column() -> None:
    _assert_reads_the_two_chunks(_two_chunk_table())


def test_a_compacted_table_is_one_chunk_that_reads_the_same() -> None:
    table = _two_chunk_table()
    table.compact()
    assert len(table.chunks) == 1
    _assert_reads_the_two_chunks(table)
    assert table.ids() is table.chunks[0].ids  # read without another copy
    table.compact()  # once is enough: a second compaction changes nothing
    _assert_reads_the_two_chunks(table)


def test_taken_sections_leave_the_table_its_ids_and_identifiers_only() -> None:
    table = _two_chunk_table()
    taken = table.take_sections()
    assert taken["stats"]["kills"].to_pylist() == [1.0, 2.0, 1.5]
    assert table.sections() == {}
    assert table.ids().to_pylist() == ["a", "b", "c"]
    assert table.links("player").ids.to_pylist() == ["x", "y"]


def test_an_empty_table_has_typed_empty_ids_and_documents() -> None:
    table = ChunkTable("player")
    assert table.ids().type == pa.string()
    assert len(table.ids()) == 0
    assert table.documents().dtype == np.int64
    assert len(table.documents()) == 0


def test_a_table_refuses_a_chunk_of_another_type() -> None:
    with pytest.raises(ValueError, match="does not belong"):
        ChunkTable("player").append(Chunk.of("team", ["t"], [0]))


def test_combined_sections_write_mixed_kinds_as_text_wherever_chunks_are_cut() -> None:
    parts = [
        (2, {"attributes": {"userID": pa.array([7, 8])}}),
        (1, {"attributes": {"userID": pa.array(["x"])}}),
        (1, {}),
    ]
    combined = combine_sections(parts)
    assert combined["attributes"]["userID"].to_pylist() == ["7", "8", "x", None]
