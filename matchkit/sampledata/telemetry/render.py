"""Telemetry files generated from match documents: deterministic and consistent with the match.

:func:`telemetry_events` turns a single-match document of the ``global`` shard into the event
log the real service linked as the match's telemetry asset (format:
``docs/telemetry-format.md``): a list of ``{"cursor", "type", "dataObject"}`` events, written
**unsorted** as the real file was, with increasing unique cursors in time order. Every draw comes
from a source seeded by the match id, so the same document always gives the same bytes
(:func:`telemetry_bytes`).

An Arena match's events agree with its document: per-round ``playerStats`` sum to the
participants' stats (:mod:`matchkit.sampledata.telemetry.split`), ``roundLength`` and
``winningTeam`` are the rounds', the final scores the rosters', one DeathEvent per death in its
round, one QueueEvent per player (bots do not queue), one MatchReservedUser per participant, bots
included (every id an event names has its reservation, as in the real file; parsers written for
real files, such as warhound, rely on it), five picks per player in round 0, TeamUpdateEvents in
ranked matches, the UserRoundSpell burst at the end, ServerShutdown last. A Royale match has only
match-level events (QueueEvent, MatchStart, MatchReservedUser,
DeathEvent, ServerShutdown). The model's parameters are in
:mod:`matchkit.sampledata.telemetry.parameters` and ``data/README.md``.

Example:
    >>> events = telemetry_events(document)  # doctest: +SKIP
    >>> sorted(events, key=lambda event: event["cursor"])[-1]["type"]  # doctest: +SKIP
    'Structures.ServerShutdown'
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC, datetime, timedelta
from fractions import Fraction
from typing import Any

import orjson

from matchkit.errors import InvalidArgumentError
from matchkit.rules import events as ev
from matchkit.sampledata import parameters as p
from matchkit.sampledata.sampling import QuickDraw
from matchkit.sampledata.telemetry import parameters as t
from matchkit.sampledata.telemetry import players
from matchkit.sampledata.telemetry.catalogue import character_kit
from matchkit.sampledata.telemetry.match import MatchView, ParticipantView, read_match
from matchkit.sampledata.telemetry.split import split_rounds

__all__ = [
    "ASSET_URL_PREFIX",
    "SERVICE_PATH_PREFIX",
    "telemetry_bytes",
    "telemetry_events",
]

SHARD = "global"
# Where the generator's documents point their telemetry asset (a CDN that serves nothing), and
# the path the reference service serves it under instead: the rest of the URL is the same
# (``YYYY/MM/DD/HH/mm/<asset-id>-telemetry.json``, the time being the asset's createdAt).
ASSET_URL_PREFIX = f"{p.ASSET_BASE_URL}/{p.GLOBAL_TITLE_ID}/{SHARD}/"
SERVICE_PATH_PREFIX = f"/telemetry/{SHARD}/"

SCORE_TYPES = (
    "USES",
    "DAMAGE_DONE",
    "DAMAGE_RECEIVED",
    "HEALING_DONE",
    "HEALING_RECEIVED",
    "CONTROL_DONE",
    "CONTROL_RECEIVED",
    "ENERGY_RECEIVED",
    "ENERGY_USED",
)
_RATES = tuple((name, float(Fraction(rate))) for name, rate in t.ROUND_EVENT_RATES)
_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_MILLISECOND = timedelta(milliseconds=1)


class _Log:
    """Events as (time, order, type, dataObject) while they are generated."""

    def __init__(self, view: MatchView) -> None:
        self.view = view
        self.items: list[tuple[int, int, str, dict[str, Any]]] = []
        self.match = {"matchID": view.match_id, "externalMatchID": ""}

    def add(self, time: int, kind: str, data: dict[str, Any]) -> None:
        self.items.append((time, len(self.items), kind, data))

    def match_event(self, time: int, kind: str, **fields: Any) -> None:
        self.add(time, kind, {"time": time, **self.match, **fields})


def _ms(moment: datetime) -> int:
    return (moment - _EPOCH) // _MILLISECOND


def _arrivals(log: _Log, draw: QuickDraw, start: int) -> None:
    """QueueEvents just before MatchStart, MatchStart at createdAt, then the reservations."""
    view = log.view
    clock_ns = draw.integer(10**16, 3 * 10**16)
    seated = [(roster, one) for roster in view.rosters for one in roster.participants]
    humans = [(roster, one) for roster, one in seated if not one.bot]
    queued = start - draw.integer(300, 500)
    for index, (roster, person) in enumerate(humans):
        time = queued + index
        event = players.queue_event(
            draw, view, roster, person, time=time, clock_ns=clock_ns + (time - start) * 10**6
        )
        log.add(time, ev.QUEUE, event)
    log.match_event(
        start,
        ev.MATCH_START,
        version=view.patch,
        type=view.server_type,
        gameMode=view.game_mode,
        mapID=view.map_id,
        teamSize=view.team_size,
        region=view.region,
    )
    # Every participant, bots too: each id an event names (a bot's DeathEvents and playerStats
    # name "0") has its MatchReservedUser, as in the real file. Bots come after the players and
    # draw from a source of their own: the players' events stay those drawn without them.
    bots = [(roster, one) for roster, one in seated if one.bot]
    for index, (roster, person) in enumerate(humans + bots):
        source = QuickDraw(f"telemetry:{view.match_id}:bot:{index}") if person.bot else draw
        log.add(
            start + 1 + index,
            ev.RESERVED_USER,
            players.reserved_user(source, view, roster, person, time=start + 1 + index),
        )


def _round_event(
    log: _Log, time: int, person: ParticipantView, ordinal: int, kind: str, value: int
) -> None:
    log.match_event(
        time,
        ev.ROUND_EVENT,
        userID=person.user_id,
        round=ordinal,
        character=person.character,
        type=kind,
        value=value,
        timeIntoRound=0,
    )


def _ability(draw: QuickDraw, abilities: tuple[int, ...], kind: str) -> int:
    if kind == "ULTIMATE_USED":
        return abilities[4]
    if kind == "RUNE_LASTHIT":
        return draw.pick(abilities[5:])
    return draw.pick(abilities[:4])


def _play_round(log: _Log, draw: QuickDraw, index: int, begin: int, stats: list[dict[str, int]]):
    """One round's events from ``begin`` (ms); returns the RoundFinishedEvent's time."""
    view = log.view
    round_ = view.rounds[index]
    end = begin + round_.duration * 1000
    people = view.participants
    death_times: list[list[int]] = []
    for row in stats:
        alive_until = min(begin + row["timeAlive"] * 1000, end)
        times = [
            max(begin + 1, alive_until - draw.integer(0, 400) - 1500 * number)
            for number in range(row["deaths"])
        ]
        death_times.append(sorted(times))
    if draw.chance(t.MOUNTS_AFTER_ELEVATOR_SHARE):
        humans = [one for one in people if not one.bot]
        if humans:
            _round_event(
                log,
                begin + draw.integer(100, 300),
                draw.pick(humans),
                round_.ordinal,
                "MOUNTS_AFTER_ELEVATOR",
                1,
            )
    for person, row, deaths in zip(people, stats, death_times, strict=True):
        for time in deaths:
            log.match_event(time, ev.DEATH, userID=person.user_id)
        if person.bot:
            continue
        abilities = character_kit(person.actor).abilities
        _round_event(
            log,
            begin + draw.integer(300, 2500),
            person,
            round_.ordinal,
            "MOUNT_DURATION",
            draw.integer(14, 23),
        )
        until = deaths[0] if deaths else end
        window = max(1, until - begin - 3000)
        for kind, rate in _RATES:
            expected = rate * row["timeAlive"] / 60
            count = int(expected) + (1 if draw.rng.random() < expected - int(expected) else 0)
            for _ in range(count):
                time = begin + 3000 + draw.integer(0, window - 1)
                if kind in ("ENERGY_ABILITY_USED", "ULTIMATE_USED", "RUNE_LASTHIT"):
                    value = _ability(draw, abilities, kind)
                else:
                    value = 12 if kind == "HEALTH_SHARD_PICKUP" else 8
                _round_event(log, min(time, until - 1), person, round_.ordinal, kind, value)
    for person, deaths in zip(people, death_times, strict=True):
        for died in deaths:
            for ally, ally_deaths in zip(people, death_times, strict=True):
                if ally is person or ally.side != person.side or ally.bot:
                    continue
                time = died + draw.integer(1000, 4000)
                standing = not ally_deaths or ally_deaths[0] > time
                if standing and time < end and draw.chance(t.ALLY_DEATH_PICKUP_SHARE):
                    value = draw.pick((50, 75, 100))
                    _round_event(log, time, ally, round_.ordinal, "ALLY_DEATH_ENERGY_PICKUP", value)
    finished = end + draw.integer(200, 900)
    log.match_event(
        finished,
        ev.ROUND_FINISHED,
        round=round_.ordinal,
        roundLength=round_.duration,
        winningTeam=round_.winning_team,
        playerStats=[
            {"userID": person.user_id, **row} for person, row in zip(people, stats, strict=True)
        ],
    )
    return finished


def _spells(log: _Log, draw: QuickDraw, time: int) -> None:
    low, high = t.USER_ROUND_SPELLS
    for round_ in log.view.rounds:
        for person in log.view.participants:
            if person.bot:
                continue
            abilities = character_kit(person.actor).abilities
            for _ in range(draw.integer(low, high)):
                log.add(
                    time,
                    ev.SPELL,
                    {
                        "time": time,
                        "accountId": person.user_id,
                        "matchId": log.view.match_id,
                        "round": round_.ordinal,
                        "character": person.character,
                        "typeId": draw.pick(abilities),
                        "sourceTypeId": draw.pick(abilities),
                        "scoreType": draw.pick(SCORE_TYPES),
                        "value": draw.integer(1, 300),
                    },
                )


def _arena(log: _Log, draw: QuickDraw, start: int) -> int:
    """Rounds, the end burst, the final score and team updates; returns the last time."""
    view = log.view
    rows = split_rounds(view, draw)
    begin = start + p.ARENA_INTRO_SECONDS * 1000
    picked_at = begin - draw.integer(1000, 3000)
    for roster in view.rosters:
        for person in roster.participants:
            if person.bot:
                continue
            kind = players.loadout(draw)
            for rite in players.battlerite_picks(draw, person, won=roster.won):
                log.add(
                    picked_at,
                    ev.PICK,
                    players.pick_event(view, person, rite, loadout=kind, time=picked_at),
                )
    last = begin
    for index, round_ in enumerate(view.rounds):
        last = _play_round(log, draw, index, begin, rows[index])
        begin += (round_.duration + p.ARENA_ROUND_BREAK_SECONDS) * 1000
    end = max(start + view.duration * 1000, last + 1000)
    _spells(log, draw, end - 1)
    sides = {roster.side: roster.score for roster in view.rosters}
    finished = {
        "time": end,
        "teamOneScore": sides.get(1, 0),
        "teamTwoScore": sides.get(2, 0),
        "matchLength": view.duration,
        **log.match,
        "leavers": [],
        "region": view.region,
    }
    log.add(end, ev.MATCH_FINISHED, finished)
    if view.ranked:
        updated = end + draw.integer(300, 600)
        for roster in view.rosters:
            log.add(updated, ev.TEAM_UPDATE, players.team_update(draw, view, roster, time=updated))
        return updated
    return end


def _royale(log: _Log, draw: QuickDraw, start: int) -> int:
    """One DeathEvent per death: the worst-placed rosters fall first."""
    view = log.view
    rosters = sorted(view.rosters, key=lambda roster: -(roster.placement or len(view.rosters)))
    length = max(view.duration, 80)
    falls = sorted(draw.integer(60, length - 10) for _ in rosters)
    for roster, fall in zip(rosters, falls, strict=True):
        for person in roster.participants:
            deaths = person.stats.get("deaths", 0 if roster.placement == 1 else 1)
            for _ in range(deaths):
                time = start + fall * 1000 - draw.integer(0, 30_000)
                log.match_event(max(start + 1, time), ev.DEATH, userID=person.user_id)
    return start + view.duration * 1000


def _events_of(view: MatchView) -> list[dict[str, Any]]:
    """The telemetry events of a match read with :func:`read_match`, in file (unsorted) order."""
    draw = QuickDraw(f"telemetry:{view.match_id}")
    log = _Log(view)
    start = _ms(view.created_at)
    _arrivals(log, draw, start)
    last = _royale(log, draw, start) if view.royale else _arena(log, draw, start)
    low, high = t.SHUTDOWN_EXTRA_SECONDS
    match_time = view.duration + draw.integer(low, high)
    shutdown = max(start + match_time * 1000, last + 1000)
    log.match_event(shutdown, ev.SHUTDOWN, matchTime=match_time, reason="MATCH_COMPLETED")
    cursor = draw.integer(3_000_000_000, 3_500_000_000)
    events: list[dict[str, Any]] = []
    for _time, _order, kind, data in sorted(log.items, key=lambda item: (item[0], item[1])):
        cursor += draw.integer(1, 40) if events else 0
        events.append({"cursor": cursor, "type": kind, "dataObject": data})
    return draw.shuffled(events)


def telemetry_events(document: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The telemetry events of a single-match ``global`` document, in file (unsorted) order.

    Raises:
        InvalidArgumentError: the match is not of the ``global`` shard (``na`` matches had no
            telemetry).
        DocumentError: the document holds no match or links resources it does not include.
    """
    view = read_match(document)
    if view.shard != SHARD:
        raise InvalidArgumentError(
            f"match {view.match_id} is of shard {view.shard or '(none)'}; only {SHARD} matches "
            "have telemetry",
            parameter="document",
        )
    return _events_of(view)


def telemetry_bytes(document: Mapping[str, Any]) -> bytes:
    """The telemetry file of a match: compact JSON, the same bytes on every run."""
    return orjson.dumps(telemetry_events(document))
