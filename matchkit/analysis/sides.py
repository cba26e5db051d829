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
from typing import TYPE_CHECKING, Any, Literal

import pandas as pd

from matchkit.analysis._common import (
    arena_mask,
    check_level,
    group_keys,
    in_version_order,
    matchframes,
    wilson_columns,
    with_group_columns,
)
from matchkit.names import Names, with_names

if TYPE_CHECKING:
    from matchkit.model.frames import MatchFrames

__all__ = ["SIDES", "side_win_rates"]

#: The two sides of an Arena match.
SIDES = (1, 2)

Level = Literal["match", "round"]


def side_win_rates(
    frames: MatchFrames,
    by: str | Sequence[str] | None = None,
    *,
    level: Level = "match",
    confidence: float = 0.95,
    names: Names | Mapping[str, Any] | None = None,
) -> pd.DataFrame:
    """Each side's win rate per group, with counts and a Wilson interval.

    Args:
        frames: the normalized matches.
        by: grouping keys: columns of the matches table (``"server_type"``, ``"ranking_type"``,
            ``"patch_version"``, ``"region"``, ...) or a period of ``created_at``
            (``"date"``, ``"week"``, ``"month"``); None for one group.
        level: ``"match"`` counts matches won by each side (from the rosters' ``won``);
            ``"round"`` counts rounds won by each side (from ``rounds.winning_team``). Rounds of
            one match are not independent, so the round-level interval is too narrow when
            matches differ in strength; read it as descriptive.
        confidence: the interval's confidence level.
        names: display names (:mod:`matchkit.names`) for id columns among the groups
            (``map_id`` gets ``map`` beside it).

    Returns:
        One row per group and side: the ``by`` columns, ``side`` (1 or 2), ``matches`` (or
        ``rounds`` at round level: the number of observations), ``wins``, ``win_rate``,
        ``ci_low``, ``ci_high``. ``attrs["excluded"]`` maps a reason to the number of matches
        (or rounds) left out: ``royale_matches`` always; at match level also
        ``matches_without_two_sides`` (not exactly one roster on side 1 and one on side 2) and
        ``matches_without_result`` (a roster without ``won``); at round level
        ``rounds_without_winner`` (``winning_team`` missing or not 1/2).

    Example:
        >>> rates = side_win_rates(frames, by="server_type")  # doctest: +SKIP
        >>> rates.query("side == 1")[["server_type", "win_rate", "ci_low", "ci_high"]]
    """
    frames = matchframes(frames)
    keys = group_keys(by)
    check_level(level)
    matches = with_group_columns(frames.matches, keys, source="the matches table")
    arena = arena_mask(matches)
    excluded = {"royale_matches": int((~arena).sum())}
    matches = matches.loc[arena, ["match_id", *keys]]
    if level == "match":
        observations, count_column = _match_observations(frames.rosters, matches, excluded)
    else:
        observations, count_column = _round_observations(frames.rounds, matches, excluded)
    grouped = observations.groupby([*keys, "side"], observed=True, dropna=False, sort=True)
    table = grouped["won"].agg(["size", "sum"]).reset_index()
    table = table.rename(columns={"size": count_column, "sum": "wins"})
    table["side"] = table["side"].astype("Int64")
    table[count_column] = table[count_column].astype("int64")
    table["wins"] = table["wins"].astype("int64")
    table = table.assign(
        **wilson_columns(table["wins"], table[count_column], confidence=confidence)
    )
    table = with_names(in_version_order(table, keys), names)
    table.attrs["excluded"] = excluded
    table.attrs["level"] = level
    return table


def _match_observations(
    rosters: pd.DataFrame, matches: pd.DataFrame, excluded: dict[str, int]
) -> tuple[pd.DataFrame, str]:
    """One row per roster of a usable Arena match: its group keys, side and won."""
    rosters = rosters.loc[
        rosters["match_id"].isin(matches["match_id"]), ["match_id", "side", "won"]
    ]
    indicators = pd.DataFrame(
        {
            "match_id": rosters["match_id"],
            "rosters": 1,
            "side_one": (rosters["side"] == 1).fillna(False).astype("int64"),
            "side_two": (rosters["side"] == 2).fillna(False).astype("int64"),
            "results": rosters["won"].notna().astype("int64"),
        }
    )
    per_match = indicators.groupby("match_id", sort=False).sum()
    two_sides = (
        (per_match["rosters"] == 2) & (per_match["side_one"] == 1) & (per_match["side_two"] == 1)
    )
    has_result = per_match["results"] == per_match["rosters"]
    without_rosters = int((~matches["match_id"].isin(per_match.index)).sum())
    excluded["matches_without_two_sides"] = int((~two_sides).sum()) + without_rosters
    excluded["matches_without_result"] = int((two_sides & ~has_result).sum())
    usable = per_match.index[two_sides & has_result]
    rosters = rosters.loc[rosters["match_id"].isin(usable)]
    observations = rosters.merge(matches, on="match_id", how="inner", validate="many_to_one")
    observations["won"] = observations["won"].astype(bool)
    return observations, "matches"


def _round_observations(
    rounds: pd.DataFrame, matches: pd.DataFrame, excluded: dict[str, int]
) -> tuple[pd.DataFrame, str]:
    """Two rows per decided round of an Arena match (one per side): group keys, side, won."""
    rounds = rounds.loc[rounds["match_id"].isin(matches["match_id"]), ["match_id", "winning_team"]]
    decided = rounds["winning_team"].isin(SIDES).fillna(False).astype(bool)
    excluded["rounds_without_winner"] = int((~decided).sum())
    rounds = rounds.loc[decided].merge(matches, on="match_id", how="inner", validate="many_to_one")
    per_side = [rounds.assign(side=side, won=rounds["winning_team"] == side) for side in SIDES]
    observations = pd.concat(per_side, ignore_index=True)
    observations["won"] = observations["won"].astype(bool)
    return observations, "rounds"
