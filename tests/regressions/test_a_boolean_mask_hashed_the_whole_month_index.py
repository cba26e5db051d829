"""Regression: every boolean mask on an archive's partition hashed the partition's whole index.

A lazy table's index (``month``, the partition's value on every row) was text of Arrow strings.
Indexing a frame by a boolean Series (``frame.loc[mask]``, as the analyses do) has numpy ask the
mask for ``__array_struct__`` and ``__array_interface__``; pandas looks an unknown attribute of a
Series up in its index when the index holds text, and that built a hash table of the partition's
whole index, each time: 93-120 ms for 770,000 rows, 1.1 of the 2.3 s ``cosmetic_usage`` took on
a 1M-match archive. The index is now categorical (its categories the archive's partitions),
which answers from its categories. Found by timing each task of the analyses that take an
archive beside DuckDB (issue 37)."""

from __future__ import annotations

import pandas as pd

import matchkit.archive
from matchkit.synth.archive import write_synthetic_archive


def test_a_mask_on_a_partition_builds_no_table_of_its_index(tmp_path) -> None:
    write_synthetic_archive(tmp_path / "archive", matches=3_000, days=60)
    archive = matchkit.archive.open(tmp_path / "archive")
    part = archive.participants.partitions[0].compute()
    is_bot = (part["kind"] == "bot").fillna(False).astype(bool)  # as cosmetic_usage's mask
    people = part.loc[~is_bot]
    assert 0 < len(people) < len(part)
    # The index's lookup table is built only when a label is looked up in it.
    assert not part.index._engine.is_mapping_populated


def test_the_month_index_holds_the_archives_partitions(tmp_path) -> None:
    write_synthetic_archive(tmp_path / "archive", matches=3_000, days=60)
    archive = matchkit.archive.open(tmp_path / "archive")
    months = list(archive.matches.divisions[:-1])
    assert len(months) >= 2
    for table in (archive.matches, archive.participants):
        assert isinstance(table._meta.index.dtype, pd.CategoricalDtype)
        assert list(table._meta.index.dtype.categories) == months
    whole = archive.matches.compute()
    assert whole.index.name == "month"
    assert list(whole.index.unique()) == months  # each partition's rows carry its own value
    # A partition's rows are found by its label, as with any index.
    assert len(archive.matches.loc[months[1]].compute()) == (whole.index == months[1]).sum()
