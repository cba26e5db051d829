"""The players' side of telemetry: queueing, seat reservations, battlerite picks, team updates.

Each function returns ``dataObject`` dicts with the fields of the real file, in its order
(``docs/telemetry-format.md``); the timeline (:mod:`matchkit.sampledata.telemetry`) gives them
their times. Leagues are drawn once per player id (or taken from the team), so a player keeps
one league across matches.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Any

from matchkit.sampledata import parameters as p
from matchkit.sampledata.sampling import Draw, WeightedTable
from matchkit.sampledata.telemetry import parameters as t
from matchkit.sampledata.telemetry.catalogue import character_kit, featured_battlerite
from matchkit.sampledata.telemetry.match import MatchView, ParticipantView, RosterView

__all__ = [
    "Standing",
    "battlerite_picks",
    "loadout",
    "pick_event",
    "queue_event",
    "reserved_user",
    "roster_team_id",
    "standing_of",
    "team_update",
]

_LEAGUES = WeightedTable([int(league) for league, _ in t.LEAGUES], [s for _, s in t.LEAGUES])
_LOADOUTS = WeightedTable(*zip(*t.LOADOUT_TYPES, strict=True))
_PING = dict(t.PING_MS)
_REGIONS = tuple(region for region, _ in t.PING_MS)
_QUEUE_FACTOR = {region: float(Fraction(value)) for region, value in t.QUEUE_REGION_FACTOR}
_NIGHT_FACTOR = float(Fraction(t.QUEUE_NIGHT_FACTOR))
_SPREAD = tuple(float(Fraction(value)) for value in t.QUEUE_SPREAD)


@dataclass(frozen=True)
class Standing:
    """A ranked standing: league (0..6), division (1..5) and divisionRating (0..99)."""

    league: int
    division: int
    rating: int


@lru_cache(maxsize=8192)
def _personal(user_id: str) -> Standing:
    draw = Draw(f"{p.CATALOGUE_SEED}:standing:{user_id}")
    return Standing(draw.table(_LEAGUES), draw.integer(1, 5), draw.integer(0, 99))


def standing_of(roster: RosterView, person: ParticipantView) -> Standing:
    """The standing a player queues with: their team's when the roster is a team, else theirs."""
    if roster.team_id is not None and roster.team_league is not None:
        rating = Draw(f"{p.CATALOGUE_SEED}:standing:{roster.team_id}").integer(0, 99)
        league = min(max(roster.team_league, 0), len(t.QUEUE_SECONDS_BY_LEAGUE) - 1)
        return Standing(league, roster.team_division or 1, rating)
    return _personal(person.user_id)


def roster_team_id(view: MatchView, roster: RosterView) -> str:
    """The roster's team id, or one drawn from its members (a group of solo players)."""
    if roster.team_id is not None:
        return roster.team_id
    members = ",".join(sorted(one.user_id for one in roster.participants))
    return Draw(f"{view.match_id}:team:{members}").numeric_id()


def _queue_seconds(draw: Draw, view: MatchView, league: int) -> float:
    factor = _QUEUE_FACTOR.get(view.region, 1.0)
    low, high = t.QUEUE_NIGHT_HOURS_UTC
    if view.region == t.QUEUE_NIGHT_REGION and low <= view.created_at.hour < high:
        factor *= _NIGHT_FACTOR
    spread = draw.rng.triangular(_SPREAD[0], _SPREAD[2], _SPREAD[1])
    return round(t.QUEUE_SECONDS_BY_LEAGUE[league] * factor * spread, 5)


def _region_samples(draw: Draw, region: str) -> tuple[list[dict[str, Any]], str]:
    low, mode, high = _PING.get(region, t.PING_MS[0][1])
    samples = [(draw.triangular(low, mode, high), region)]
    own = samples[0][0]
    others = [one for one in _REGIONS if one != region]
    for other in draw.shuffled(others)[: t.REGION_SAMPLES - 1]:
        samples.append((own + draw.triangular(*t.OTHER_REGION_EXTRA_PING_MS), other))
    samples.sort(key=lambda sample: sample[0])
    preferred = region if draw.chance(t.PREFERRED_REGION_SHARE) or len(samples) == 1 else None
    if preferred is None:
        preferred = next(name for _, name in samples if name != region)
    return [{"region": name, "latencyMS": ms} for ms, name in samples], preferred


def queue_event(
    draw: Draw,
    view: MatchView,
    roster: RosterView,
    person: ParticipantView,
    *,
    time: int,
    clock_ns: int,
) -> dict[str, Any]:
    """The QueueEvent of one player (``clock_ns``: the server's monotonic clock at ``time``)."""
    standing = standing_of(roster, person)
    seconds = _queue_seconds(draw, view, standing.league)
    samples, preferred = _region_samples(draw, view.region)
    kit = character_kit(person.actor)
    ranked = "RANKED" if view.ranked else ""
    return {
        "time": time,
        "userId": person.user_id,
        "teamId": roster_team_id(view, roster),
        "sessionId": draw.hex_id(),
        "season": t.SEASON,
        "eventType": "MATCH",
        "timeJoinedQueue": str(clock_ns - round(seconds * 1000) * 1_000_000),
        "timeInQueue": seconds,
        "character": person.character,
        "characterArchetype": kit.archetype,
        "queueTypes": [f"{view.server_type}{ranked}"],
        "limitMatchmakingRange": False,
        "regionSamples": samples,
        "preferredRegion": preferred,
        "rankingType": view.ranking_type,
        "league": standing.league,
        "division": standing.division,
        "divisionRating": standing.rating,
        "teamSize": len(roster.participants),
        "teamMembers": [
            one.user_id for one in roster.participants if one is not person and not one.bot
        ],
        "placementGamesLeft": 0,
        "matchId": view.match_id,
        "matchRegion": view.region,
        "teamSide": roster.side,
        "autoMatchmaking": True,
    }


def reserved_user(
    draw: Draw, view: MatchView, roster: RosterView, person: ParticipantView, *, time: int
) -> dict[str, Any]:
    """The MatchReservedUser of one player: character = actor, cosmetics = participant's."""
    standing = standing_of(roster, person)
    total = draw.integer(20_000, 2_000_000)
    return {
        "time": time,
        "accountId": person.user_id,
        "matchId": view.match_id,
        "serverType": view.server_type,
        "characterLevel": draw.integer(1, 25),
        "teamId": roster_team_id(view, roster),
        "totalTimePlayed": total,
        "characterTimePlayed": total * draw.integer(1, 40) // 100,
        "character": person.character,
        "team": roster.side,
        "rankingType": view.ranking_type,
        "mount": person.cosmetics.get("mount", 0),
        "attachment": person.cosmetics.get("attachment", 0),
        "outfit": person.cosmetics.get("outfit", 0),
        "emote": person.cosmetics.get("emote", 0),
        "league": standing.league,
        "division": standing.division,
        "divisionRating": standing.rating,
        "seasonId": t.SEASON,
    }


def _weighted_pick(draw: Draw, choices: list[tuple[int, float]]) -> int:
    point = draw.rng.random() * sum(weight for _, weight in choices)
    for rite, weight in choices:
        point -= weight
        if point < 0:
            return rite
    return choices[-1][0]


def battlerite_picks(draw: Draw, person: ParticipantView, *, won: bool) -> list[int]:
    """Five distinct battlerites of the player's character (the featured one by the result)."""
    kit = character_kit(person.actor)
    featured_actor, featured = featured_battlerite()
    choices = [
        (rite, float(weight)) for rite, weight in zip(kit.battlerites, kit.weights, strict=True)
    ]
    picks: list[int] = []
    if person.actor == featured_actor:
        chance = t.FEATURED_PICK_WHEN_WON if won else t.FEATURED_PICK_WHEN_LOST
        if draw.chance(chance):
            picks.append(featured)
        choices = [choice for choice in choices if choice[0] != featured]
    while len(picks) < t.BATTLERITE_PICKS and choices:
        rite = _weighted_pick(draw, choices)
        picks.append(rite)
        choices = [choice for choice in choices if choice[0] != rite]
    return picks


def pick_event(
    view: MatchView, person: ParticipantView, rite: int, *, loadout: str, time: int
) -> dict[str, Any]:
    """A BattleritePickEvent, in the first round (round 0 in the real numbering)."""
    return {
        "time": time,
        "matchID": view.match_id,
        "externalMatchID": "",
        "userID": person.user_id,
        "round": view.rounds[0].ordinal if view.rounds else 0,
        "character": person.character,
        "serverType": view.server_type,
        "loadoutType": loadout,
        "battleriteType": rite,
    }


def loadout(draw: Draw) -> str:
    """A player's loadoutType, by the parameters' shares."""
    return draw.table(_LOADOUTS)


def team_update(draw: Draw, view: MatchView, roster: RosterView, *, time: int) -> dict[str, Any]:
    """The TeamUpdateEvent of a ranked roster: season totals before and after this match."""
    first = roster.participants[0] if roster.participants else None
    standing = (
        standing_of(roster, first) if first is not None else Standing(0, 1, 0)
    )  # a team: its own; solo players: the first member's
    low, high = t.RATING_CHANGE
    change = draw.integer(low, high) * (1 if roster.won else -1)
    wins, losses = draw.integer(0, 60), draw.integer(0, 60)
    others = [one.score for one in view.rosters if one is not roster]
    return {
        "time": time,
        "season": t.SEASON,
        "teamID": roster_team_id(view, roster),
        "matchID": view.match_id,
        "externalMatchID": "",
        "userIDs": [one.user_id for one in roster.participants],
        "mode": view.ranking_type,
        "prevLeague": standing.league,
        "league": standing.league,
        "prevDivision": standing.division,
        "division": standing.division,
        "prevDivisionRating": standing.rating,
        "divisionRating": min(99, max(0, standing.rating + change)),
        "prevWins": wins,
        "wins": wins + (1 if roster.won else 0),
        "prevLosses": losses,
        "losses": losses + (0 if roster.won else 1),
        "roundsWon": roster.score,
        "roundsLost": sum(others),
        "teamSize": len(roster.participants),
        "rankingChangeType": "Default",
        "prevPlacementGamesLeft": 0,
        "placementGamesLeft": 0,
        "matchRegion": view.region,
    }
