"""Combining the tables of several MatchFrames: one row per key, decision 17 across frames.

:meth:`matchkit.model.frames.MatchFrames.concat` joins the tables of frames from several
fetches (or data sets read back). A row whose key is in several frames is kept once, as the
normalizer keeps a resource that came twice:

- a player or team row is a snapshot at its match's time (decision 17): the row kept is the one
  from the frame that holds its latest match (by match ``createdAt``, then match id), whatever
  the order of the frames; a frame that holds none of its matches counts as the earliest, and
  of frames equally late the first wins;
- any other row belongs to one match: the first frame's row is kept.

Either way, keys whose rows differ between frames are counted in a problem, never dropped in
silence. A column that the frames hold with different kinds (an integer in one, text in
another) is settled as the normalizer settles it (:mod:`matchkit.model.text`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from matchkit.model.listings import FRAME_TABLES
from matchkit.model.schema import SNAPSHOT_OWNERS
from matchkit.model.text import EXACT_IN_FLOAT, text_value

__all__ = ["Stacked", "one_row_per_key", "stack"]


@dataclass(frozen=True)
class Stacked:
    """One table of several frames, frame after frame."""

    rows: pd.DataFrame
    """the rows of every frame"""
    frame: np.ndarray
    """each row's frame (its position among the frames)"""


def stack(parts: Sequence[pd.DataFrame]) -> Stacked:
    """One table of several frames, one after another; a column a part lacks is missing
    there, with the dtype the other parts give it."""
    frame = np.repeat(np.arange(len(parts)), [len(part) for part in parts])
    return Stacked(_concat_aligned(list(parts)), frame)


def one_row_per_key(name: str, stacked: Mapping[str, Stacked]) -> tuple[pd.DataFrame, str | None]:
    """One row per key of table ``name``, in the order the keys were first seen.

    Args:
        name: the table.
        stacked: every table of the frames combined, stacked (a snapshot's matches are read
            there).

    Returns:
        The rows kept, and the problem to report (None when no key's rows differ).
    """
    schema = FRAME_TABLES[name]
    key = list(schema.key)
    combined, frame_of_row = stacked[name].rows, stacked[name].frame
    repeated = combined.duplicated(subset=key, keep=False).to_numpy()
    if not repeated.any():
        return combined, None
    differing = _keys_with_differing_rows(combined[repeated], key)
    kept = combined.drop_duplicates(subset=key, keep="first")
    snapshot = SNAPSHOT_OWNERS.get(schema.resource_type)
    if snapshot is not None:
        owner, column = snapshot
        owners = _owners(stacked, owner, column).rename(columns={column: key[0]})
        kept = _latest_rows(combined, key[0], frame_of_row, owners, kept.index)
    if not differing:
        return kept.reset_index(drop=True), None
    resource = schema.resource_type
    if snapshot is not None:
        problem = (
            f"{differing} {resource} row(s) differ between the frames combined; each keeps "
            "the row from its latest match (by match createdAt, then match id)"
        )
    else:
        problem = (
            f"{differing} {resource} row(s) differ between the frames combined; the first "
            "frame's row was kept"
        )
    return kept.reset_index(drop=True), problem


def _keys_with_differing_rows(rows: pd.DataFrame, key: list[str]) -> int:
    """How many keys have rows that differ in any column (missing values equal)."""
    distinct = rows.drop_duplicates()
    changed = distinct.duplicated(subset=key, keep=False)
    return len(distinct.loc[changed, key].drop_duplicates())


def _owners(stacked: Mapping[str, Stacked], owner: str, column: str) -> pd.DataFrame:
    """``(frame, snapshot id, match_id, created_at)``: which match of each frame refers to
    which snapshot (through ``owner``'s ``column``: participants' player_id, rosters'
    team_id)."""
    refers = stacked[owner].rows[[column, "match_id"]].assign(frame=stacked[owner].frame)
    matches = stacked["matches"]
    times = matches.rows[["match_id", "created_at"]].assign(frame=matches.frame)
    return refers.dropna().merge(times, on=["frame", "match_id"])


def _latest_rows(
    combined: pd.DataFrame,
    id_column: str,
    frame_of_row: np.ndarray,
    owners: pd.DataFrame,
    first_seen: pd.Index,
) -> pd.DataFrame:
    """For each snapshot id, the row of the frame that holds its latest match (``owners``:
    :func:`_owners`), placed where the id was first seen."""
    latest = owners.sort_values(
        ["created_at", "match_id"], na_position="first", kind="stable"
    ).drop_duplicates([id_column, "frame"], keep="last")
    candidates = pd.DataFrame(
        {id_column: combined[id_column].to_numpy(), "frame": frame_of_row, "row": combined.index}
    ).merge(latest, on=[id_column, "frame"], how="left")
    candidates["has_match"] = candidates["match_id"].notna()
    # Ascending by lateness, the first frame last among equals: the last row of an id wins.
    winners = candidates.sort_values(
        ["has_match", "created_at", "match_id", "frame"],
        ascending=[True, True, True, False],
        na_position="first",
        kind="stable",
    ).drop_duplicates(id_column, keep="last")
    winner_of = dict(zip(winners[id_column], winners["row"], strict=True))
    rows = [winner_of[identifier] for identifier in combined.loc[first_seen, id_column]]
    return combined.loc[rows]


def _concat_aligned(parts: list[pd.DataFrame]) -> pd.DataFrame:
    """Concatenate tables whose extra columns differ, giving absent columns the right dtype."""
    dtypes: dict[str, Any] = {}
    kinds: dict[str, set[str]] = {}
    for part in parts:
        for name, dtype in part.dtypes.items():
            dtypes.setdefault(name, dtype)
            kinds.setdefault(name, set()).add(str(dtype))
    aligned = []
    for part in parts:
        if len(part.columns) != len(dtypes) or list(part.columns) != list(dtypes):
            part = part.copy()
            for name, dtype in dtypes.items():
                if name not in part:
                    part[name] = pd.Series(None, index=part.index, dtype=_nullable(dtype))
            part = part[list(dtypes)]
        aligned.append(part)
    combined = pd.concat(aligned, ignore_index=True)
    for name in [name for name, seen in kinds.items() if len(seen) > 1]:
        # a column the frames hold with different kinds (not only missing): one kind, as to_frames
        held = {
            str(part[name].dtype) for part in parts if name in part and part[name].notna().any()
        }
        if len(held) > 1:  # read from the parts: concat may already have rounded integers
            values = [value for part in aligned for value in part[name].tolist()]
            combined[name] = _one_kind(values, combined.index)
    return combined


def _one_kind(values: list[Any], index: pd.Index) -> pd.Series:
    """Values of mixed kinds as the normalizer settles them: integers and decimals as decimals
    (text when an integer is beyond :data:`matchkit.model.text.EXACT_IN_FLOAT`), any other
    mix as text (:func:`matchkit.model.text.text_value`)."""
    plain = [None if pd.isna(value) else _plain(value) for value in values]
    numbers = [value for value in plain if value is not None]
    if all(type(value) in (int, float) for value in numbers) and all(
        type(value) is float or abs(value) <= EXACT_IN_FLOAT for value in numbers
    ):
        return pd.Series(plain, index=index, dtype="float64")
    return pd.Series([text_value(value) for value in plain], index=index, dtype="string")


def _plain(value: Any) -> Any:
    """A numpy scalar as the Python value it holds."""
    return value.item() if isinstance(value, np.generic) else value


def _nullable(dtype: Any) -> Any:
    """A dtype that can hold missing values (plain numpy ints and bools cannot)."""
    if isinstance(dtype, np.dtype) and dtype.kind in "iub":
        return "float64" if dtype.kind in "iu" else "boolean"
    return dtype
