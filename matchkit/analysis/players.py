"""One player over time: a row per match they played, and a summary of them.

Both functions take MatchFrames, several MatchFrames (say one per month), or an archive
(:func:`matchkit.archive.open`: its tables are lazy Dask DataFrames), with one implementation:
the player's rows are selected first, by filters that pandas and Dask read alike; a Dask
selection is computed (it is one player's matches: small); from there on one pandas path.

The names a player used come from the snapshots of the player the data holds (decision 17: a
player's attributes as of a match). One MatchFrames keeps one snapshot per player, that of
their latest match, so it shows the current name only; several MatchFrames (one per month, say)
keep one each, and an archive keeps one per sync batch (``player_snapshots``): so renames show
to the precision of the snapshots kept, never guessed.

Example:
    >>> history = player_history(frames, player_id, names=sample_names())  # doctest: +SKIP
    >>> summary = player_summary(frames, player_id)  # doctest: +SKIP
    >>> summary.win_rate, summary.ci_low, summary.ci_high  # doctest: +SKIP
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import pandas as pd

from matchkit.analysis._common import wilson_columns
from matchkit.analysis._engine import collect, collect_rows
from matchkit.analysis.inputs import TableSource, is_archive
from matchkit.errors import InvalidArgumentError
from matchkit.model.frames import MatchFrames
from matchkit.names import Names, with_names

__all__ = ["PlayerSummary", "player_history", "player_summary"]

_TABLES = ("matches", "rosters", "participants", "players")
#: Match columns a history row carries, where the data has them.
_MATCH_COLUMNS = (
    "created_at",
    "server_type",
    "game_mode",
    "ranking_type",
    "patch_version",
    "duration",
    "is_royale",
)
#: The columns of an archive's matches and rosters a history reads.
_MATCH_READ = ("match_id", *_MATCH_COLUMNS)
_ROSTER_READ = ("roster_id", "match_id", "side", "won")
#: Participant columns that are not the participant's stats (``month``: an archive's partition).
_NOT_STATS = frozenset(
    {
        "participant_id",
        "match_id",
        "roster_id",
        "player_id",
        "shard_id",
        "is_registered",
        "kind",
        "side",
        "user_id",
        "actor",
        "month",
    }
)


@dataclass(frozen=True)
class _Selection:
    """One player's rows of the data, in pandas."""

    participants: pd.DataFrame
    rosters: pd.DataFrame
    matches: pd.DataFrame
    snapshots: pd.DataFrame  # the player's snapshots, with ``seen_at`` (their match's time)


def _checked_sources(data: object) -> list[TableSource]:
    """``data`` as a list of sources: MatchFrames, each of a list of them, or an archive."""
    given = list(data) if isinstance(data, list | tuple) else [data]
    if not given:
        raise InvalidArgumentError("data is an empty list; pass MatchFrames", parameter="data")
    sources: list[TableSource] = []
    for item in given:
        if not (isinstance(item, MatchFrames) or is_archive(item)):
            raise InvalidArgumentError(
                f"data must be MatchFrames, a list of them, or an archive "
                f"(matchkit.archive.open), not {type(item).__name__}",
                parameter="data",
            )
        sources.append(item)
    return sources


def _checked_player_id(player_id: object) -> str:
    if not isinstance(player_id, str) or not player_id:
        raise InvalidArgumentError(
            f"player_id={player_id!r} must be a player id (a non-empty string); find it by name "
            "with client.players(names=[...])",
            parameter="player_id",
        )
    return player_id


def _select(data: Any, player_id: str) -> _Selection:
    """The player's participants, their rosters and matches, and their snapshots."""
    parts: dict[str, list[pd.DataFrame]] = {name: [] for name in _TABLES}
    for source in _checked_sources(data):
        rows = getattr(source, "rows", None)  # an archive's: each file read through a filter
        if rows is not None:
            every_snapshot = True  # its players table holds every snapshot
            participants = rows("participants", "player_id", [player_id])
            # Each partition's matches and rosters are chosen by the participants of the same
            # partition, in one pass (a match's rows lie in its partition in every table).
            match_ids = participants["match_id"]
            mine, found, their_rosters, kept = collect_rows(
                participants,
                rows("matches", "match_id", match_ids, _present(source.matches, _MATCH_READ)),
                rows("rosters", "match_id", match_ids, _present(source.rosters, _ROSTER_READ)),
                rows("players", "player_id", [player_id]),
            )
        else:
            snapshots = getattr(source, "player_snapshots", None)  # a lazy archive's
            every_snapshot = snapshots is not None
            participants = source.participants
            (mine,) = collect(participants[participants["player_id"] == player_id])
            match_ids = sorted(set(mine["match_id"].dropna().astype(str)))
            rosters, matches = source.rosters, source.matches
            players = source.players if snapshots is None else snapshots
            found, their_rosters, kept = collect(
                matches[matches["match_id"].isin(match_ids)],
                rosters[rosters["match_id"].isin(match_ids)],
                players[players["player_id"] == player_id],
            )
        if every_snapshot:  # an archive: every snapshot, with the match it came with
            kept = kept.assign(seen_at=kept["match_created_at"])
        else:  # the snapshot of the player's latest match here (decision 17)
            kept = kept.assign(seen_at=found["created_at"].max() if len(found) else pd.NaT)
        parts["participants"].append(mine)
        parts["rosters"].append(their_rosters)
        parts["matches"].append(found)
        parts["players"].append(kept)

    def joined(name: str, key: str) -> pd.DataFrame:
        table = pd.concat([_plain(part) for part in parts[name]], ignore_index=True)
        return table.drop_duplicates(key, keep="last").reset_index(drop=True)

    snapshots = pd.concat([_plain(part) for part in parts["players"]], ignore_index=True)
    return _Selection(
        participants=joined("participants", "participant_id"),
        rosters=joined("rosters", "roster_id"),
        matches=joined("matches", "match_id"),
        snapshots=snapshots,
    )


def _present(table: Any, columns: Sequence[str]) -> list[str]:
    """Those of ``columns`` that ``table`` has (an archive reads only the columns a history
    uses: the most active player's matches are in every row group)."""
    return [column for column in columns if column in table.columns]


def _plain(table: pd.DataFrame) -> pd.DataFrame:
    """Text as ``string`` whatever it came as (a category in MatchFrames, text in an archive),
    so that every input gives the same result."""
    table = table.reset_index(drop=True)
    changed = {
        column: table[column].astype("string") for column in table if _is_text(table[column])
    }
    return table.assign(**changed) if changed else table


def _is_text(column: pd.Series) -> bool:
    if isinstance(column.dtype, pd.CategoricalDtype):
        values = column.cat.categories
    elif column.dtype == object:
        values = column.dropna()
    else:
        return False
    return all(isinstance(value, str) for value in values)


def player_history(
    data: TableSource | Sequence[MatchFrames],
    player_id: str,
    *,
    names: Names | Mapping[str, Any] | None = None,
) -> pd.DataFrame:
    """A row per match the player played, oldest first.

    Args:
        data: MatchFrames, a list of MatchFrames, or an archive (:func:`matchkit.archive.open`).
        player_id: the player's id (:meth:`matchkit.Client.players` finds it by name).
        names: display names (:mod:`matchkit.names`): each named id column (``actor``, the
            cosmetics, ``game_mode``) gives its place to its name (``character``,
            ``mount_name``, ...) and moves to the end; None: no names, each id is its own name
            (as text).

    Returns:
        Columns: the match's ``created_at``, ``server_type`` (or ``game_mode``),
        ``ranking_type``, ``patch_version``, ``duration`` and ``is_royale`` where the data has
        them, ``character``, ``side``, ``won`` (the roster's result; missing when the match
        does not say), then the participant's stats (kills, deaths, score, cosmetics by name,
        ...) where present; last the ids: the named id columns (``actor``, ...) and
        ``match_id``. Empty, with these columns, when the player played no
        match in ``data``.

    Raises:
        InvalidArgumentError: ``data`` or ``player_id`` is not valid.
    """
    player_id = _checked_player_id(player_id)
    return _history(_select(data, player_id), names)


def _history(selection: _Selection, names: Names | Mapping[str, Any] | None) -> pd.DataFrame:
    mine = selection.participants
    rosters = selection.rosters.set_index("roster_id")
    matches = selection.matches.set_index("match_id")
    match_columns = [column for column in _MATCH_COLUMNS if column in matches.columns]
    stats = [column for column in mine.columns if column not in _NOT_STATS]
    table = pd.DataFrame({"match_id": mine["match_id"].astype("string")})
    for column in match_columns:
        table[column] = matches[column].reindex(mine["match_id"]).to_numpy()
    table["actor"] = mine["actor"].astype("string")
    roster_side = pd.array(rosters["side"].reindex(mine["roster_id"]), dtype="Int64")
    table["side"] = pd.Series(roster_side).fillna(pd.Series(pd.array(mine["side"], "Int64")))
    table["won"] = pd.array(rosters["won"].reindex(mine["roster_id"]), dtype="boolean")
    for column in stats:
        table[column] = mine[column].array
    for column in match_columns:
        table[column] = table[column].astype(matches[column].dtype)
    if "created_at" in table.columns:
        table = table.sort_values(["created_at", "match_id"], kind="stable")
    table = table.reset_index(drop=True)
    table = with_names(table, names, ids="last")
    return table[[*(c for c in table.columns if c != "match_id"), "match_id"]]


@dataclass(frozen=True)
class PlayerSummary:
    """What :func:`player_summary` found about one player.

    Attributes:
        player_id: the player.
        name: the name of their latest snapshot (``None`` when the data holds none).
        matches: matches played.
        decided: matches whose result is known (the rate's denominator).
        wins: matches won.
        win_rate, ci_low, ci_high: the win rate and its Wilson interval (NaN when undecided).
        confidence: the interval's confidence level.
        first_seen, last_seen: the times of their first and last match (NaT when none).
        characters: one row per character: ``character``, ``matches``, ``share`` (of their
            matches), ``wins``, ``win_rate``, and ``actor`` last; most played first.
        names: one row per name used: ``name``, ``first_seen``, ``last_seen`` (the times of the
            matches whose snapshots show it), ``snapshots``; oldest first.
    """

    player_id: str
    name: str | None
    matches: int
    decided: int
    wins: int
    win_rate: float
    ci_low: float
    ci_high: float
    confidence: float
    first_seen: pd.Timestamp
    last_seen: pd.Timestamp
    characters: pd.DataFrame
    names: pd.DataFrame

    @property
    def renamed(self) -> bool:
        """Whether the data shows the player under more than one name."""
        return len(self.names) > 1


def player_summary(
    data: TableSource | Sequence[MatchFrames],
    player_id: str,
    *,
    confidence: float = 0.95,
    names: Names | Mapping[str, Any] | None = None,
) -> PlayerSummary:
    """Matches, win rate with its interval, characters, first and last seen, names used.

    Args:
        data: MatchFrames, a list of MatchFrames, or an archive (:func:`matchkit.archive.open`).
        player_id: the player's id.
        confidence: the interval's confidence level.
        names: display names (:mod:`matchkit.names`) for the characters; None: no names,
            each id is its own name (as text).

    Returns:
        A :class:`PlayerSummary`. The names come from the snapshots the data holds (see the
        module's notes): one MatchFrames shows the latest name only.

    Raises:
        InvalidArgumentError: ``data``, ``player_id`` or ``confidence`` is not valid.
    """
    player_id = _checked_player_id(player_id)
    selection = _select(data, player_id)
    history = _history(selection, None)
    decided = history["won"].notna()
    wins = int(history.loc[decided, "won"].astype(bool).sum())
    if decided.any():
        trials = pd.Series([int(decided.sum())])
        rate = wilson_columns(pd.Series([wins]), trials, confidence=confidence)
    else:  # no decided match: no rate (the confidence is still checked)
        wilson_columns(
            pd.Series([], dtype="int64"), pd.Series([], dtype="int64"), confidence=confidence
        )
        rate = {key: pd.Series([math.nan]) for key in ("win_rate", "ci_low", "ci_high")}
    times = (
        history["created_at"] if "created_at" in history.columns else pd.Series([], dtype="object")
    )
    names_used = _names_used(selection.snapshots)
    return PlayerSummary(
        player_id=player_id,
        name=None if names_used.empty else str(names_used["name"].iloc[-1]),
        matches=len(history),
        decided=int(decided.sum()),
        wins=wins,
        win_rate=float(rate["win_rate"].iloc[0]),
        ci_low=float(rate["ci_low"].iloc[0]),
        ci_high=float(rate["ci_high"].iloc[0]),
        confidence=confidence,
        first_seen=times.min() if len(times) else pd.NaT,
        last_seen=times.max() if len(times) else pd.NaT,
        characters=_characters(history, names),
        names=names_used,
    )


def _characters(history: pd.DataFrame, names: Names | Mapping[str, Any] | None) -> pd.DataFrame:
    won = history["won"].astype("Float64")
    table = (
        pd.DataFrame({"actor": history["actor"], "won": won})
        .groupby("actor", sort=False, dropna=False)
        .agg(matches=("won", "size"), wins=("won", "sum"), decided=("won", "count"))
        .reset_index()
    )
    table["matches"] = table["matches"].astype("int64")
    table["share"] = table["matches"] / max(len(history), 1)
    table["wins"] = table["wins"].astype("int64")
    table["win_rate"] = (table["wins"] / table["decided"].where(table["decided"] > 0)).astype(
        "float64"
    )
    table = table.drop(columns="decided")[["actor", "matches", "share", "wins", "win_rate"]]
    table = table.sort_values(["matches", "actor"], ascending=[False, True], kind="stable")
    table = table.reset_index(drop=True)
    return with_names(table, names, ids="last")


def _names_used(snapshots: pd.DataFrame) -> pd.DataFrame:
    columns = ["name", "first_seen", "last_seen", "snapshots"]
    if snapshots.empty or "name" not in snapshots.columns:
        return pd.DataFrame({column: pd.Series(dtype="object") for column in columns})
    seen = snapshots.dropna(subset=["name"]).sort_values("seen_at", kind="stable")
    # A name used, then another, then the first again counts as two spells of the first.
    text = seen["name"].astype(object)
    spell = (text != text.shift()).astype("int64").cumsum()
    table = (
        seen.assign(spell=spell)
        .groupby("spell", sort=True)
        .agg(
            name=("name", "first"),
            first_seen=("seen_at", "min"),
            last_seen=("seen_at", "max"),
            snapshots=("name", "size"),
        )
        .reset_index(drop=True)
    )
    table["name"] = table["name"].astype("string")
    table["snapshots"] = table["snapshots"].astype("int64")
    return table[columns]
