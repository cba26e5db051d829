"""The PUBG sample set as drawn when the double starts: players, and each match's lobby.

What the endpoints need before any match is asked for is drawn here, from the set's seed, once:
each shard's registered players, and each match's id, time, mode, map and lobby (which player,
or which bot, fills each slot of each roster). How the match goes (placements, deaths, kills)
is drawn from the match's own seed when it is first asked for
(:mod:`matchkit.sampledata.pubg.outcome`). Both are deterministic: the same seed gives the same
set on every platform (:mod:`matchkit.sampledata.sampling`).

Example:
    >>> plan = build_plan()
    >>> len(plan.shards["steam"].matches), plan.shards["steam"].matches[0].mode.id  # doctest: +SKIP
    (480, 'squad-fpp')
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from fractions import Fraction
from functools import cached_property

from matchkit.rules.windows import parse_time
from matchkit.sampledata.pubg import parameters as p
from matchkit.sampledata.sampling import QuickDraw, WeightedTable, harmonic_weights

__all__ = ["Bot", "MatchPlan", "Player", "SampleSetPlan", "ShardPlan", "build_plan"]

_SYLLABLES = (
    "ka",
    "ro",
    "mi",
    "ze",
    "tu",
    "vo",
    "li",
    "na",
    "pe",
    "shi",
    "gor",
    "dan",
    "bel",
    "fin",
    "ash",
    "kor",
    "vel",
    "tor",
    "ryu",
    "jin",
    "mor",
    "sel",
    "ix",
    "ul",
)
_BOT_WORDS = ("Lap", "by", "ask", "ed", "Mor", "ning", "Sun", "rise", "Pine", "cone", "Ri", "ver")


@dataclass(frozen=True)
class Player:
    """A registered player of one shard.

    Attributes:
        id: ``account.`` and 32 hex digits.
        name: unique within the shard, in its own letter case (names are case sensitive).
        skill: 1, 2 or 4 (:data:`matchkit.sampledata.pubg.parameters.SKILLS`).
        created_at: when the account was made.
    """

    id: str
    name: str
    skill: int
    created_at: datetime


@dataclass(frozen=True)
class Bot:
    """A bot in one match: ``ai.`` and a number, a made-up name."""

    id: str
    name: str
    skill: int = p.BOT_SKILL


Slot = Player | Bot


@dataclass(frozen=True)
class MatchPlan:
    """One match as drawn at start.

    Attributes:
        id: the match id (a UUID).
        shard: its platform shard.
        created_at: when it started.
        duration: its length in seconds.
        mode: its game mode.
        map: its map.
        custom: a custom match (never served: PUBG keeps none).
        rosters: each roster's slots, in roster order.
        seed: the seed of its outcome, document and telemetry.
    """

    id: str
    shard: str
    created_at: datetime
    duration: int
    mode: p.GameMode
    map: p.MapSpec
    custom: bool
    rosters: tuple[tuple[Slot, ...], ...]
    seed: str

    @property
    def ended_at(self) -> datetime:
        return self.created_at + timedelta(seconds=self.duration)


@dataclass
class ShardPlan:
    """One shard's players and matches (matches in ``createdAt`` order)."""

    name: str
    players: tuple[Player, ...]
    matches: tuple[MatchPlan, ...]

    @cached_property
    def by_id(self) -> Mapping[str, MatchPlan]:
        return {match.id: match for match in self.matches}

    @cached_property
    def players_by_id(self) -> Mapping[str, Player]:
        return {player.id: player for player in self.players}

    @cached_property
    def players_by_name(self) -> Mapping[str, Player]:
        return {player.name: player for player in self.players}

    @cached_property
    def matches_of(self) -> Mapping[str, tuple[MatchPlan, ...]]:
        """Each registered player's matches, oldest first (custom matches left out)."""
        found: dict[str, list[MatchPlan]] = {}
        for match in self.matches:
            if match.custom:
                continue
            for roster in match.rosters:
                for slot in roster:
                    if isinstance(slot, Player):
                        found.setdefault(slot.id, []).append(match)
        return {key: tuple(value) for key, value in found.items()}


@dataclass
class SampleSetPlan:
    """The whole set: its seed, its end and each shard's plan."""

    seed: int
    as_of: datetime
    days: int
    shards: dict[str, ShardPlan] = field(default_factory=dict)


def build_plan(
    *, seed: int = p.SEED, as_of: str | datetime = p.AS_OF, days: int = p.DAYS
) -> SampleSetPlan:
    """Draw the set: each shard of :data:`~matchkit.sampledata.pubg.parameters.MATCHES_PER_DAY`
    its players and ``days`` days of matches before ``as_of``."""
    end = parse_time(as_of, parameter="as_of")
    plan = SampleSetPlan(seed, end, days)
    for shard, per_day in p.MATCHES_PER_DAY.items():
        draw = QuickDraw(f"{seed}:{shard}")
        players = _players(draw, end - timedelta(days=days + 400))
        plan.shards[shard] = ShardPlan(
            shard, players, _matches(draw, shard, players, end, days, per_day)
        )
    return plan


def _players(draw: QuickDraw, since: datetime) -> tuple[Player, ...]:
    names: set[str] = set()
    players = []
    for _ in range(p.PLAYERS):
        name = _unique_name(draw, names)
        created = since + timedelta(seconds=draw.integer(0, 300 * 86_400))
        players.append(
            Player(f"account.{draw.hex_id().lower()}", name, draw.pick(p.SKILLS), created)
        )
    return tuple(players)


def _unique_name(draw: QuickDraw, taken: set[str]) -> str:
    while True:
        parts = [draw.pick(_SYLLABLES) for _ in range(draw.integer(2, 3))]
        name = "".join(parts)
        if draw.chance("0.5"):
            name = name.capitalize()
        if draw.chance("0.4"):
            name += f"_{draw.integer(1, 999)}"
        # Names are case sensitive: no two players share a name in any letter case, so that a
        # name asked in the wrong case finds nobody rather than someone else.
        if name.lower() not in taken:
            taken.add(name.lower())
            return name


def _matches(
    draw: QuickDraw,
    shard: str,
    players: Sequence[Player],
    end: datetime,
    days: int,
    per_day: int,
) -> tuple[MatchPlan, ...]:
    activity = WeightedTable(players, harmonic_weights(len(players), p.ACTIVITY_SKEW))
    modes = WeightedTable(p.GAME_MODES, [mode.weight for mode in p.GAME_MODES])
    royale_maps = WeightedTable(p.MAPS, [spec.weight for spec in p.MAPS])
    maps_by_id = {spec.id: spec for spec in p.MAPS}
    matches = []
    start = end - timedelta(days=days)
    bot_number = 100
    for day in range(days):
        day_start = start + timedelta(days=day)
        for _ in range(per_day):
            mode = draw.table(modes)
            spec = maps_by_id[draw.pick(mode.maps)] if mode.maps else draw.table(royale_maps)
            duration = draw.integer(mode.minutes[0] * 60, mode.minutes[1] * 60)
            # Every match and its telemetry asset lie before the day's end.
            latest = 86_400 - duration - 900
            created = day_start + timedelta(seconds=draw.integer(0, latest))
            rosters, bot_number = _lobby(draw, mode, activity, bot_number)
            matches.append(
                MatchPlan(
                    id=draw.uuid(),
                    shard=shard,
                    created_at=created,
                    duration=duration,
                    mode=mode,
                    map=spec,
                    custom=draw.chance("0.03"),
                    rosters=rosters,
                    seed=f"{shard}:{day}:{draw.hex_id()}",
                )
            )
    matches.sort(key=lambda match: (match.created_at, match.id))
    return tuple(matches)


def _lobby(
    draw: QuickDraw, mode: p.GameMode, activity: WeightedTable[Player], bot_number: int
) -> tuple[tuple[tuple[Slot, ...], ...], int]:
    bots = float(Fraction(mode.bot_share))
    seen: set[str] = set()
    rosters = []
    for _ in range(mode.rosters):
        slots: list[Slot] = []
        for _ in range(mode.team_size):
            if bots and draw.chance(bots):
                bot_number += 1
                name = draw.pick(_BOT_WORDS) + draw.pick(_BOT_WORDS).lower()
                slots.append(Bot(f"ai.{bot_number}", name))
                continue
            player = draw.table(activity)
            while player.id in seen:
                player = draw.table(activity)
            seen.add(player.id)
            slots.append(player)
        rosters.append(tuple(slots))
    return tuple(rosters), bot_number
