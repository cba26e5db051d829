"""The ``files`` table of TelemetryFrames: one row per file, from what the builder counted and
the event tables' times."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from matchkit.normalize import ARROW_POOL
from matchkit.telemetry.columns import utc_micros

__all__ = ["FileCounts", "files_table"]

FileCounts = tuple[str, int, int | None, int | None]
"""A file's match id, number of events, and first and last cursor (``None`` with no events)."""


def files_table(files: list[FileCounts], tables: dict[str, pd.DataFrame]) -> pd.DataFrame:
    """One row per file: its events, cursor span and time span (from the event tables).

    The time spans are taken a table at a time: its rows' files found in Arrow, the earliest
    and latest time per file kept in numpy (no table of every row is built)."""
    ids = [file[0] for file in files]
    where = {match_id: place for place, match_id in enumerate(dict.fromkeys(ids))}
    known = pa.array(list(where), pa.string(), memory_pool=ARROW_POOL)
    first = np.full(len(known), _NO_TIME, dtype=np.int64)
    last = np.full(len(known), -_NO_TIME, dtype=np.int64)
    for table in tables.values():
        if not len(table) or "time" not in table:
            continue
        times = table["time"].array  # microseconds, as the schema declares
        present = ~np.asarray(times.isna())
        match_ids = pa.array(table["match_id"].array)  # pandas' Arrow text, not copied
        rows = pc.index_in(match_ids, value_set=known, memory_pool=ARROW_POOL)
        positions = rows.to_numpy()[present].astype(np.int64)  # every row's file is known
        values = times.asi8[present]
        np.minimum.at(first, positions, values)
        np.maximum.at(last, positions, values)
    order = [where[match_id] for match_id in ids]
    return pd.DataFrame(
        {
            "match_id": pd.array(ids, dtype="string"),
            "events": pd.array([file[1] for file in files], dtype="Int64"),
            "first_cursor": pd.array([file[2] for file in files], dtype="Int64"),
            "last_cursor": pd.array([file[3] for file in files], dtype="Int64"),
            "started_at": utc_micros(first[order], missing=first[order] == _NO_TIME),
            "ended_at": utc_micros(last[order], missing=last[order] == -_NO_TIME),
        }
    )


_NO_TIME = np.iinfo(np.int64).max
"""No time seen (yet) for a file: above every microsecond time."""
