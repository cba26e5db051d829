"""Regression: `matchkit synth --archive` built each chunk's participants and players tables with
``pa.array(value, type)``, and two of their text columns (``player_id``, ``user_id``: results of
Arrow's compute functions) came as chunked arrays, which ``pa.array`` reads through Python, a
string per row: 0.5 of the 1.5 CPU-seconds of drawing a chunk of 92,000 matches at 10M. Found
with a profile of the drawing thread (``py-spy``) and the time of each column."""

from __future__ import annotations

from typing import Any

import numpy as np
import pyarrow as pa
import pytest

from matchkit.synth.archive import chunk
from matchkit.synth.archive.arrays import stored_schema

ROWS = 1_000


def test_a_chunked_column_is_never_read_row_by_row(monkeypatch: pytest.MonkeyPatch) -> None:
    schema = stored_schema("participants")
    columns: dict[str, Any] = {}
    for field in schema:
        values = pa.array(np.arange(ROWS)).cast(field.type) if field.type != pa.bool_() else None
        if values is None:
            values = pa.array(np.arange(ROWS) % 2 == 0)
        columns[field.name] = pa.chunked_array([values[: ROWS // 2], values[ROWS // 2 :]])
    month = columns.pop("month")
    handed: list[type] = []
    convert = pa.array

    def recording(value: Any, *args: Any, **kwargs: Any) -> Any:
        handed.append(type(value))
        return convert(value, *args, **kwargs)

    monkeypatch.setattr(pa, "array", recording)
    table = chunk._table("participants", columns, month)
    assert pa.ChunkedArray not in handed
    assert table.num_rows == ROWS
    assert table.schema == schema
    assert table.column("participant_id").to_pylist()[-1] == str(ROWS - 1)
