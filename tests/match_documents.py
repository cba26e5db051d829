"""Small builders of JSON:API match documents for the normalizer's tests.

They write the global shape as the spec describes it; tests change what they need on top.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Any

Resource = dict[str, Any]

_counter = itertools.count()


def identifier(type_: str, id_: str) -> dict[str, str]:
    return {"type": type_, "id": id_}


def identifiers(type_: str, ids: list[str]) -> dict[str, list[dict[str, str]]]:
    return {"data": [identifier(type_, id_) for id_ in ids]}


def match(
    id_: str,
    *,
    rosters: Sequence[str] = (),
    rounds: Sequence[str] = (),
    assets: Sequence[str] = (),
    spectators: Sequence[tuple[str, str]] = (),
    created_at: str = "2026-10-30T12:00:00Z",
    stats: Any = None,
    tags: dict[str, Any] | None = None,
    **attributes: Any,
) -> Resource:
    return {
        "type": "match",
        "id": id_,
        "attributes": {
            "createdAt": created_at,
            "duration": 600,
            "gameMode": "arena",
            "patchVersion": "2.1",
            "shardId": "global",
            "stats": {"mapID": "MAP1", "type": "QUICK3V3", "region": "eu"}
            if stats is None
            else stats,
            "tags": {"rankingType": "RANKED", "serverType": "QUICK3V3"} if tags is None else tags,
            "titleId": "title",
            **attributes,
        },
        "relationships": {
            "assets": identifiers("asset", list(assets)),
            "rosters": identifiers("roster", list(rosters)),
            "rounds": identifiers("round", list(rounds)),
            "spectators": {"data": [identifier(t, i) for t, i in spectators]},
        },
        "links": {"self": f"https://example.invalid/matches/{id_}"},
    }


def roster(
    id_: str,
    *,
    participants: Sequence[str] = (),
    team: str | None = None,
    won: Any = "true",
    stats: dict[str, Any] | None = None,
) -> Resource:
    attributes: dict[str, Any] = {
        "shardId": "global",
        "stats": {"score": 3, "side": 1} if stats is None else stats,
    }
    if won is not None:
        attributes["won"] = won
    return {
        "type": "roster",
        "id": id_,
        "attributes": attributes,
        "relationships": {
            "participants": identifiers("participant", list(participants)),
            "team": {"data": identifier("team", team) if team else None},
        },
    }


def participant(
    id_: str,
    *,
    player: str | None = None,
    stats: dict[str, Any] | None = None,
    actor: str = "1208445212",
) -> Resource:
    return {
        "type": "participant",
        "id": id_,
        "attributes": {
            "actor": actor,
            "shardId": "global",
            "stats": {
                "attachment": 11,
                "emote": 12,
                "mount": 13,
                "outfit": 14,
                "side": 1,
                "kills": 2,
                "deaths": 1,
                "score": 100,
                "userID": player or "0",
            }
            if stats is None
            else stats,
        },
        "relationships": {"player": {"data": identifier("player", player) if player else None}},
    }


def round_(
    id_: str,
    *,
    participants: Sequence[str] = (),
    ordinal: int = 0,
    duration: int = 100,
    winning_team: int = 1,
) -> Resource:
    return {
        "type": "round",
        "id": id_,
        "attributes": {
            "duration": duration,
            "ordinal": ordinal,
            "stats": {"winningTeam": winning_team},
        },
        "relationships": {"participants": identifiers("participant", list(participants))},
    }


def player(id_: str, *, name: str = "", stats: Any = None) -> Resource:
    return {
        "type": "player",
        "id": id_,
        "attributes": {
            "name": name,
            "patchVersion": "",
            "shardId": "",
            "stats": stats,
            "titleId": "",
        },
        "relationships": {"assets": {"data": []}},
    }


def team(id_: str, *, name: str = "team") -> Resource:
    return {
        "type": "team",
        "id": id_,
        "attributes": {"name": name, "shardId": "global", "stats": {"wins": 1}, "titleId": "t"},
    }


def asset(id_: str) -> Resource:
    return {
        "type": "asset",
        "id": id_,
        "attributes": {
            "URL": f"https://example.invalid/{id_}.json",
            "createdAt": "2026-10-30T12:10:00Z",
            "description": "",
            "name": "telemetry",
        },
    }


def arena(
    match_id: str, *, per_side: int = 2, rounds: int = 3, created_at: str = "2026-10-30T12:00:00Z"
) -> tuple[Resource, list[Resource]]:
    """A complete arena match: 2 rosters of ``per_side`` registered participants, rounds, asset.

    Roster 1 (side 1) wins.
    """
    included: list[Resource] = []
    roster_ids = []
    participant_ids = []
    for side in (1, 2):
        members = []
        for number in range(per_side):
            participant_id = f"{match_id}-p{side}{number}"
            player_id = f"{match_id}-player{side}{number}"
            stats = {
                "attachment": side * 100 + number,
                "emote": 7,
                "mount": 1000 + side,
                "outfit": 9,
                "side": side,
                "kills": number + side,
                "deaths": 1,
                "score": 50 * side,
                "userID": player_id,
            }
            included.append(participant(participant_id, player=player_id, stats=stats))
            included.append(player(player_id))
            members.append(participant_id)
        roster_id = f"{match_id}-r{side}"
        included.append(
            roster(
                roster_id,
                participants=members,
                won="true" if side == 1 else "false",
                stats={"score": 3 if side == 1 else 1, "side": side},
            )
        )
        roster_ids.append(roster_id)
        participant_ids.extend(members)
    round_ids = [f"{match_id}-round{i}" for i in range(rounds)]
    for ordinal, round_id in enumerate(round_ids):
        included.append(round_(round_id, participants=participant_ids[:2], ordinal=ordinal))
    asset_id = f"{match_id}-asset"
    included.append(asset(asset_id))
    resource = match(
        match_id,
        rosters=roster_ids,
        rounds=round_ids,
        assets=[asset_id],
        created_at=created_at,
    )
    return resource, included


def page(*matches: tuple[Resource, list[Resource]], single: bool = False) -> dict[str, Any]:
    """A document of the given (match, included) pairs; ``single``: data is an object."""
    data = [m for m, _ in matches]
    included = [resource for _, resources in matches for resource in resources]
    return {
        "data": data[0] if single else data,
        "included": included,
        "links": {"self": "https://example.invalid/matches"},
        "meta": {},
    }


def unique_id(prefix: str = "id") -> str:
    return f"{prefix}{next(_counter)}"
