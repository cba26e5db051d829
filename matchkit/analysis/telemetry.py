"""Analyses of match telemetry: rates per minute, battlerite picks and wins, queue times, the
round a match is decided in.

Pandas on :class:`matchkit.telemetry.TelemetryFrames`, or on an archive's telemetry (the columns
each function reads are computed by Dask, then the same pandas code runs); nothing here touches
HTTP. Every function returns a tidy DataFrame with counts (``n``, ``players``, ``matches``)
beside each estimate and its interval; what was left out, and why, is in
``result.attrs["excluded"]``.
Characters and battlerites are the wire's integer ids; ``character_name`` and
``battlerite_name`` come from ``names=`` (:class:`matchkit.names.Names`, e.g.
``client.names()``, or a mapping of actor id -> name; default: the sample set's
catalogue), and an id without a name is shown as the id.

Example:
    >>> per_minute_rates(telemetry, by=["character"])  # doctest: +SKIP
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any, cast

import numpy as np
import pandas as pd
from scipy import stats as scipy_stats

from matchkit.analysis._common import group_keys, wilson_columns
from matchkit.analysis._engine import collect, is_lazy
from matchkit.errors import InvalidArgumentError

if TYPE_CHECKING:
    from matchkit.names import Names
    from matchkit.telemetry.frames import TelemetryFrames

__all__ = [
    "RATE_STATS",
    "battlerite_labels",
    "battlerite_win_rates",
    "character_labels",
    "deciding_rounds",
    "match_deciding_rounds",
    "per_minute_rates",
    "queue_times",
]

RATE_STATS = ("damage_done", "healing_done", "disables_done")
"""The per-round stats :func:`per_minute_rates` reports by default."""

SEATS = ["match_id", "user_id", "character", "team"]
"""The columns of ``reserved_users`` that seat a player."""


def _catalogue(names: Names | Mapping[str, Any] | None) -> Names:
    """``names`` as Names: the sample set's catalogue when None, a flat mapping as characters."""
    from matchkit.names import Names, as_names, sample_names

    if names is None:
        return sample_names()
    if not isinstance(names, Names | Mapping):
        raise InvalidArgumentError(
            "names must be matchkit.names.Names or a mapping of actor id to name, not "
            f"{type(names).__name__}",
            parameter="names",
        )
    return as_names(names)


def character_labels(
    characters: pd.Series, names: Names | Mapping[str, Any] | None = None
) -> pd.Series:
    """Each character id's display name (``names``: :class:`matchkit.names.Names` or actor id
    -> name; default: the sample set's catalogue); an id without a name is shown as the id."""
    return _catalogue(names).label("character", characters)


def battlerite_labels(
    battlerites: pd.Series, names: Names | Mapping[str, Any] | None = None
) -> pd.Series:
    """Each battlerite id's display name (``names``: :class:`matchkit.names.Names`, kind
    ``battlerite``; default: the sample set's catalogue); an id without a name stays the id."""
    return _catalogue(names).label("battlerite", battlerites)


def _telemetry(value: object, columns: Mapping[str, Sequence[str] | None]) -> TelemetryFrames:
    """``value`` when it is TelemetryFrames; for an archive (or its ``telemetry``), the
    ``columns`` of its tables (None: every column), computed together, in pandas.

    An archive's telemetry tables are lazy Dask DataFrames. The functions here read a few of
    their columns and then run as on TelemetryFrames, so that the results are the same; their
    medians and per-group loops need the rows, so the columns read are computed whole.
    """
    from matchkit.telemetry.frames import TelemetryFrames

    if isinstance(value, TelemetryFrames):
        return value
    tables = getattr(value, "telemetry", value)
    if tables is not None and all(is_lazy(getattr(tables, name, None)) for name in columns):
        lazy = []
        for name, wanted in columns.items():
            table = getattr(tables, name)
            if wanted is not None:
                table = table[[column for column in wanted if column in table.columns]]
            lazy.append(table)
        computed = collect(*lazy)
        return cast(
            "TelemetryFrames",
            SimpleNamespace(
                **{
                    name: table.reset_index(drop=True)
                    for name, table in zip(columns, computed, strict=True)
                }
            ),
        )
    raise InvalidArgumentError(
        "telemetry must be TelemetryFrames (from Client.telemetry or to_telemetry_frames) or an "
        f"archive with telemetry (matchkit.archive.open), not {type(value).__name__}",
        parameter="telemetry",
    )


def _mean_interval(values: pd.Series, confidence: float) -> tuple[float, float, float]:
    """Mean and its Student t interval."""
    n = len(values)
    mean = float(values.mean()) if n else float("nan")
    if n < 2:
        return mean, float("nan"), float("nan")
    half = float(scipy_stats.t.ppf((1 + confidence) / 2, n - 1)) * float(values.std(ddof=1))
    half /= np.sqrt(n)
    return mean, mean - half, mean + half


def _check_confidence(confidence: object) -> float:
    if (
        isinstance(confidence, bool)
        or not isinstance(confidence, int | float)
        or not 0 < confidence < 1
    ):
        raise InvalidArgumentError(
            f"confidence={confidence!r} must lie strictly between 0 and 1 (0.95 for 95%)",
            parameter="confidence",
        )
    return float(confidence)


def _player_characters(telemetry: TelemetryFrames) -> pd.DataFrame:
    """(match_id, user_id) -> character and team (side), from the reserved seats."""
    seats = telemetry.reserved_users[["match_id", "user_id", "character", "team"]]
    return seats.drop_duplicates(["match_id", "user_id"], keep=False)


def per_minute_rates(
    telemetry: TelemetryFrames,
    by: str | Sequence[str] | None = ("character", "round"),
    *,
    stats: Sequence[str] = RATE_STATS,
    names: Names | Mapping[str, Any] | None = None,
    confidence: float = 0.95,
) -> pd.DataFrame:
    """Per-round stats per minute alive (damage, healing, disables), per group, with intervals.

    Each player-round gives one rate, ``stat / time_alive * 60``; a group's estimate is the mean
    of its rates with a Student t interval. Rounds a player was never alive in, and players
    without a seat (bots: no MatchReservedUser), are left out (counted in ``attrs``).

    Args:
        telemetry: the telemetry tables.
        by: grouping keys: ``"character"``, ``"round"`` and columns of ``round_player_stats``.
        stats: columns of ``round_player_stats`` to report.
        names: Names, or actor id -> character name (default: the sample catalogue).
        confidence: the interval's confidence level.

    Returns:
        One row per group and stat: the keys (``character_name`` in the place of
        ``character``), ``stat``, ``per_minute``, ``ci_low``, ``ci_high``, ``n``
        (player-rounds), and ``character`` (the id) last when grouped by character.
    """
    telemetry = _telemetry(telemetry, {"round_player_stats": None, "reserved_users": SEATS})
    confidence = _check_confidence(confidence)
    keys = group_keys(by)
    rows = telemetry.round_player_stats.merge(
        _player_characters(telemetry), on=["match_id", "user_id"], how="left"
    )
    unknown = [key for key in [*keys, *stats] if key not in rows.columns]
    if unknown:
        raise InvalidArgumentError(
            f"unknown column(s) {unknown}: use columns of round_player_stats or 'character'",
            parameter="by" if set(unknown) & set(keys) else "stats",
        )
    unseated = rows["character"].isna()
    alive = rows["time_alive"].fillna(0) > 0
    used = rows[(alive & ~unseated).to_numpy()]
    minutes = used["time_alive"].astype("float64") / 60
    results = []
    groups = used.groupby(keys, observed=True, sort=True) if keys else [((), used)]
    for group, part in groups:
        group = group if isinstance(group, tuple) else (group,)
        for stat in stats:
            rates = (part[stat].astype("float64") / minutes.loc[part.index]).dropna()
            mean, low, high = _mean_interval(rates, confidence)
            results.append((*group, stat, mean, low, high, len(rates)))
    table = pd.DataFrame(
        results, columns=[*keys, "stat", "per_minute", "ci_low", "ci_high", "n"]
    ).astype({"n": "int64"})
    if "character" in keys:  # its name where it was, the id last
        position = keys.index("character")
        table.insert(position, "character_name", character_labels(table["character"], names))
        table = table[[*(c for c in table.columns if c != "character"), "character"]]
    table.attrs["excluded"] = {
        "player-rounds not alive (time_alive 0)": int((~alive).sum()),
        "player-rounds without a seat (bots)": int((alive & unseated).sum()),
    }
    return table


def _match_winners(telemetry: TelemetryFrames) -> pd.Series:
    """match_id -> the winning side (1 or 2) from MatchFinishedEvent; draws are absent."""
    finishes = telemetry.match_finishes.drop_duplicates("match_id")
    one = finishes["team_one_score"].astype("float64")
    two = finishes["team_two_score"].astype("float64")
    winner = pd.Series(np.where(one > two, 1, np.where(two > one, 2, 0)), index=finishes.index)
    decided = (winner > 0) & one.notna() & two.notna()
    return pd.Series(winner[decided].to_numpy(), index=finishes.loc[decided, "match_id"].array)


def battlerite_win_rates(
    telemetry: TelemetryFrames,
    *,
    names: Names | Mapping[str, Any] | None = None,
    confidence: float = 0.95,
) -> pd.DataFrame:
    """Each battlerite's pick rate among its character's players, and their win rates.

    A player is one seat in one match (who won: the side with the higher MatchFinishedEvent
    score). Matches without a winner (draws, Royale) are left out.

    Args:
        telemetry: the telemetry tables.
        names: Names (kinds ``character`` and ``battlerite``), or actor id -> character name;
            default: the sample set's catalogue.
        confidence: the intervals' confidence level.

    Returns:
        One row per character and battlerite: ``character_name``, ``battlerite_name``,
        ``players`` (of the character), ``picks``,
        ``pick_rate``, ``pick_ci_low``, ``pick_ci_high``, ``wins`` (of those who picked it),
        ``win_rate``, ``ci_low``, ``ci_high``, and the same for the players who did not pick it:
        ``win_rate_without``, ``without_ci_low``, ``without_ci_high``, then the ids:
        ``character``, ``battlerite_type``. Wilson intervals.
    """
    telemetry = _telemetry(
        telemetry,
        {
            "match_finishes": ["match_id", "team_one_score", "team_two_score"],
            "battlerite_picks": ["match_id", "user_id", "character", "battlerite_type"],
            "reserved_users": SEATS,
        },
    )
    confidence = _check_confidence(confidence)
    winners = _match_winners(telemetry)
    picks = telemetry.battlerite_picks
    players = picks[["match_id", "user_id", "character"]].drop_duplicates(["match_id", "user_id"])
    seats = _player_characters(telemetry)[["match_id", "user_id", "team"]]
    players = players.merge(seats, on=["match_id", "user_id"], how="inner")
    winner = players["match_id"].map(winners)
    decided = winner.notna().to_numpy()
    excluded = int((~decided).sum())
    players = players[decided].assign(won=(players["team"] == winner)[decided].astype(bool))
    chosen = picks[["match_id", "user_id", "battlerite_type"]].drop_duplicates()
    chosen = chosen.merge(players, on=["match_id", "user_id"], how="inner")
    per_character = players.groupby("character").agg(
        players=("won", "size"), all_wins=("won", "sum")
    )
    table = (
        chosen.groupby(["character", "battlerite_type"])
        .agg(picks=("won", "size"), wins=("won", "sum"))
        .reset_index()
        .merge(per_character.reset_index(), on="character")
    )
    picked = wilson_columns(table["picks"], table["players"], confidence=confidence)
    won = wilson_columns(table["wins"], table["picks"], confidence=confidence)
    not_picked = table["players"] - table["picks"]
    without = wilson_columns(
        table["all_wins"] - table["wins"], not_picked.clip(lower=1), confidence=confidence
    )
    empty = not_picked.eq(0).to_numpy()
    catalogue = _catalogue(names)
    result = pd.DataFrame(
        {
            "character_name": character_labels(table["character"], catalogue),
            "battlerite_name": battlerite_labels(table["battlerite_type"], catalogue),
            "players": table["players"].astype("int64"),
            "picks": table["picks"].astype("int64"),
            "pick_rate": picked["win_rate"],
            "pick_ci_low": picked["ci_low"],
            "pick_ci_high": picked["ci_high"],
            "wins": table["wins"].astype("int64"),
            "win_rate": won["win_rate"],
            "ci_low": won["ci_low"],
            "ci_high": won["ci_high"],
            "win_rate_without": without["win_rate"].mask(empty),
            "without_ci_low": without["ci_low"].mask(empty),
            "without_ci_high": without["ci_high"].mask(empty),
            "character": table["character"],
            "battlerite_type": table["battlerite_type"],
        }
    )
    result.attrs["excluded"] = {"players in matches without a winner": excluded}
    return result.sort_values(["character", "battlerite_type"]).reset_index(drop=True)


def queue_times(
    telemetry: TelemetryFrames,
    by: str | Sequence[str] | None = ("match_region", "league"),
    *,
    confidence: float = 0.95,
) -> pd.DataFrame:
    """Seconds in queue (QueueEvent ``timeInQueue``) per group: mean with a t interval, median.

    Args:
        telemetry: the telemetry tables.
        by: columns of ``queue_events`` (``"match_region"``, ``"league"``, ``"preferred_region"``,
            ...) or ``"start_hour"``: the UTC hour the match started (MatchStart).
        confidence: the interval's confidence level.

    Returns:
        One row per group: the keys, ``n`` (queued players), ``mean_seconds``, ``ci_low``,
        ``ci_high``, ``median_seconds``.
    """
    keys = group_keys(by)
    tables: dict[str, list[str] | None] = {
        "queue_events": ["match_id", "time_in_queue", *(key for key in keys if key != "start_hour")]
    }
    if "start_hour" in keys:
        tables["match_starts"] = ["match_id", "time"]
    telemetry = _telemetry(telemetry, tables)
    confidence = _check_confidence(confidence)
    queue = telemetry.queue_events
    if "start_hour" in keys:
        starts = telemetry.match_starts.drop_duplicates("match_id").set_index("match_id")["time"]
        queue = queue.assign(start_hour=queue["match_id"].map(starts).dt.hour.astype("Int64"))
    unknown = [key for key in keys if key not in queue.columns]
    if unknown:
        raise InvalidArgumentError(
            f"cannot group queue times by {unknown}: use columns of queue_events or 'start_hour'",
            parameter="by",
        )
    timed = queue[queue["time_in_queue"].notna().to_numpy()]
    results = []
    groups = timed.groupby(keys, observed=True, sort=True) if keys else [((), timed)]
    for group, part in groups:
        group = group if isinstance(group, tuple) else (group,)
        seconds = part["time_in_queue"].astype("float64")
        mean, low, high = _mean_interval(seconds, confidence)
        results.append((*group, len(seconds), mean, low, high, float(seconds.median())))
    table = pd.DataFrame(
        results, columns=[*keys, "n", "mean_seconds", "ci_low", "ci_high", "median_seconds"]
    ).astype({"n": "int64"})
    table.attrs["excluded"] = {"queue events without timeInQueue": len(queue) - len(timed)}
    return table


def match_deciding_rounds(telemetry: TelemetryFrames) -> pd.DataFrame:
    """The round each match is decided in: from it on, the winner leads in rounds won.

    Returns:
        One row per match with rounds: ``match_id``, ``rounds`` (played), ``winning_team``,
        ``decided_round`` (0-based: the first round after which the eventual winner led in
        rounds won and kept the lead to the end). Matches whose rounds end level are absent.
    """
    telemetry = _telemetry(telemetry, {"rounds": ["match_id", "round", "winning_team"]})
    rounds = telemetry.rounds.sort_values(["match_id", "round"], kind="stable")
    rows: list[tuple[Any, ...]] = []
    level = 0
    for match_id, part in rounds.groupby("match_id", sort=False):
        winners = part["winning_team"].tolist()
        ones = np.cumsum([w == 1 for w in winners])
        twos = np.cumsum([w == 2 for w in winners])
        if ones[-1] == twos[-1]:
            level += 1
            continue
        lead = (ones - twos) if ones[-1] > twos[-1] else (twos - ones)
        trailing = np.flatnonzero(lead <= 0)
        decided = int(trailing[-1] + 1) if len(trailing) else 0
        rows.append((match_id, len(winners), 1 if ones[-1] > twos[-1] else 2, decided))
    table = pd.DataFrame(rows, columns=["match_id", "rounds", "winning_team", "decided_round"])
    table = table.astype({"rounds": "int64", "winning_team": "int64", "decided_round": "int64"})
    table.attrs["excluded"] = {"matches whose rounds end level": level}
    return table


def deciding_rounds(telemetry: TelemetryFrames, *, confidence: float = 0.95) -> pd.DataFrame:
    """How often a match is decided in each round, by the number of rounds played.

    Returns:
        One row per (``rounds``, ``decided_round``): ``matches``, ``total`` (matches of that
        many rounds), ``share`` with a Wilson interval ``ci_low``, ``ci_high``.
    """
    confidence = _check_confidence(confidence)
    per_match = match_deciding_rounds(telemetry)
    counts = per_match.groupby(["rounds", "decided_round"]).size().rename("matches").reset_index()
    counts["total"] = counts.groupby("rounds")["matches"].transform("sum")
    interval = wilson_columns(counts["matches"], counts["total"], confidence=confidence)
    counts["share"] = interval["win_rate"]
    counts["ci_low"] = interval["ci_low"]
    counts["ci_high"] = interval["ci_high"]
    counts.attrs["excluded"] = per_match.attrs["excluded"]
    return counts.astype({"matches": "int64", "total": "int64"})
