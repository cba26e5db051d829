"""Win rates of each side of an Arena match, per group, with Wilson intervals.

An Arena match has two rosters, side 1 and side 2, and one of them wins; so in each group the
win rates of side 1 and side 2 are complementary (they add up to 1, except for draws, where
both rosters lost). Both sides are reported, in two rows per group, so that the structure is
visible; read the side 1 row for "the advantage of side 1".

Royale matches are excluded: a Royale match has one roster per team and no Arena sides, so a
"side" win rate would be meaningless. How many matches were left out, and why, is in
``result.attrs["excluded"]``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import partial
from types import SimpleNamespace
from typing import Any

import numpy as np
import pandas as pd

from matchkit.analysis._archive import key_dtypes
from matchkit.analysis._common import (
    Level,
    arena_mask,
    checked_level,
    group_keys,
    in_version_order,
    wilson_columns,
    with_group_columns,
)
from matchkit.analysis._engine import (
    by_partition,
    is_lazy,
    summed,
    summed_counts,
    with_dtypes,
)
from matchkit.analysis._groups import counted, positions_in
from matchkit.analysis.inputs import TableSource, checked_table_source, text_as_categories
from matchkit.names import Names, with_names

__all__ = ["SIDES", "side_win_rates"]

#: The two sides of an Arena match.
SIDES = (1, 2)


def side_win_rates(
    data: TableSource,
    by: str | Sequence[str] | None = None,
    *,
    level: Level = "match",
    confidence: float = 0.95,
    names: Names | Mapping[str, Any] | None = None,
) -> pd.DataFrame:
    """Each side's win rate per group, with counts and a Wilson interval.

    Args:
        data: the normalized matches, or an archive (:func:`matchkit.archive.open`): the
            same table, computed by Dask where the data are.
        by: grouping keys: columns of the matches table (``"server_type"``, ``"ranking_type"``,
            ``"patch_version"``, ``"region"``, ...) or a period of ``created_at``
            (``"date"``, ``"week"``, ``"month"``); None for one group.
        level: ``"match"`` counts matches won by each side (from the rosters' ``won``);
            ``"round"`` counts rounds won by each side (from ``rounds.winning_team``). Rounds of
            one match are not independent, so the round-level interval is too narrow when
            matches differ in strength; read it as descriptive.
        confidence: the interval's confidence level.
        names: display names (:mod:`matchkit.names`) for id columns among the groups
            (``map_id`` gets ``map``); None: no names, each id is its own name (as text).

    Returns:
        One row per group and side: the ``by`` columns (a name in the place of each id
        column that has one: ``map`` for ``map_id``), ``side`` (1 or 2), ``matches`` (or
        ``rounds`` at round level: the number of observations), ``wins``, ``win_rate``,
        ``ci_low``, ``ci_high``, and the named id columns last. ``attrs["excluded"]`` maps a
        reason to the number of matches (or rounds) left out: ``royale_matches`` always; at
        match level also
        ``matches_without_two_sides`` (not exactly one roster on side 1 and one on side 2) and
        ``matches_without_result`` (a roster without ``won``); at round level
        ``rounds_without_winner`` (``winning_team`` missing or not 1/2).

    Example:
        >>> rates = side_win_rates(frames, by="server_type")  # doctest: +SKIP
        >>> rates.query("side == 1")[["server_type", "win_rate", "ci_low", "ci_high"]]
    """
    source = checked_table_source(data)
    keys = group_keys(by)
    level = checked_level(level)
    if level == "match":
        count_column = "matches"
        reasons = {
            "matches_without_two_sides": "no_two_sides",
            "matches_without_result": "no_result",
        }
    else:
        count_column = "rounds"
        reasons = {"rounds_without_winner": "no_winner"}
    per_group, excluded, dtypes, categories = _groups(source, keys, level)
    for reason, column in reasons.items():
        excluded[reason] = per_group[column].sum()
    per_group = per_group.loc[per_group[count_column] > 0]
    per_group = with_dtypes(per_group.reset_index(drop=not keys), dtypes, categories)
    if keys:  # in the keys' order (an archive's groups come in its partitions' order)
        per_group = per_group.sort_values(keys, kind="stable", ignore_index=True)
    table = _by_side(per_group.reset_index(drop=True), keys, count_column)
    table = table.assign(
        **wilson_columns(table["wins"], table[count_column], confidence=confidence)
    )
    table = with_names(in_version_order(table, keys), names, ids="last")
    table.attrs["excluded"] = {reason: int(count) for reason, count in excluded.items()}
    table.attrs["level"] = level
    return table


def _by_side(per_group: pd.DataFrame, keys: list[str], count_column: str) -> pd.DataFrame:
    """Two rows per group, side 1 then side 2: the keys, side, the count and the wins."""
    rows = per_group.loc[per_group.index.repeat(len(SIDES))].reset_index(drop=True)
    first = np.tile([True, False], len(per_group))
    table = rows[keys].assign(side=pd.array(np.where(first, *SIDES), dtype="Int64"))
    table[count_column] = rows[count_column].astype("int64")
    wins = np.where(first, rows["side_one_wins"], rows["side_two_wins"])
    table["wins"] = pd.Series(wins, dtype="int64")
    return table


def _groups(
    source: TableSource, keys: list[str], level: Level
) -> tuple[pd.DataFrame, dict[str, int], dict[str, Any], dict[str, Any]]:
    """The counts per group of :func:`_match_counts` or :func:`_round_counts` (``level``), the
    Royale matches left out, and, on an archive, the groups' dtypes and their categories (every
    value of each key).

    On an archive each partition is counted in one task (its matches and their rosters or
    rounds lie in it) and the counts are summed here: as a lazy join of each match's roster
    sums, grouped, it was ten small tasks a partition and two hashings of the match ids."""
    # The keys' text is grouped partition by partition: read as categories.
    source = text_as_categories(source, keys)
    matches = with_group_columns(source.matches, keys, source="the matches table")
    tables = {"matches": matches[list(dict.fromkeys(["match_id", "is_royale", *keys]))]}
    if level == "match":
        tables["children"] = source.rosters[["match_id", "side", "won"]]
        count = partial(_match_counts, keys=keys)
    else:
        tables["children"] = source.rounds[["match_id", "winning_team"]]
        count = partial(_round_counts, keys=keys)
    if not is_lazy(matches):
        counts, excluded, _ = count(SimpleNamespace(**tables))
        return counts, excluded, {}, {}
    parts = by_partition(count, tables)
    seen = {key: pd.concat([pd.Series(values[key]) for *_, values in parts]) for key in keys}
    dtypes, categories = key_dtypes(source, "matches", keys, seen=seen)
    counts = summed([counts for counts, _, _ in parts])
    return counts, summed_counts([excluded for _, excluded, _ in parts]), dtypes, categories


def _match_counts(
    tables: Any, keys: list[str]
) -> tuple[pd.DataFrame, dict[str, int], dict[str, np.ndarray]]:
    """Of some whole matches (``tables.matches`` and their rosters, ``tables.children``): per
    group of Arena matches, the usable ``matches``, each side's wins, and why the others are not
    usable (``no_two_sides``, ``no_result``); the Royale matches left out; each key's values.

    A match is usable with exactly two rosters, one on side 1 and one on side 2, both with a
    result. Each roster is placed by its match's position (one hashing of the ids), and each
    match's rosters are counted with ``np.bincount``."""
    matches, rosters = tables.matches, tables.children
    arena = arena_mask(matches).to_numpy(dtype=bool)
    position = positions_in(rosters["match_id"], matches["match_id"])
    known = position >= 0  # a roster of a match not here: of no match counted
    position = position[known]
    side = rosters["side"].to_numpy(dtype="float64", na_value=np.nan)[known]
    won = rosters["won"]
    result = won.notna().to_numpy()[known]
    wins = won.to_numpy(dtype=bool, na_value=False)[known]

    def per_match(chosen: np.ndarray | None = None) -> np.ndarray:
        chosen_positions = position if chosen is None else position[chosen]
        return np.bincount(chosen_positions, minlength=len(matches))

    rosters_of = per_match()
    two_sides = (rosters_of == 2) & (per_match(side == 1) == 1) & (per_match(side == 2) == 1)
    has_result = per_match(result) == rosters_of
    usable = two_sides & has_result
    columns = {key: matches[key] for key in keys} if keys else {"all": np.zeros(len(matches))}
    columns.update(
        matches=usable,
        side_one_wins=usable & (per_match((side == 1) & wins) == 1),
        side_two_wins=usable & (per_match((side == 2) & wins) == 1),
        no_two_sides=~two_sides,
        no_result=two_sides & ~has_result,
    )
    sums = ["matches", "side_one_wins", "side_two_wins", "no_two_sides", "no_result"]
    counts = counted(columns, keys or ["all"], arena, size="arena", sums=sums)[sums]
    return counts, {"royale_matches": int((~arena).sum())}, _values(matches, keys)


def _round_counts(
    tables: Any, keys: list[str]
) -> tuple[pd.DataFrame, dict[str, int], dict[str, np.ndarray]]:
    """Of some whole matches (``tables.matches`` and their rounds, ``tables.children``): per
    group of the rounds of Arena matches, the decided ``rounds`` (``winning_team`` 1 or 2),
    each side's wins, and ``no_winner``; the Royale matches left out; each key's values."""
    matches, rounds = tables.matches, tables.children
    arena = arena_mask(matches).to_numpy(dtype=bool)
    position = positions_in(rounds["match_id"], matches["match_id"])
    counted_round = position >= 0  # a round of a match not here: in no group
    counted_round[counted_round] = arena[position[counted_round]]
    at = np.where(counted_round, position, -1)  # -1: missing keys (the round is not counted)
    winner = rounds["winning_team"].to_numpy(dtype="float64", na_value=np.nan)
    decided = (winner == SIDES[0]) | (winner == SIDES[1])
    columns: dict[str, Any] = (
        {key: matches[key].array.take(at, allow_fill=True) for key in keys}
        if keys
        else {"all": np.zeros(len(at))}
    )
    columns.update(
        rounds=decided,
        side_one_wins=winner == SIDES[0],
        side_two_wins=winner == SIDES[1],
        no_winner=~decided,
    )
    sums = ["rounds", "side_one_wins", "side_two_wins", "no_winner"]
    counts = counted(columns, keys or ["all"], counted_round, size="all_rounds", sums=sums)
    return counts[sums], {"royale_matches": int((~arena).sum())}, _values(matches, keys)


def _values(matches: pd.DataFrame, keys: list[str]) -> dict[str, np.ndarray]:
    """Each key's distinct values among some matches (for the categories of the result)."""
    return {key: pd.unique(matches[key].dropna()) for key in keys}
