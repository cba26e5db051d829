"""TelemetryFrames: the tables of a set of telemetry files, and what analyses do with them.

Build one with :func:`matchkit.telemetry.to_telemetry_frames` (telemetry you have) or
:meth:`matchkit.Client.telemetry` (download); combine with :meth:`TelemetryFrames.concat`, store
with :meth:`TelemetryFrames.to_parquet`. ``docs/telemetry.md`` describes every table.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass

import pandas as pd

from matchkit.model.base import DeclaredFrames
from matchkit.model.combine import stack
from matchkit.model.schema import coerce_frame
from matchkit.telemetry.schema import TABLE_NAMES, TABLES

__all__ = ["TelemetryFrames", "coerce_table"]


@dataclass(frozen=True, eq=False, repr=False)
class TelemetryFrames(DeclaredFrames, schemas=TABLES, counted="files"):
    """The tables of a set of telemetry files, keyed by ``match_id``.

    Rows link to :class:`matchkit.model.frames.MatchFrames` by match (``match_id``), player
    (``user_id`` = ``participants.player_id``), round (``round`` = ``rounds.ordinal``), side
    (``team``, ``team_side``, ``winning_team`` = ``rosters.side``) and character (``character``
    = ``participants.actor``, here an integer).

    Attributes:
        files: one row per file (events, cursor span, time span).
        queue_events: one row per QueueEvent (a player's time in queue, league, ping).
        match_starts: MatchStart events.
        reserved_users: MatchReservedUser events (character, cosmetics, league per player).
        battlerite_picks: BattleritePickEvent (five per player in Arena matches).
        round_events: RoundEvent (abilities, pickups, mounts).
        deaths: DeathEvent, with the round inferred from cursor order.
        rounds: RoundFinishedEvent (one per round: length, winning team).
        user_round_spells: UserRoundSpell (per player, round, ability and score type).
        match_finishes: MatchFinishedEvent (scores, match length).
        team_updates: TeamUpdateEvent (ranked matches: rating changes per team).
        shutdowns: ServerShutdown.
        round_player_stats: one row per match, round and player (RoundFinishedEvent.playerStats).
        queue_region_samples: one row per region a queued player's client measured.
        other_events: events of types matchkit does not know, kept whole.
        problems: values that did not fit their column (kept as missing), downloads skipped
            with ``on_error="skip"``.
    """

    files: pd.DataFrame
    queue_events: pd.DataFrame
    match_starts: pd.DataFrame
    reserved_users: pd.DataFrame
    battlerite_picks: pd.DataFrame
    round_events: pd.DataFrame
    deaths: pd.DataFrame
    rounds: pd.DataFrame
    user_round_spells: pd.DataFrame
    match_finishes: pd.DataFrame
    team_updates: pd.DataFrame
    shutdowns: pd.DataFrame
    round_player_stats: pd.DataFrame
    queue_region_samples: pd.DataFrame
    other_events: pd.DataFrame
    problems: tuple[str, ...] = ()

    @property
    def match_ids(self) -> list[str]:
        """The matches whose telemetry these frames hold."""
        return self.files["match_id"].tolist()

    def summary(self) -> str:
        """A few lines: rows per table and the number of problems."""
        return "\n".join([*self._table_lines(), *self._problem_lines(more=False)])

    @classmethod
    def concat(cls, frames: Iterable[TelemetryFrames]) -> TelemetryFrames:
        """Combine frames; a match present in several keeps its first telemetry.

        Extra columns are the union; one that the frames hold with different kinds is settled
        as the normalizer settles it (:func:`matchkit.model.combine.stack`); dtypes of known
        columns are re-applied.

        Raises:
            InvalidArgumentError: ``frames`` is not an iterable of TelemetryFrames.
        """
        frames = cls.checked_all(frames, where=f"{cls.__name__}.concat")
        if not frames:
            return cls.empty()
        kept: list[TelemetryFrames] = []
        seen: set[str] = set()
        for frame in frames:
            new = [m for m in frame.match_ids if m not in seen]
            seen.update(new)
            if len(new) != len(frame):
                frame = frame._only(set(new))
            kept.append(frame)
        tables = {}
        for name in TABLE_NAMES:
            parts = [frame.tables[name] for frame in kept]
            parts = [part for part in parts if len(part)] or parts[:1]
            # stacked as MatchFrames.concat stacks: a column of different kinds settled
            combined = stack(parts).rows if len(parts) > 1 else parts[0]
            tables[name] = coerce_table(combined.reset_index(drop=True), name)
        problems = tuple(dict.fromkeys(p for frame in frames for p in frame.problems))
        return cls(**tables, problems=problems)

    def _only(self, match_ids: set[str]) -> TelemetryFrames:
        tables = {
            name: frame[frame["match_id"].isin(match_ids).to_numpy()].reset_index(drop=True)
            for name, frame in self.tables.items()
        }
        return type(self)(**tables, problems=self.problems)

    def to_parquet(self, path: str | os.PathLike[str], *, overwrite: bool = False) -> None:
        """Write every table as a Parquet file under ``path``, atomically.

        See :mod:`matchkit.telemetry.parquet`.
        """
        from matchkit.telemetry.parquet import write_telemetry

        write_telemetry(self, path, overwrite=overwrite)

    @classmethod
    def read_parquet(cls, path: str | os.PathLike[str]) -> TelemetryFrames:
        """Read what :meth:`to_parquet` wrote, with identical dtypes."""
        from matchkit.telemetry.parquet import read_telemetry

        return read_telemetry(path)


def coerce_table(frame: pd.DataFrame, name: str) -> pd.DataFrame:
    """Known columns and dtypes for a telemetry table (an integer clock kept as text stays)."""
    from matchkit.telemetry.build import CLOCK_COLUMNS

    schema = TABLES[name]
    kept = {
        column: frame[column]
        for table, column in CLOCK_COLUMNS
        if table == name and column in frame and isinstance(frame[column].dtype, pd.StringDtype)
    }
    coerced = coerce_frame(frame.drop(columns=list(kept)), schema)
    for column, series in kept.items():
        coerced[column] = series
    known = schema.column_names
    return coerced[[*known, *sorted(set(coerced.columns) - set(known))]]
