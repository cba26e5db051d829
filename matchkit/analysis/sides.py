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
    collect,
    is_lazy,
    join,
    map_frame,
    per_match_sums,
    summarize,
    with_dtypes,
)
from matchkit.analysis.inputs import TableSource, checked_table_source
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
    matches = with_group_columns(source.matches, keys, source="the matches table")
    arena = arena_mask(matches)
    excluded = {"royale_matches": (~arena).sum()}
    matches = matches.loc[arena, ["match_id", *keys]]
    if level == "match":
        rows, count_column = _match_rows(source.rosters, matches, keys), "matches"
        reasons = {
            "matches_without_two_sides": "no_two_sides",
            "matches_without_result": "no_result",
        }
    else:
        rows, count_column = _round_rows(source.rounds, matches, keys), "rounds"
        reasons = {"rounds_without_winner": "no_winner"}
    sums = {name: (name, "sum") for name in rows.columns if name not in keys}
    if keys:
        per_group = summarize(rows, keys, sums)
    else:
        per_group = rows.assign(all=0).groupby("all").agg(**sums)
    dtypes, categories = key_dtypes(source, "matches", keys) if is_lazy(per_group) else ({}, {})
    per_group, excluded, categories = collect(per_group, excluded, categories)
    for reason, column in reasons.items():
        excluded[reason] = per_group[column].sum()
    per_group = per_group.loc[per_group[count_column] > 0]
    per_group = with_dtypes(per_group.reset_index(drop=not keys), dtypes, categories)
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


def _match_rows(rosters: Any, matches: Any, keys: list[str]) -> Any:
    """One row per Arena match: its keys, 1 if usable (else 0), each side's win (0/1) and why it
    is not usable (``no_two_sides``, ``no_result``; 0/1). Lazy on an archive.

    A match is usable with exactly two rosters, one on side 1 and one on side 2, both with a
    result.
    """
    indicators = map_frame(rosters[["match_id", "side", "won"]], _roster_indicators)
    totals = [name for name in indicators.columns if name != "match_id"]
    per_match = per_match_sums(indicators, **{name: (name, "sum") for name in totals})
    matches = join(matches, per_match, on="match_id", how="left", validate="one_to_one")
    return map_frame(matches, _usable_matches, keys, totals)


def _roster_indicators(rosters: pd.DataFrame) -> pd.DataFrame:
    """Per roster: 1, and 0/1 for side 1, side 2, a result, a win on side 1, on side 2."""
    won = rosters["won"]
    one = rosters["side"] == 1
    two = rosters["side"] == 2
    return rosters[["match_id"]].assign(
        rosters=1,
        side_one=one.fillna(False).astype("int64"),
        side_two=two.fillna(False).astype("int64"),
        results=won.notna().astype("int64"),
        side_one_wins=(one & won).fillna(False).astype("int64"),
        side_two_wins=(two & won).fillna(False).astype("int64"),
    )


def _usable_matches(matches: pd.DataFrame, keys: list[str], totals: list[str]) -> pd.DataFrame:
    counts = matches[totals].fillna(0).astype("int64")
    two_sides = (counts["rosters"] == 2) & (counts["side_one"] == 1) & (counts["side_two"] == 1)
    has_result = counts["results"] == counts["rosters"]
    usable = two_sides & has_result
    return matches[keys].assign(
        matches=usable.astype("int64"),
        side_one_wins=counts["side_one_wins"].where(usable, 0),
        side_two_wins=counts["side_two_wins"].where(usable, 0),
        no_two_sides=(~two_sides).astype("int64"),
        no_result=(two_sides & ~has_result).astype("int64"),
    )


def _round_rows(rounds: Any, matches: Any, keys: list[str]) -> Any:
    """One row per round of an Arena match: its keys, 1 if decided, each side's win (0/1), and
    ``no_winner`` (0/1: ``winning_team`` missing or not 1/2). Lazy on an archive."""
    rounds = join(
        rounds[["match_id", "winning_team"]], matches, on="match_id", validate="many_to_one"
    )
    return map_frame(rounds, _decided_rounds, keys)


def _decided_rounds(rounds: pd.DataFrame, keys: list[str]) -> pd.DataFrame:
    decided = rounds["winning_team"].isin(SIDES).fillna(False).astype(bool)
    return rounds[keys].assign(
        rounds=decided.astype("int64"),
        side_one_wins=(decided & (rounds["winning_team"] == SIDES[0])).astype("int64"),
        side_two_wins=(decided & (rounds["winning_team"] == SIDES[1])).astype("int64"),
        no_winner=(~decided).astype("int64"),
    )
