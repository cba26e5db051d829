"""A PUBG telemetry file checked once against its match: the match id, the players, the kills.

- **The match.** LogMatchDefinition's ``MatchId`` (``match.bro.<...>.<match id>``) ends with the
  match's id; a file naming another match (there, or in a pre-2018 event's ``common.matchId``),
  or two, is not the file of the match asked for.
- **The players.** The account ids of the file's characters (killers, victims, players of
  positions, landings, items, vehicles, the final rankings) are the match's participants'
  ``player_id`` (PUBG's ``stats.playerId``), none more and none fewer.
- **The kills.** Each participant's ``kills`` (PUBG: "number of enemy players killed") is the
  number of kill events (LogPlayerKillV2, else the older LogPlayerKill) crediting them as
  ``killer``, less suicides and kills of their own team.

Each mismatch is a :class:`matchkit.errors.DocumentError` naming the match (and the event, where
one event is at fault).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

import msgspec
import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from matchkit.errors import DocumentError, InvalidArgumentError
from matchkit.normalize import ARROW_POOL
from matchkit.telemetry.pubg.split import SplitFile

if TYPE_CHECKING:
    from matchkit.model.frames import MatchFrames

__all__ = [
    "MatchRoster",
    "file_match_id",
    "match_id_of_definition",
    "require_roster_agreement",
    "rosters_of",
]

KILL_TYPES = ("LogPlayerKillV2", "LogPlayerKill")
"""The kill events, the one counted first: a file with LogPlayerKillV2 counts those only."""

PLAYER_COLUMNS: dict[str, tuple[str, ...]] = {
    "match_end": ("player_id",),
    "positions": ("player_id",),
    "landings": ("player_id",),
    "item_events": ("player_id",),
    "vehicles": ("player_id", "attacker_id"),
    "kills": ("killer_id", "victim_id", "finisher_id", "dbno_maker_id"),
    "knocks": ("attacker_id", "victim_id"),
    "damage": ("attacker_id", "victim_id"),
    "revives": ("reviver_id", "victim_id"),
}
"""The columns that name the file's players."""

_SHOWN = 5


@dataclass(frozen=True)
class MatchRoster:
    """What a telemetry file is checked against: its match's participants and their kills.

    Attributes:
        match_id: the match.
        kills: each participant's player id (PUBG's account id, ``stats.playerId``) -> their
            kills (``None``: not known, not checked).
    """

    match_id: str
    kills: Mapping[str, int | None]


def rosters_of(matches: object) -> dict[str, MatchRoster]:
    """The rosters of ``matches``: MatchFrames (``participants.player_id`` and ``kills``), or a
    mapping ``{match_id: [(player_id, kills), ...]}``.

    Raises:
        InvalidArgumentError: ``matches`` is neither.
    """
    from matchkit.model.frames import MatchFrames

    if isinstance(matches, MatchFrames):
        return _rosters_of_frames(matches)
    if isinstance(matches, Mapping):
        rosters = {}
        for match_id, pairs in matches.items():
            rosters[str(match_id)] = MatchRoster(str(match_id), _pairs(match_id, pairs))
        return rosters
    raise InvalidArgumentError(
        "matches must be MatchFrames, or a mapping {match_id: [(player_id, kills), ...]}; not "
        f"{type(matches).__name__}",
        parameter="matches",
    )


def _pairs(match_id: object, pairs: Iterable[object]) -> dict[str, int | None]:
    kills: dict[str, int | None] = {}
    for pair in pairs:
        if (
            not isinstance(pair, tuple | list)
            or len(pair) != 2
            or not isinstance(pair[0], str)
            or not (pair[1] is None or (isinstance(pair[1], int) and not isinstance(pair[1], bool)))
        ):
            raise InvalidArgumentError(
                f"matches[{match_id!r}] must list (player_id, kills) pairs, a text and a whole "
                f"number (or None); not {pair!r}",
                parameter="matches",
            )
        kills[pair[0]] = pair[1]
    return kills


def _rosters_of_frames(frames: MatchFrames) -> dict[str, MatchRoster]:
    participants = frames.participants
    kills: dict[str, dict[str, int | None]] = {
        match_id: {} for match_id in frames.matches["match_id"].tolist()
    }
    ids = participants["player_id"].astype("string").tolist()
    counts = participants["kills"].astype("Int64").tolist()
    for match_id, player, count in zip(participants["match_id"].tolist(), ids, counts, strict=True):
        key = player if isinstance(player, str) else ""  # no id: reported by the check
        kills.setdefault(match_id, {})[key] = None if count is pd.NA else int(count)
    return {match_id: MatchRoster(match_id, found) for match_id, found in kills.items()}


class _Definition(msgspec.Struct):
    match: str | None = msgspec.field(name="MatchId", default=None)


_DEFINITIONS = msgspec.json.Decoder(_Definition)


def match_id_of_definition(definition: str) -> str:
    """The match id a telemetry match id ends with (``match.bro.official.<...>.<id>``)."""
    return definition.rsplit(".", 1)[-1]


def file_match_id(split: SplitFile, *, expected: str | None, where: str, index: int) -> str:
    """The match a file belongs to: its LogMatchDefinition's (and pre-2018 ``common.matchId``),
    which must be ``expected`` when one is given.

    Raises:
        DocumentError: the file holds no events, names no match and none is expected, names two,
            or names another than ``expected``.
    """
    if not split.events:
        raise DocumentError(
            f"{where} holds no events ([]); a match's telemetry holds at least its "
            "LogMatchDefinition and LogMatchStart, so this is not the file of the match",
            document_index=index,
        )
    named: dict[str, int] = {}
    definitions = split.groups.get("LogMatchDefinition", np.zeros(0, dtype=np.int64)).tolist()
    for event, raw in zip(definitions, split.texts.peek("LogMatchDefinition"), strict=True):
        try:
            text = _DEFINITIONS.decode(raw).match
        except msgspec.ValidationError as error:
            raise DocumentError(
                f"{where}: event {event} (LogMatchDefinition) has a MatchId that is not text "
                f"({error})",
                document_index=index,
            ) from None
        if text:
            named.setdefault(match_id_of_definition(text), event)
    for text in sorted(split.match_ids):
        named.setdefault(match_id_of_definition(text), -1)
    if expected is not None:
        others = {match: event for match, event in named.items() if match != expected}
        if others:
            match, event = next(iter(others.items()))
            at = f" (event {event}, LogMatchDefinition)" if event >= 0 else " (common.matchId)"
            raise DocumentError(
                f"{where} is the telemetry of match {match!r}{at}, not of {expected!r}; the file "
                "belongs to another match",
                document_index=index,
            )
        return expected
    if len(named) == 1:
        return next(iter(named))
    if not named:
        raise DocumentError(
            f"{where} names no match (no LogMatchDefinition); pass its match id (a mapping "
            "{match_id: telemetry} or match_ids=)",
            document_index=index,
        )
    raise DocumentError(
        f"{where} names {len(named)} matches ({', '.join(sorted(named))}); a file holds one",
        document_index=index,
    )


def require_roster_agreement(
    tables: Mapping[str, pd.DataFrame], roster: MatchRoster, *, where: str, index: int
) -> None:
    """Check one file's tables against its match's roster (see the module's docs).

    Raises:
        DocumentError: the players or the kills disagree.
    """
    players = {player for player in roster.kills if player}
    if not players:
        raise DocumentError(
            f"{where} cannot be checked: the match's participants carry no player ids "
            "(participants.player_id, PUBG's stats.playerId, is empty)",
            document_index=index,
        )
    found = _players_of(tables)
    strangers = [player for player in found if player not in players]
    if strangers:
        player = min(strangers, key=lambda stranger: (found[stranger], stranger))
        raise DocumentError(
            f"{where} names {len(strangers)} player(s) the match does not have, e.g. {player!r} "
            f"(first in event {found[player]}); the file belongs to another match",
            document_index=index,
        )
    absent = sorted(players - found.keys())
    if absent:
        raise DocumentError(
            f"{where} never names {len(absent)} of the match's {len(players)} participants: "
            f"{', '.join(absent[:_SHOWN])}{' ...' if len(absent) > _SHOWN else ''}",
            document_index=index,
        )
    counted = credited_kills(tables["kills"])
    wrong = [
        f"{player}: {int(counted.get(player, 0))} in the file, {kills} in the match"
        for player, kills in sorted(roster.kills.items())
        if player and kills is not None and int(counted.get(player, 0)) != kills
    ]
    if wrong:
        raise DocumentError(
            f"{where}: the kills of {len(wrong)} participant(s) disagree with the match: "
            f"{'; '.join(wrong[:_SHOWN])}{' ...' if len(wrong) > _SHOWN else ''}",
            document_index=index,
        )


def credited_kills(kills: pd.DataFrame) -> Counter[str]:
    """Kills per killer id as PUBG counts a participant's ``kills``: kill events (of the first of
    :data:`KILL_TYPES` the table holds) of an enemy, not a suicide (nor of the killer's own
    team, nor of the killer)."""
    rows = len(kills)
    chosen = np.ones(rows, dtype=bool)
    if "event_type" in kills and rows:
        types = _values(kills["event_type"])
        kind = next((t for t in KILL_TYPES if (types == t).any()), KILL_TYPES[0])
        chosen = types == kind
    columns = ("killer_id", "victim_id", "killer_team_id", "victim_team_id", "is_suicide")
    counts: Counter[str] = Counter()
    for killer, victim, killer_team, victim_team, suicide in zip(
        *(_values(kills[column])[chosen] for column in columns), strict=True
    ):
        same_team = killer_team is not None and killer_team == victim_team
        if killer and killer != victim and not same_team and not suicide:
            counts[killer] += 1
    return counts


def _players_of(tables: Mapping[str, pd.DataFrame]) -> dict[str, int]:
    """Every account id the file's tables name -> the first event naming it.

    Each column is read in Arrow, as codes of its distinct ids (a few hundred for a column of
    tens of thousands of rows): no Python string is made per row. Made per row, at the end of a
    read, when every table is held, they were the read's peak of memory."""
    first: dict[str, int] = {}
    for name, columns in PLAYER_COLUMNS.items():
        table = tables[name]
        if not len(table):
            continue
        events = table["event_index"].to_numpy(dtype=np.int64, na_value=_NO_EVENT)
        for column in columns:
            if column not in table:
                continue
            for player, event in _first_events(table[column], events):
                if player not in first or event < first[player]:
                    first[player] = event
    return first


_NO_EVENT = np.iinfo(np.int64).max


def _first_events(column: pd.Series, events: np.ndarray) -> Iterator[tuple[str, int]]:
    """Each id of a text column (neither missing nor empty) and the first of ``events`` (one a
    row) at a row holding it, a chunk of the column's Arrow data at a time (not copied)."""
    ids = pa.array(column.array, pa.large_string())
    start = 0
    for chunk in ids.chunks if isinstance(ids, pa.ChunkedArray) else [ids]:
        encoded = pc.dictionary_encode(chunk, memory_pool=ARROW_POOL)
        indices = encoded.indices
        codes = pc.coalesce(indices, pa.scalar(-1, indices.type), memory_pool=ARROW_POOL)
        codes = codes.to_numpy()
        held = codes >= 0
        earliest = np.full(len(encoded.dictionary), _NO_EVENT)
        np.minimum.at(earliest, codes[held], events[start : start + len(chunk)][held])
        start += len(chunk)
        for player, event in zip(encoded.dictionary.to_pylist(), earliest.tolist(), strict=True):
            if player and event != _NO_EVENT:
                yield player, event


def _values(column: pd.Series) -> np.ndarray:
    """A column's values as Python objects, ``None`` where missing."""
    return column.to_numpy(dtype=object, na_value=None)
