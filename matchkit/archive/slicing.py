"""A slice of an archive as pandas MatchFrames (:meth:`matchkit.archive.Archive.to_frames`).

Only the files of the months the slice spans are read. Players and teams are, for each one the
slice's participants and rosters name, its snapshot of its latest match before the slice's end
(else its earliest snapshot), as decision 17 keeps them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import pandas as pd

from matchkit.archive.convert import SNAPSHOT_COLUMNS, SNAPSHOT_LINKS
from matchkit.errors import InvalidArgumentError
from matchkit.model.schema import TABLE_NAMES, TABLES, coerce_frame
from matchkit.rules.windows import parse_time

if TYPE_CHECKING:
    from matchkit.archive.reader import TableFiles
    from matchkit.model.frames import MatchFrames

__all__ = ["slice_frames"]

_MATCH_FILTERS = {
    "server_types": "server_type",
    "patch_versions": "patch_version",
    "game_modes": "game_mode",
    "ranking_type": "ranking_type",
}


def slice_frames(
    tables: Mapping[str, TableFiles], start: Any, end: Any, filters: Mapping[str, Any]
) -> MatchFrames:
    from matchkit.model.frames import MatchFrames

    unknown = sorted(set(filters) - {*_MATCH_FILTERS, "player_ids"})
    if unknown:
        raise InvalidArgumentError(
            f"to_frames takes the filters {', '.join([*_MATCH_FILTERS, 'player_ids'])}; not "
            f"{', '.join(unknown)}",
            parameter=unknown[0],
        )
    first = None if start is None else parse_time(start, parameter="start")
    stop = None if end is None else parse_time(end, parameter="end")
    if first is not None and stop is not None and first >= stop:
        raise InvalidArgumentError(
            f"start {first.isoformat()} is not before end {stop.isoformat()}", parameter="start"
        )
    low = None if first is None else f"{first:%Y-%m}"
    high = None if stop is None else f"{(stop - pd.Timedelta(microseconds=1)):%Y-%m}"
    matches = tables["matches"].read(tables["matches"].in_months(low, high))
    keep = pd.Series(True, index=matches.index)
    if first is not None:
        keep &= (matches["created_at"] >= first).fillna(False)
    if stop is not None:
        keep &= (matches["created_at"] < stop).fillna(False)
    for name, column in _MATCH_FILTERS.items():
        values = filters.get(name)
        if values is not None:
            values = [values] if isinstance(values, str) else list(values)
            keep &= matches[column].isin(values).fillna(False)
    matches = matches[keep.to_numpy()]
    owned = {}
    for name in TABLE_NAMES:
        if name in ("matches", *SNAPSHOT_LINKS):
            continue
        frame = tables[name].read(tables[name].in_months(low, high))
        owned[name] = frame[frame["match_id"].isin(matches["match_id"]).to_numpy()]
    player_ids = filters.get("player_ids")
    if player_ids is not None:
        player_ids = [player_ids] if isinstance(player_ids, str) else list(player_ids)
        chosen = owned["participants"].loc[
            owned["participants"]["player_id"].isin(player_ids).to_numpy(), "match_id"
        ]
        matches = matches[matches["match_id"].isin(chosen).to_numpy()]
        owned = {
            name: frame[frame["match_id"].isin(matches["match_id"]).to_numpy()]
            for name, frame in owned.items()
        }
    owned["matches"] = matches
    for name, (link, column) in SNAPSHOT_LINKS.items():
        ids = owned[link][column].dropna().unique()
        owned[name] = _snapshots_of(tables[name].read(), column, ids, stop)
    frames = {
        name: coerce_frame(owned[name].reset_index(drop=True), TABLES[name]) for name in TABLE_NAMES
    }
    return MatchFrames(**frames)


def _snapshots_of(snapshots: pd.DataFrame, key: str, ids: Any, stop: Any) -> pd.DataFrame:
    rows = snapshots[snapshots[key].isin(ids).to_numpy()]
    rows = rows.sort_values(["match_created_at", "match_id"], kind="stable")
    if stop is not None:
        before = rows[(rows["match_created_at"] < stop).fillna(False).to_numpy()]
        chosen = before.drop_duplicates(key, keep="last")
        later = rows[~rows[key].isin(chosen[key]).to_numpy()].drop_duplicates(key, keep="first")
        rows = pd.concat([chosen, later])
    else:
        rows = rows.drop_duplicates(key, keep="last")
    return rows.drop(columns=list(SNAPSHOT_COLUMNS)).sort_values(key, kind="stable")
