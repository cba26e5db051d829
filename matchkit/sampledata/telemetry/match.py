"""A match document read into what its telemetry depends on: rosters, participants, rounds.

The renderer (:mod:`matchkit.sampledata.telemetry.render`) reads documents through
:func:`read_match`, which decides who is who: a participant's telemetry id is its
``stats.userID``, else its player's id, else an id drawn from the match and participant ids (an
anonymous participant whose stats were not recorded).
"""

from __future__ import annotations

import zlib
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from matchkit.errors import DocumentError
from matchkit.rules.events import STAT_KEYS
from matchkit.rules.windows import parse_time
from matchkit.sampledata.sampling import Draw

__all__ = [
    "PLAYER_STATS",
    "ArenaRound",
    "MatchView",
    "ParticipantView",
    "RosterView",
    "character_number",
    "read_match",
]

PLAYER_STATS = STAT_KEYS
COSMETICS = ("mount", "attachment", "outfit", "emote")
BOT_ID = "0"


@dataclass(frozen=True)
class ArenaRound:
    """One round: its 0-based ordinal, duration in seconds and the side that won it.

    The match generator plays rounds as these, and :class:`MatchView` reads them back from a
    match document.
    """

    ordinal: int
    duration: int
    winning_team: int  # a side, 1 or 2 (the wire's stats.winningTeam)


@dataclass(frozen=True)
class ParticipantView:
    """One participant as telemetry sees it.

    Attributes:
        user_id: the id telemetry names it by (see the module docstring).
        actor: the participant's ``actor``.
        character: the telemetry ``character``: the actor as a number.
        side: 1 or 2 (Arena), the roster's side (Royale).
        bot: a bot (userID 0, no player): it never queues nor reserves a seat.
        stats: the participant's integer stats among :data:`PLAYER_STATS` it carries.
        cosmetics: mount, attachment, outfit, emote (those it carries).
    """

    user_id: str
    actor: str
    character: int
    side: int
    bot: bool
    stats: Mapping[str, int]
    cosmetics: Mapping[str, int]


@dataclass(frozen=True)
class RosterView:
    """A roster: its side, score, result, placement (Royale), team and participants.

    ``team_league`` and ``team_division`` are the team resource's stats, when included.
    """

    side: int
    score: int
    won: bool
    placement: int | None
    team_id: str | None
    team_league: int | None
    team_division: int | None
    participants: tuple[ParticipantView, ...]


@dataclass(frozen=True)
class MatchView:
    """What the telemetry of one match is generated from and checked against."""

    match_id: str
    shard: str
    created_at: datetime
    duration: int
    royale: bool
    server_type: str
    ranking_type: str
    patch: str
    game_mode: int
    map_id: str
    region: str
    rosters: tuple[RosterView, ...]
    rounds: tuple[ArenaRound, ...]
    asset_created_at: datetime | None

    @property
    def participants(self) -> tuple[ParticipantView, ...]:
        return tuple(one for roster in self.rosters for one in roster.participants)

    @property
    def players(self) -> tuple[ParticipantView, ...]:
        """The participants who queued: everyone but bots."""
        return tuple(one for one in self.participants if not one.bot)

    @property
    def ranked(self) -> bool:
        return self.ranking_type == "RANKED"

    @property
    def team_size(self) -> int:
        return max((len(roster.participants) for roster in self.rosters), default=0)


def character_number(actor: str) -> int:
    """The telemetry ``character`` of an actor: the actor id as a number (a CRC if not digits)."""
    return int(actor) if actor.isdigit() else zlib.crc32(actor.encode())


def _dict(value: Any) -> Mapping[str, Any]:
    return value if isinstance(value, dict) else {}


def _int(value: Any, default: int = 0) -> int:
    if isinstance(value, bool):
        return default
    if isinstance(value, int):
        return value
    if isinstance(value, str) and value.strip().lstrip("-").isdigit():
        return int(value)
    return default


def _participant(match_id: str, item: Mapping[str, Any], side: int) -> ParticipantView:
    attributes = _dict(item.get("attributes"))
    stats = _dict(attributes.get("stats"))
    player = ((item.get("relationships") or {}).get("player") or {}).get("data")
    player_id = str(player["id"]) if isinstance(player, dict) and "id" in player else None
    user = stats.get("userID")
    if user is not None and not isinstance(user, bool) and str(user) != "":
        user_id = str(user)
    elif player_id is not None:
        user_id = player_id
    else:
        user_id = Draw(f"{match_id}:anonymous:{item.get('id')}").numeric_id()
    carried = {
        name: stats[name]
        for name in PLAYER_STATS
        if isinstance(stats.get(name), int) and not isinstance(stats.get(name), bool)
    }
    cosmetics = {
        name: stats[name]
        for name in COSMETICS
        if isinstance(stats.get(name), int) and not isinstance(stats.get(name), bool)
    }
    return ParticipantView(
        user_id=user_id,
        actor=str(attributes.get("actor", "")),
        character=character_number(str(attributes.get("actor", ""))),
        side=side,
        bot=user_id == BOT_ID and player_id is None,
        stats=carried,
        cosmetics=cosmetics,
    )


def _related(resource: Mapping[str, Any], name: str) -> list[tuple[Any, Any]]:
    """The (type, id) of each resource ``name`` links to, as the document spells them."""
    data = ((resource.get("relationships") or {}).get(name) or {}).get("data")
    if isinstance(data, dict):
        data = [data]
    return [(one.get("type"), one.get("id")) for one in data or () if isinstance(one, dict)]


def read_match(document: Mapping[str, Any]) -> MatchView:
    """Read a single-match JSON:API document (``data`` an object or a one-element list).

    Raises:
        DocumentError: the document holds no match, or a resource it links is missing.
    """
    match = document.get("data")
    if isinstance(match, list):
        match = match[0] if len(match) == 1 else None
    if not isinstance(match, dict) or match.get("type") != "match":
        raise DocumentError("telemetry needs a single-match document; this one holds no match")
    match_id = str(match["id"])
    attributes = match.get("attributes") or {}
    stats = _dict(attributes.get("stats"))
    tags = _dict(attributes.get("tags"))
    by_key = {
        (item.get("type"), item.get("id")): item
        for item in document.get("included") or ()
        if isinstance(item, dict)
    }

    def resource(key: tuple[Any, Any]) -> Mapping[str, Any]:
        if key not in by_key:
            raise DocumentError(f"match {match_id} links {key[0]} {key[1]!r}, not included")
        return by_key[key]

    rosters = []
    for number, key in enumerate(_related(match, "rosters"), start=1):
        roster = resource(key)
        roster_attributes = _dict(roster.get("attributes"))
        roster_stats = _dict(roster_attributes.get("stats"))
        side = _int(roster_stats.get("side"), number)
        team = _related(roster, "team")
        team_stats = (by_key.get(team[0], {}).get("attributes") or {}).get("stats") if team else {}
        team_stats = team_stats if isinstance(team_stats, dict) else {}
        rosters.append(
            RosterView(
                side=side,
                score=_int(roster_stats.get("score")),
                won=str(roster_attributes.get("won")).lower() == "true",
                placement=_int(roster_stats["placement"]) if "placement" in roster_stats else None,
                team_id=str(team[0][1]) if team and team[0][1] is not None else None,
                team_league=_int(team_stats["league"]) if "league" in team_stats else None,
                team_division=_int(team_stats["division"]) if "division" in team_stats else None,
                participants=tuple(
                    _participant(match_id, resource(one), side)
                    for one in _related(roster, "participants")
                ),
            )
        )
    rounds = sorted(
        (
            ArenaRound(
                ordinal=_int((resource(key).get("attributes") or {}).get("ordinal")),
                duration=_int((resource(key).get("attributes") or {}).get("duration")),
                winning_team=_int(
                    ((resource(key).get("attributes") or {}).get("stats") or {}).get("winningTeam")
                ),
            )
            for key in _related(match, "rounds")
        ),
        key=lambda one: one.ordinal,
    )
    assets = [by_key.get(key) for key in _related(match, "assets")]
    asset_times = [
        (one.get("attributes") or {}).get("createdAt") for one in assets if isinstance(one, dict)
    ]
    server_type = str(tags.get("serverType") or stats.get("type") or "")
    game = attributes.get("game") or stats.get("game")
    return MatchView(
        match_id=match_id,
        shard=str(attributes.get("shardId") or ""),
        created_at=parse_time(attributes.get("createdAt", ""), parameter="createdAt"),
        duration=_int(attributes.get("duration")),
        royale=game == "Royale" or (game is None and server_type.startswith("ROYAL")),
        server_type=server_type,
        ranking_type=str(tags.get("rankingType") or "").upper(),
        patch=str(attributes.get("patchVersion") or ""),
        game_mode=_int(attributes.get("gameMode")),
        map_id=str(stats.get("mapID") or ""),
        region=str(stats.get("region") or ""),
        rosters=tuple(rosters),
        rounds=tuple(rounds),
        asset_created_at=(
            parse_time(asset_times[0], parameter="createdAt")
            if asset_times and isinstance(asset_times[0], str)
            else None
        ),
    )
