"""An archive's tables read as an analysis reads MatchFrames: the participant view, lazily, and
the dtypes a result's columns get so that an archive and MatchFrames give the same table.

An archive keeps text as text; MatchFrames has categoricals (``server_type``, ``region``, ...)
whose categories are the column's sorted values. A result's group columns therefore get, from
an archive, the dtype the MatchFrames schema gives them, with the categories computed from the
archive's table (:func:`key_dtypes`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from matchkit.analysis._engine import join
from matchkit.analysis.inputs import ArchiveTables, TableSource
from matchkit.errors import InvalidArgumentError
from matchkit.model.frames import VIEW_MATCH_COLUMNS, VIEW_ROSTER_COLUMNS

__all__ = ["PARTICIPANT_SOURCES", "key_dtypes", "lazy_participant_view"]

#: Where the participant view's added columns come from: view column -> (table, column), as
#: MatchFrames.participant_view() adds them.
PARTICIPANT_SOURCES: dict[str, tuple[str, str]] = {
    **{view: ("rosters", column) for column, view in VIEW_ROSTER_COLUMNS.items()},
    **{name: ("matches", name) for name in VIEW_MATCH_COLUMNS},
}


def _source(table: str, column: str) -> tuple[str, str]:
    """The MatchFrames table and column a column of ``table`` (or of the view) comes from."""
    if table == "participant_view":
        return PARTICIPANT_SOURCES.get(column, ("participants", column))
    return table, column


def key_dtypes(
    data: TableSource, table: str, columns: Sequence[str], *, seen: Any = None
) -> tuple[dict[str, Any], dict[str, Any]]:
    """The MatchFrames dtypes of ``columns`` of ``table``, and the lazy values of categoricals.

    Args:
        data: an archive (for MatchFrames the results already have their dtypes).
        table: a MatchFrames table name, or ``"participant_view"``.
        columns: the result's columns to give their MatchFrames dtypes (others are left out).
        seen: a lazy frame whose columns hold every value ``table`` holds in them (the groups
            of a result that groups every row): the categoricals' values are taken from it
            rather than from a pass over the table. None: from the table.

    Returns:
        ``(dtypes, categories)``: column -> dtype, and column -> a lazy Series of the source
        column's distinct values, for categoricals without a fixed vocabulary.
    """
    from matchkit.model.schema import TABLES

    dtypes: dict[str, Any] = {}
    categories: dict[str, Any] = {}
    for name in columns:
        source_table, source_column = _source(table, name)
        schema = TABLES.get(source_table)
        if schema is None or source_column not in schema.column_names:
            continue
        column = schema.column(source_column)
        dtypes[name] = column.dtype
        if column.kind == "category" and not column.categories:
            if seen is not None:
                categories[name] = seen[name]
                continue
            values = getattr(data, source_table)[source_column].dropna()
            categories[name] = values.drop_duplicates(split_out=1)
    return dtypes, categories


def lazy_participant_view(data: ArchiveTables, columns: Sequence[str]) -> Any:
    """The participant view of an archive (lazy), with ``columns`` of it (and the keys).

    Column for column as :meth:`MatchFrames.participant_view` (the roster's ``side``, else the
    participant's own; ``roster_score`` for the roster's score); the participants' extra
    columns that clash with a roster or match column are not supported here.

    Raises:
        InvalidArgumentError: a column is neither the participants' nor the view's.
    """
    participants = data.participants
    wanted = list(dict.fromkeys(columns))
    unknown = [
        name
        for name in wanted
        if name not in participants.columns and name not in PARTICIPANT_SOURCES
    ]
    if unknown:
        raise InvalidArgumentError(
            f"the participant view has no column(s) {', '.join(unknown)}", parameter="by"
        )
    own = [name for name in wanted if name in participants.columns and name != "side"]
    side = ["side"] if "side" in wanted else []
    view = participants[list(dict.fromkeys(["match_id", "roster_id", *side, *own]))]
    view = view.rename(columns={"side": "own_side"})
    from_rosters = {
        column: name
        for name, (table, column) in PARTICIPANT_SOURCES.items()
        if table == "rosters" and name in wanted
    }
    if from_rosters:  # a join per partition: only for a roster's column asked for
        rosters = data.rosters[["roster_id", *from_rosters]].rename(columns=from_rosters)
        view = join(view, rosters, on="roster_id", how="left")
    if side:
        view = view.assign(side=view["side"].fillna(view["own_side"]))
    from_matches = [
        name for name in wanted if PARTICIPANT_SOURCES.get(name, ("", ""))[0] == "matches"
    ]
    if from_matches:
        view = join(view, data.matches[["match_id", *from_matches]], on="match_id", how="left")
    return view[wanted]
