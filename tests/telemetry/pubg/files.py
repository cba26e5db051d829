"""The recorded PUBG telemetry files, read raw, and small files built from their events' shapes.

The recorded files stay in ``../shared/pubg`` (read there, never copied): the excerpt of 29 real
events (one per type) and a whole 2025 file of 2,871 events.
"""

from __future__ import annotations

import copy
from functools import cache
from pathlib import Path
from typing import Any

import orjson

from tests.conftest import shared_path

EXCERPT = "telemetry-excerpt-tpa-dist.json"
WHOLE = "telemetry-js1936-2025-custom-erangel.json"
WHOLE_MATCH = "c2fb5093-866c-4d6d-96bf-7abf755094af"
EXCERPT_MATCH = "8c1c8a56-4104-46ef-8aec-5e012b041574"
_MISSING = object()


def recorded(name: str) -> Path:
    """A recorded file's path in ../shared/pubg."""
    return shared_path("pubg", name)


@cache
def _events(name: str) -> bytes:
    return recorded(name).read_bytes()


def raw_events(name: str) -> list[dict[str, Any]]:
    """A recorded file's events, as JSON gives them (a fresh copy each call)."""
    return orjson.loads(_events(name))


def value_at(event: Any, path: tuple[str, ...]) -> Any:
    """The value at ``path`` in an event, ``None`` where a member is absent or null."""
    for key in path:
        if not isinstance(event, dict) or key not in event:
            return None
        event = event[key]
    return event


def of_type(events: list[dict[str, Any]], event_type: str) -> list[dict[str, Any]]:
    return [event for event in events if event["_T"] == event_type]


def small_file(*extra: dict[str, Any], match: str = WHOLE_MATCH) -> list[dict[str, Any]]:
    """A small real-shaped file: the whole file's LogMatchDefinition (naming ``match``), its
    first LogMatchStart, LogPlayerPosition, LogPlayerTakeDamage, LogPlayerKillV2 and LogItemPickup,
    then ``extra`` events."""
    events = raw_events(WHOLE)
    chosen = [copy.deepcopy(of_type(events, "LogMatchDefinition")[0])]
    chosen[0]["MatchId"] = chosen[0]["MatchId"].rsplit(".", 1)[0] + "." + match
    for kind in (
        "LogMatchStart",
        "LogPlayerPosition",
        "LogPlayerTakeDamage",
        "LogPlayerKillV2",
        "LogItemPickup",
    ):
        chosen.append(copy.deepcopy(of_type(events, kind)[0]))
    return [*chosen, *extra]


def encoded(events: list[dict[str, Any]]) -> bytes:
    return orjson.dumps(events)


def with_player_ids(frames: Any) -> Any:
    """MatchFrames of recorded PUBG matches with ``participants.player_id`` from
    ``stats.playerId`` (the PUBG profile's normalizer fills it; until then the test does)."""
    import dataclasses

    participants = frames.participants
    if "stats_player_id" in participants:
        filled = participants["player_id"].fillna(participants["stats_player_id"])
        participants = participants.assign(player_id=filled)
    return dataclasses.replace(frames, participants=participants)


def telemetry_of_match(frames: Any, match_id: str) -> list[dict[str, Any]]:
    """A telemetry file consistent with one match of MatchFrames, made of the whole recorded
    file's event shapes: its definition, start and end naming every participant, a position per
    participant, and each participant's ``kills`` as LogPlayerKillV2 of a player of another
    roster."""
    shapes = raw_events(WHOLE)
    participants = frames.participants[frames.participants["match_id"] == match_id]
    players = list(
        zip(
            participants["player_id"],
            participants["roster_id"],
            participants["kills"],
            participants["name"],
            strict=True,
        )
    )
    teams = {
        roster: number for number, roster in enumerate(dict.fromkeys(p[1] for p in players), 1)
    }

    def character(player: tuple[Any, ...]) -> dict[str, Any]:
        shape = copy.deepcopy(of_type(shapes, "LogPlayerPosition")[0]["character"])
        shape.update(accountId=player[0], name=player[3], teamId=teams[player[1]])
        return shape

    definition = copy.deepcopy(of_type(shapes, "LogMatchDefinition")[0])
    definition["MatchId"] = f"match.bro.official.pc-2018-30.steam.tdm.as.2026.04.07.{match_id}"
    start = copy.deepcopy(of_type(shapes, "LogMatchStart")[0])
    wrapper = start["characters"][0]
    start["characters"] = [{**wrapper, "character": character(p)} for p in players]
    events = [definition, start]
    for player in players:
        position = copy.deepcopy(of_type(shapes, "LogPlayerPosition")[0])
        position["character"] = character(player)
        events.append(position)
    for number, killer in enumerate(players):
        enemies = [p for p in players if p[1] != killer[1]]
        for kill in range(int(killer[2])):
            event = copy.deepcopy(of_type(shapes, "LogPlayerKillV2")[0])
            victim = enemies[(number + kill) % len(enemies)]
            event.update(
                killer=character(killer), finisher=character(killer), victim=character(victim)
            )
            events.append(event)
    end = copy.deepcopy(of_type(shapes, "LogMatchEnd")[0])
    end["characters"] = [{**wrapper, "character": character(p)} for p in players]
    end["allWeaponStats"] = []
    end["gameResultOnFinished"] = {"results": []}
    events.append(end)
    return events
