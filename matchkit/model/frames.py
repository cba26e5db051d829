"""MatchFrames: the normalized tables of match records, and what analyses do with them.

``docs/model.md`` describes every table and column. Build one with :func:`matchkit.to_frames`;
combine several with :meth:`MatchFrames.concat` or :meth:`MatchFrames.merge`, narrow with
:meth:`MatchFrames.filter`, start analyses from :meth:`MatchFrames.participant_view`, and store
with :meth:`MatchFrames.to_parquet` / :meth:`MatchFrames.read_parquet`.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeAlias

import numpy as np
import pandas as pd

from matchkit.errors import InvalidArgumentError
from matchkit.model.base import DeclaredFrames
from matchkit.model.combine import one_row_per_key, stack
from matchkit.model.listings import FRAME_TABLES, LISTING_TABLES
from matchkit.model.schema import coerce_frame, empty_frame

__all__ = ["MatchFrames", "TableLabels"]

MatchPredicate: TypeAlias = pd.Series | np.ndarray | list[bool] | Callable[[pd.DataFrame], Any]


class TableLabels(Protocol):
    """What :meth:`MatchFrames.participant_view` asks of its ``names``: a
    :class:`matchkit.names.Names` (the model does not import :mod:`matchkit.names`; names are
    a layer above the model, so the view asks the object it is given)."""

    def label_table(self, table: pd.DataFrame) -> pd.DataFrame:
        """``table`` with a name column beside each id column it has."""
        ...


#: The roster columns participant_view() adds to each participant row: roster column -> view
#: column (read by the archive's lazy view too, matchkit.analysis._archive).
VIEW_ROSTER_COLUMNS = {
    "side": "side",
    "side_label": "side_label",
    "won": "won",
    "score": "roster_score",
    "team_id": "team_id",
}
#: The match columns participant_view() adds to each participant row.
VIEW_MATCH_COLUMNS = (
    "created_at",
    "duration",
    "game",
    "game_mode",
    "server_type",
    "ranking_type",
    "patch_version",
    "region",
    "match_type",
    "is_royale",
)
#: Roster and match columns participant_view() adds when the frames have them (a profile's own
#: columns, rules/columns.py: PUBG's roster rank and match map): table -> columns.
VIEW_OPTIONAL_COLUMNS = {"rosters": ("rank",), "matches": ("map_name",)}


def _empty_listing(name: str) -> Callable[[], pd.DataFrame]:
    return lambda: empty_frame(LISTING_TABLES[name])


@dataclass(frozen=True, eq=False, repr=False)
class MatchFrames(
    DeclaredFrames, schemas=FRAME_TABLES, counted="matches", quiet=tuple(LISTING_TABLES)
):
    """The tables of a set of matches; see docs/model.md for every column.

    Attributes:
        matches: one row per match (key ``match_id``).
        rosters: one row per roster (key ``roster_id``; ``match_id``, ``team_id``).
        participants: one row per participant (key ``participant_id``; ``match_id``,
            ``roster_id``, ``player_id``).
        rounds: one row per round (key ``round_id``; ``match_id``).
        round_participants: ``(round_id, participant_id)`` pairs, with ``match_id``.
        players: one row per player (key ``player_id``).
        teams: one row per team (key ``team_id``).
        assets: one row per asset (key ``asset_id``; ``match_id``).
        spectators: ``(match_id, spectator_type, spectator_id)`` rows.
        player_matches: ``(player_id, match_id)``: the recent matches a player resource lists
            (PUBG's players), in the order listed.
        samples: one row per sample (key ``sample_id``; PUBG's ``/samples``).
        sample_matches: ``(sample_id, match_id)``: the matches a sample lists.
        seasons: one row per season (key ``season_id``; PUBG's ``/seasons``).
        problems: what the normalizer could not resolve (missing referenced resources, values
            that do not fit their column, resource types outside the model).
    """

    matches: pd.DataFrame
    rosters: pd.DataFrame
    participants: pd.DataFrame
    rounds: pd.DataFrame
    round_participants: pd.DataFrame
    players: pd.DataFrame
    teams: pd.DataFrame
    assets: pd.DataFrame
    spectators: pd.DataFrame
    player_matches: pd.DataFrame = field(default_factory=_empty_listing("player_matches"))
    samples: pd.DataFrame = field(default_factory=_empty_listing("samples"))
    sample_matches: pd.DataFrame = field(default_factory=_empty_listing("sample_matches"))
    seasons: pd.DataFrame = field(default_factory=_empty_listing("seasons"))
    problems: tuple[str, ...] = ()

    def summary(self) -> str:
        """A few lines: rows per table, the time span of the matches, the number of problems."""
        lines = self._table_lines()
        created = self.matches["created_at"].dropna()
        if len(created):
            lines.append(
                f"matches from {created.min():%Y-%m-%d %H:%M} to {created.max():%Y-%m-%d %H:%M} UTC"
            )
        lines.extend(self._problem_lines(more=True))
        return "\n".join(lines)

    def participant_view(self, *, names: TableLabels | None = None) -> pd.DataFrame:
        """One row per participant with its roster's and match's columns: where analyses start.

        Columns: every participant column, then from the roster ``side`` (the roster's side,
        else the participant's own), ``side_label``, ``won``, ``roster_score``, ``team_id``,
        then from the match ``created_at``, ``duration``, ``game``, ``game_mode``,
        ``server_type``, ``ranking_type``, ``patch_version``, ``region``, ``match_type``,
        ``is_royale``; and, when the frames have them (PUBG's), the roster's ``rank`` and the
        match's ``map_name``. A name a participant extra already uses gets a ``roster_`` or
        ``match_`` prefix.

        With ``names`` (:class:`matchkit.names.Names`: ``sample_names()``, ``client.names()``
        or ``load_names(your_mapping)``), a name column follows each id column: ``character``
        after ``actor``, ``mount_name`` after ``mount`` (likewise ``outfit``, ``attachment``,
        ``emote``), ``game_mode_name`` after ``game_mode``; ids without a name stay ids.

        Raises:
            InvalidArgumentError: ``names`` is not Names (a plain mapping: pass it through
                ``matchkit.names.load_names`` first).
        """
        view = self.participants.copy()
        own_side = view.pop("side")
        taken = set(view.columns)
        rosters = self.rosters.set_index("roster_id")
        rosters = rosters[~rosters.index.duplicated()]
        positions = rosters.index.get_indexer(view["roster_id"])
        for source, target in VIEW_ROSTER_COLUMNS.items():
            name = target if target not in taken else f"roster_{source}"
            view[name] = _take(rosters[source], positions)
            taken.add(name)
        for source in VIEW_OPTIONAL_COLUMNS["rosters"]:
            if source in rosters:
                name = source if source not in taken else f"roster_{source}"
                view[name] = _take(rosters[source], positions)
                taken.add(name)
        view["side"] = view["side"].fillna(own_side)
        matches = self.matches.set_index("match_id")
        matches = matches[~matches.index.duplicated()]
        positions = matches.index.get_indexer(view["match_id"])
        optional = [c for c in VIEW_OPTIONAL_COLUMNS["matches"] if c in matches]
        for source in (*VIEW_MATCH_COLUMNS, *optional):
            name = source if source not in taken else f"match_{source}"
            view[name] = _take(matches[source], positions)
            taken.add(name)
        if names is None:
            return view
        label_table = getattr(names, "label_table", None)
        if not callable(label_table):
            raise InvalidArgumentError(
                f"participant_view: names must be matchkit.names.Names (sample_names(), "
                f"client.names(), or load_names(mapping) for a mapping of your own), not "
                f"{type(names).__name__}",
                parameter="names",
            )
        labelled: pd.DataFrame = label_table(view)
        return labelled

    @classmethod
    def concat(cls, frames: Iterable[MatchFrames]) -> MatchFrames:
        """Combine frames from several fetches; rows repeated across them are kept once.

        A row is the same when its key is (``match_id`` for matches, ``(round_id,
        participant_id)`` for round_participants, ...). A player or team keeps its row from the
        frame that holds its latest match, whatever the order of the frames (decision 17);
        any other row, the first frame's. Keys whose rows differ are counted in ``problems``
        (:mod:`matchkit.model.combine`). Extra columns are the union; dtypes of known columns
        are re-applied.

        Raises:
            InvalidArgumentError: ``frames`` is not an iterable of MatchFrames.
        """
        frames = cls.checked_all(frames, where=f"{cls.__name__}.concat")
        if not frames:
            return cls.empty()
        stacked = {name: stack([frame.tables[name] for frame in frames]) for name in FRAME_TABLES}
        problems = dict.fromkeys(p for frame in frames for p in frame.problems)
        tables = {}
        for name, schema in FRAME_TABLES.items():
            rows, problem = one_row_per_key(name, stacked)
            if problem is not None:
                problems[problem] = None
            tables[name] = coerce_frame(rows, schema)
        return cls(**tables, problems=tuple(problems))

    def merge(self, other: MatchFrames) -> MatchFrames:
        """These frames and ``other`` combined, deduplicated (see :meth:`concat`).

        Raises:
            InvalidArgumentError: ``other`` is not MatchFrames.
        """
        cls = type(self)
        return cls.concat([self, cls.checked(other, parameter="other", where="merge")])

    def filter(self, predicate: MatchPredicate) -> MatchFrames:
        """Keep the matches a predicate selects, and only the rows of other tables they own.

        Args:
            predicate: a boolean mask over ``matches`` (Series, array or list; <NA> counts as
                False) or a callable that takes ``matches`` and returns one.

        Players and teams are kept when a kept participant or roster refers to them; the
        listing tables (players' match lists, samples, seasons) are kept whole: they say what
        the service listed, not which matches are held.

        Example:
            >>> frames.filter(lambda m: m["server_type"] == "QUICK3V3")  # doctest: +SKIP
        """
        mask = predicate(self.matches) if callable(predicate) else predicate
        keep = _boolean_mask(mask, self.matches)
        matches = self.matches[keep].reset_index(drop=True)
        kept_ids = set(matches["match_id"].dropna())

        def owned(frame: pd.DataFrame) -> pd.DataFrame:
            return frame[frame["match_id"].isin(kept_ids).to_numpy()].reset_index(drop=True)

        participants = owned(self.participants)
        rosters = owned(self.rosters)
        players = self.players[self.players["player_id"].isin(participants["player_id"].dropna())]
        teams = self.teams[self.teams["team_id"].isin(rosters["team_id"].dropna())]
        return type(self)(
            matches=matches,
            rosters=rosters,
            participants=participants,
            rounds=owned(self.rounds),
            round_participants=owned(self.round_participants),
            players=players.reset_index(drop=True),
            teams=teams.reset_index(drop=True),
            assets=owned(self.assets),
            spectators=owned(self.spectators),
            **{name: getattr(self, name) for name in LISTING_TABLES},
            problems=self.problems,
        )

    def to_parquet(self, path: str | os.PathLike[str], *, overwrite: bool = False) -> None:
        """Write every table as a Parquet data set under ``path``, atomically.

        Match-bound tables are Hive-partitioned by match date (``date=YYYY-MM-DD``); players and
        teams are not partitioned. See :mod:`matchkit.model.parquet`.
        """
        from matchkit.model.parquet import write_frames

        write_frames(self, path, overwrite=overwrite)

    @classmethod
    def read_parquet(cls, path: str | os.PathLike[str]) -> MatchFrames:
        """Read what :meth:`to_parquet` wrote, with identical dtypes."""
        from matchkit.model.parquet import read_frames

        return read_frames(path)


def _take(series: pd.Series, positions: np.ndarray) -> pd.Series:
    """``series`` values at ``positions`` (-1: missing), as a fresh positional array."""
    found = positions >= 0
    if found.all():
        return series.take(positions).reset_index(drop=True)
    if series.empty:
        return pd.Series([None] * len(positions), dtype=series.dtype)
    taken = series.take(np.where(found, positions, 0)).reset_index(drop=True)
    return taken.where(found)


def _boolean_mask(mask: Any, matches: pd.DataFrame) -> np.ndarray:
    if isinstance(mask, pd.Series):
        if not mask.index.equals(matches.index):
            raise InvalidArgumentError(
                "the mask's index does not match the matches table's; build it from "
                "frames.matches (e.g. frames.matches['region'] == 'eu')",
                parameter="predicate",
            )
        mask = mask.array
    values = pd.array(mask, dtype="boolean") if not isinstance(mask, np.ndarray) else mask
    if len(values) != len(matches):
        raise InvalidArgumentError(
            f"the mask has {len(values)} values for {len(matches)} matches",
            parameter="predicate",
        )
    if isinstance(values, np.ndarray) and values.dtype == bool:
        return values
    return np.asarray(pd.array(values, dtype="boolean").fillna(False), dtype=bool)
