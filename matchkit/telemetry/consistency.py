"""Does telemetry agree with its matches? The relations of ``docs/telemetry-format.md``, checked.

:func:`consistency_problems` compares TelemetryFrames with the MatchFrames of the same matches
and lists every disagreement: summed per-round player stats against participant stats, rounds,
scores, match length, characters, cosmetics, deaths (per player, and per round against the
round's stats), the start time, ranked teams' updates against their rosters, and five
battlerite picks per player. An empty list means they agree.

Example:
    >>> consistency_problems(frames, telemetry)  # doctest: +SKIP
    []
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pandas as pd

from matchkit.model.schema import COSMETIC_KINDS
from matchkit.telemetry.schema import PLAYER_STATS

if TYPE_CHECKING:
    from matchkit.model.frames import MatchFrames
    from matchkit.telemetry.frames import TelemetryFrames

__all__ = ["PICKS_PER_PLAYER", "consistency_problems", "telemetry_user_ids"]

_TEAM_STATS = (
    "prev_league",
    "league",
    "prev_division",
    "division",
    "prev_division_rating",
    "division_rating",
    "prev_wins",
    "wins",
    "prev_losses",
    "losses",
    "rounds_won",
    "rounds_lost",
)
PICKS_PER_PLAYER = 5


def telemetry_user_ids(participants: pd.DataFrame) -> pd.Series:
    """The id telemetry names each participant by: its ``user_id`` (stats.userID), else its
    ``player_id`` (bots share ``"0"``)."""
    user = participants["user_id"].astype("string")
    return user.where(user.str.len() > 0).fillna(participants["player_id"].astype("string"))


def consistency_problems(frames: MatchFrames, telemetry: TelemetryFrames) -> list[str]:
    """Every way the telemetry disagrees with its matches (empty: they agree).

    Only matches present in both are compared; Royale matches only on what their telemetry
    carries (deaths, characters, cosmetics, start time).

    Raises:
        InvalidArgumentError: ``frames`` is not MatchFrames or ``telemetry`` not TelemetryFrames.
    """
    from matchkit.model.frames import MatchFrames
    from matchkit.telemetry.frames import TelemetryFrames

    where = "consistency_problems"
    frames = MatchFrames.checked(frames, parameter="frames", where=where)
    telemetry = TelemetryFrames.checked(telemetry, parameter="telemetry", where=where)
    ids = set(telemetry.match_ids) & set(frames.matches["match_id"])
    participants = _only(frames.participants, ids)
    # Telemetry names players by their telemetry id, under the column name of the match side.
    participants = participants.assign(player_id=telemetry_user_ids(participants))
    is_human = participants["kind"].astype("string").ne("bot").fillna(True).to_numpy()
    humans = participants[is_human]
    bots = participants.loc[~is_human, ["match_id", "player_id"]]
    unnamed = frozenset(participants.loc[participants["player_id"].isna().to_numpy(), "match_id"])
    problems: list[str] = []
    problems += _player_sums(participants, _only(telemetry.round_player_stats, ids), unnamed)
    problems += _rounds(_only(frames.rounds, ids), _only(telemetry.rounds, ids))
    problems += _finish(frames, _only(telemetry.match_finishes, ids), ids)
    problems += _reserved(humans, _without(_only(telemetry.reserved_users, ids), bots), unnamed)
    problems += _deaths(participants, telemetry, ids, unnamed)
    problems += _starts(_only(frames.matches, ids), _only(telemetry.match_starts, ids))
    problems += _teams(_only(frames.rosters, ids), _only(telemetry.team_updates, ids))
    problems += _picks(humans, _only(telemetry.battlerite_picks, ids), telemetry, ids)
    return problems


def _only(frame: pd.DataFrame, ids: set[str]) -> pd.DataFrame:
    return frame[frame["match_id"].isin(ids).to_numpy()]


def _without(reserved: pd.DataFrame, bots: pd.DataFrame) -> pd.DataFrame:
    """The reservations of humans: bots share one id (``"0"``) and carry no cosmetics, so their
    reservations (every participant has one) cannot be told apart or compared."""
    if bots.empty or reserved.empty:
        return reserved
    keys = pd.MultiIndex.from_frame(bots.astype("string"))
    rows = pd.MultiIndex.from_frame(reserved[["match_id", "user_id"]].astype("string"))
    return reserved[~rows.isin(keys)]


def _differences(
    left: pd.DataFrame,
    right: pd.DataFrame,
    keys: list[str],
    pairs: dict[str, str],
    what: str,
    *,
    names: tuple[str, str] = ("the match", "the telemetry"),
    unnamed: frozenset[str] = frozenset(),
) -> list[str]:
    """Rows whose ``left[column] != right[pairs[column]]`` after joining on ``keys``, and rows
    only one side has."""
    left = left.dropna(subset=keys)  # participants telemetry cannot name (see ``unnamed``)
    joined = left.merge(
        right, on=keys, how="outer", suffixes=("", "_telemetry"), indicator="found_in"
    )
    problems = []
    alone = joined[joined["found_in"] != "both"]
    # Rows only the telemetry has, in a match with participants it cannot be linked to.
    excused = (alone["found_in"] == "right_only") & alone["match_id"].isin(unnamed)
    alone = alone[~excused.to_numpy()]
    for row in alone.itertuples(index=False):
        side = names[0] if row.found_in == "left_only" else names[1]
        where = ", ".join(f"{key}={getattr(row, key)}" for key in keys)
        problems.append(f"{what}: only {side} has {where}")
    both = joined[joined["found_in"] == "both"]
    for column, other in pairs.items():
        other = other if other != column else f"{column}_telemetry"
        if column not in both or other not in both:
            continue
        left_values = pd.to_numeric(both[column], errors="coerce").astype("Float64")
        right_values = pd.to_numeric(both[other], errors="coerce").astype("Float64")
        # A value the match does not carry cannot be checked; one the telemetry lacks differs.
        differ = (left_values.notna() & (left_values != right_values).fillna(True)).to_numpy()
        for row in both[differ].itertuples(index=False):
            where = ", ".join(f"{key}={getattr(row, key)}" for key in keys)
            problems.append(
                f"{what} ({where}): {column} is {getattr(row, column)} in {names[0]}, "
                f"{getattr(row, other)} in {names[1]}"
            )
    return problems


def _player_sums(
    participants: pd.DataFrame, stats: pd.DataFrame, unnamed: frozenset[str]
) -> list[str]:
    if stats.empty:
        return []
    columns = [name for name in PLAYER_STATS if name in participants]
    sums = (
        stats.groupby(["match_id", "user_id"], observed=True)[columns]
        .sum()
        .reset_index()
        .rename(columns={"user_id": "player_id"})
    )
    arena = participants[participants["match_id"].isin(set(stats["match_id"])).to_numpy()]
    grouped = arena.groupby(["match_id", "player_id"], observed=True)[columns]
    left = grouped.sum(min_count=1).reset_index()
    pairs = {c: c for c in columns}
    keys = ["match_id", "player_id"]
    return _differences(left, sums, keys, pairs, "summed player stats", unnamed=unnamed)


def _rounds(rounds: pd.DataFrame, finished: pd.DataFrame) -> list[str]:
    if finished.empty and rounds.empty:
        return []
    left = rounds[["match_id", "ordinal", "duration", "winning_team"]].rename(
        columns={"ordinal": "round"}
    )
    right = finished[["match_id", "round", "round_length", "winning_team"]]
    return _differences(
        left,
        right,
        ["match_id", "round"],
        {"duration": "round_length", "winning_team": "winning_team"},
        "rounds",
    )


def _finish(frames: MatchFrames, finishes: pd.DataFrame, ids: set[str]) -> list[str]:
    if finishes.empty:
        return []
    rosters = _only(frames.rosters, ids)
    scores = rosters.pivot_table(index="match_id", columns="side", values="score", aggfunc="sum")
    left = pd.DataFrame(
        {
            "match_id": scores.index,
            "team_one_score": scores.get(1, pd.Series(index=scores.index)).to_numpy(),
            "team_two_score": scores.get(2, pd.Series(index=scores.index)).to_numpy(),
        }
    ).merge(frames.matches[["match_id", "duration"]], on="match_id")
    left = left[left["match_id"].isin(set(finishes["match_id"]))]
    right = finishes[["match_id", "team_one_score", "team_two_score", "match_length"]]
    pairs = {
        "team_one_score": "team_one_score",
        "team_two_score": "team_two_score",
        "duration": "match_length",
    }
    return _differences(left, right, ["match_id"], pairs, "match finish")


def _reserved(
    participants: pd.DataFrame, reserved: pd.DataFrame, unnamed: frozenset[str]
) -> list[str]:
    if reserved.empty:
        return []
    left = participants[["match_id", "player_id", "actor", *COSMETIC_KINDS]]
    right = reserved[["match_id", "user_id", "character", *COSMETIC_KINDS]].rename(
        columns={"user_id": "player_id"}
    )
    pairs: dict[str, str] = {"actor": "character", **{c: c for c in COSMETIC_KINDS}}
    keys = ["match_id", "player_id"]
    return _differences(left, right, keys, pairs, "reserved user", unnamed=unnamed)


def _deaths(
    participants: pd.DataFrame, telemetry: TelemetryFrames, ids: set[str], unnamed: frozenset[str]
) -> list[str]:
    deaths = _only(telemetry.deaths, ids)
    counted = deaths.groupby(["match_id", "user_id"], observed=True).size()
    counted = counted.rename("deaths").reset_index().rename(columns={"user_id": "player_id"})
    with_files = participants["match_id"].isin(set(telemetry.files["match_id"]))
    keys = ["match_id", "player_id"]
    left = participants[with_files.to_numpy()].groupby(keys, observed=True)["deaths"]
    left = left.sum(min_count=1).reset_index()
    # Players whose deaths the match does not carry cannot be checked.
    unknown = pd.MultiIndex.from_frame(left.loc[left["deaths"].isna(), keys])
    counted = counted[~pd.MultiIndex.from_frame(counted[keys]).isin(unknown)]
    left = left[left["deaths"].notna()]
    # No DeathEvent for a player is zero deaths.
    zeros = left[keys].merge(counted, on=keys, how="left").fillna({"deaths": 0})
    extra = counted.merge(left[keys], on=keys, how="left", indicator="found")
    right = pd.concat([zeros, extra[extra["found"] == "left_only"][[*keys, "deaths"]]])
    problems = _differences(left, right, keys, {"deaths": "deaths"}, "deaths", unnamed=unnamed)
    stats = _only(telemetry.round_player_stats, ids)
    if not stats.empty:
        in_rounds = deaths.groupby(["match_id", "round", "user_id"], observed=True).size()
        in_rounds = in_rounds.rename("deaths").reset_index()
        keys = ["match_id", "round", "user_id"]
        expected = stats.groupby(keys, observed=True)["deaths"].sum().reset_index()
        expected = expected[expected["deaths"].fillna(0) > 0]
        problems += _differences(
            expected,
            in_rounds,
            ["match_id", "round", "user_id"],
            {"deaths": "deaths"},
            "deaths per round",
            names=("the round's player stats", "the death events"),
        )
    return problems


def _starts(matches: pd.DataFrame, starts: pd.DataFrame) -> list[str]:
    joined = matches[["match_id", "created_at"]].merge(starts[["match_id", "time"]], on="match_id")
    # createdAt is written to the second; MatchStart's time carries milliseconds.
    differ = joined[joined["created_at"] != joined["time"].dt.floor("s")]
    return [
        f"match start ({row.match_id}): created_at {row.created_at} but MatchStart at {row.time}"
        for row in differ.itertuples(index=False)
    ]


def _teams(rosters: pd.DataFrame, updates: pd.DataFrame) -> list[str]:
    if updates.empty:
        return []
    columns = [c for c in _TEAM_STATS if c in rosters and c in updates]
    left = rosters[rosters["team_id"].notna().to_numpy()][["match_id", "team_id", *columns]]
    left = left[left["match_id"].isin(set(updates["match_id"]))]
    right = updates[["match_id", "team_id", *columns]]
    # A roster entered without a team has no id to link its update to.
    unnamed = frozenset(rosters.loc[rosters["team_id"].isna().to_numpy(), "match_id"])
    pairs = {c: c for c in columns}
    return _differences(left, right, ["match_id", "team_id"], pairs, "team", unnamed=unnamed)


def _picks(
    participants: pd.DataFrame, picks: pd.DataFrame, telemetry: TelemetryFrames, ids: set[str]
) -> list[str]:
    arena = set(_only(telemetry.rounds, ids)["match_id"])
    if not arena:
        return []
    counted = picks.groupby(["match_id", "user_id"], observed=True).size().rename("picks")
    players = participants[participants["match_id"].isin(arena).to_numpy()]
    players = players.dropna(subset=["player_id"])
    problems = []
    for row in players[["match_id", "player_id"]].itertuples(index=False):
        found = int(counted.get((row.match_id, row.player_id), 0))
        if found != PICKS_PER_PLAYER:
            problems.append(
                f"battlerite picks ({row.match_id}, {row.player_id}): {found}, "
                f"not {PICKS_PER_PLAYER}"
            )
    return problems
