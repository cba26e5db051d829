"""JSON:API resources of the match-data service, one builder per resource type, and pages.

They write the ``global`` shape as the spec describes it (``shard=None`` leaves ``shardId`` out,
as the older ``na`` shape does); tests change what they need on top.

Example:
    >>> document = page(arena("M1"))
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Any

__all__ = [
    "Resource",
    "arena",
    "asset",
    "identifier",
    "identifiers",
    "match",
    "page",
    "participant",
    "player",
    "roster",
    "round_",
    "team",
    "unique_id",
]

Resource = dict[str, Any]

_counter = itertools.count()
_DEFAULT = object()


def identifier(type_: str, id_: str) -> dict[str, str]:
    return {"type": type_, "id": id_}


def identifiers(type_: str, ids: Sequence[str]) -> dict[str, list[dict[str, str]]]:
    return {"data": [identifier(type_, id_) for id_ in ids]}


def _with_shard(shard: str | None, **attributes: Any) -> dict[str, Any]:
    """Attributes with ``shardId`` in its wire place (second), or without it for ``None``."""
    first, *rest = attributes.items()
    shard_part = {} if shard is None else {"shardId": shard}
    return {first[0]: first[1], **shard_part, **dict(rest)}


def match(
    id_: str,
    *,
    rosters: Sequence[str] = (),
    rounds: Sequence[str] | None = (),
    assets: Sequence[str] | None = (),
    spectators: Sequence[tuple[str, str]] | None = (),
    created_at: str = "2026-10-30T12:00:00Z",
    stats: Any = None,
    tags: Any = _DEFAULT,
    links: dict[str, str] | None = _DEFAULT,  # type: ignore[assignment]
    **attributes: Any,
) -> Resource:
    """A match; ``None`` for a relationship (or ``tags``, ``links``) leaves it out."""
    relationships: dict[str, Any] = {}
    if assets is not None:
        relationships["assets"] = identifiers("asset", assets)
    relationships["rosters"] = identifiers("roster", rosters)
    if rounds is not None:
        relationships["rounds"] = identifiers("round", rounds)
    if spectators is not None:
        relationships["spectators"] = {"data": [identifier(t, i) for t, i in spectators]}
    values: dict[str, Any] = {
        "createdAt": created_at,
        "duration": 600,
        "gameMode": "arena",
        "patchVersion": "2.1",
        "shardId": "global",
        "stats": {"mapID": "MAP1", "type": "QUICK3V3", "region": "eu"} if stats is None else stats,
        "tags": {"rankingType": "RANKED", "serverType": "QUICK3V3"} if tags is _DEFAULT else tags,
        "titleId": "title",
    }
    values.update(attributes)
    if tags is None:
        del values["tags"]
    resource: Resource = {
        "type": "match",
        "id": id_,
        "attributes": values,
        "relationships": relationships,
    }
    if links is _DEFAULT:
        links = {"self": f"https://example.invalid/matches/{id_}"}
    if links is not None:
        resource["links"] = links
    return resource


def roster(
    id_: str,
    *,
    participants: Sequence[str] = (),
    team: str | None = None,
    won: Any = "true",
    stats: dict[str, Any] | None = None,
    shard: str | None = "global",
) -> Resource:
    """A roster; ``won=None`` leaves ``won`` out (some real rosters have none)."""
    attributes: dict[str, Any] = {} if shard is None else {"shardId": shard}
    attributes["stats"] = {"score": 3, "side": 1} if stats is None else stats
    if won is not None:
        attributes["won"] = won
    return {
        "type": "roster",
        "id": id_,
        "attributes": attributes,
        "relationships": {
            "participants": identifiers("participant", participants),
            "team": {"data": identifier("team", team) if team else None},
        },
    }


def participant(
    id_: str,
    *,
    player: str | None = None,
    stats: dict[str, Any] | None = None,
    actor: str = "1208445212",
    shard: str | None = "global",
    unlinked: Any = None,
) -> Resource:
    """A participant, linked to ``player`` when given.

    Args:
        unlinked: the ``player`` relationship of a participant without a player: ``None`` writes
            ``{"data": null}``; :data:`OMIT` leaves the relationship out.
    """
    relationships: dict[str, Any] = {}
    if player:
        relationships["player"] = {"data": identifier("player", player)}
    elif unlinked is not OMIT:
        relationships["player"] = {"data": None}
    return {
        "type": "participant",
        "id": id_,
        "attributes": _with_shard(
            shard,
            actor=actor,
            stats={
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
        ),
        "relationships": relationships,
    }


OMIT = object()
"""Leave a member out (see :func:`participant`)."""


def round_(
    id_: str,
    *,
    participants: Sequence[str] = (),
    ordinal: int = 0,
    duration: int | None = 100,
    winning_team: int | None = 1,
) -> Resource:
    """A round; ``None`` leaves ``duration`` (or the winning team) out."""
    attributes: dict[str, Any] = {} if duration is None else {"duration": duration}
    attributes["ordinal"] = ordinal
    attributes["stats"] = {} if winning_team is None else {"winningTeam": winning_team}
    return {
        "type": "round",
        "id": id_,
        "attributes": attributes,
        "relationships": {"participants": identifiers("participant", participants)},
    }


def player(
    id_: str,
    *,
    name: str = "",
    stats: Any = None,
    shard: str = "",
    title: str = "",
    assets: bool = True,
) -> Resource:
    """A player (the real services often sent stubs like the default one)."""
    resource: Resource = {
        "type": "player",
        "id": id_,
        "attributes": {
            "name": name,
            "patchVersion": "",
            "shardId": shard,
            "stats": stats,
            "titleId": title,
        },
    }
    if assets:
        resource["relationships"] = {"assets": {"data": []}}
    return resource


def team(
    id_: str, *, name: str = "team", shard: str = "global", stats: Any = None, title: str = "t"
) -> Resource:
    return {
        "type": "team",
        "id": id_,
        "attributes": {
            "name": name,
            "shardId": shard,
            "stats": {"wins": 1} if stats is None else stats,
            "titleId": title,
        },
    }


def asset(
    id_: str,
    *,
    url: str | None = None,
    created_at: str = "2026-10-30T12:10:00Z",
) -> Resource:
    return {
        "type": "asset",
        "id": id_,
        "attributes": {
            "URL": url or f"https://example.invalid/{id_}.json",
            "createdAt": created_at,
            "description": "",
            "name": "telemetry",
        },
    }


def arena(
    match_id: str,
    *,
    per_side: int = 2,
    rounds: int = 3,
    created_at: str = "2026-10-30T12:00:00Z",
    player_ids: Sequence[str] = (),
    player_stats: Sequence[Any] = (),
) -> tuple[Resource, list[Resource]]:
    """A complete arena match: 2 rosters of ``per_side`` registered participants, rounds, asset.

    Roster 1 (side 1) wins. The players are ``{match_id}-player{side}{number}``, side 1 first;
    ``player_ids`` and ``player_stats`` give the first players other ids (the same player in
    several matches) and their stats (the rest keep theirs, and no stats).
    """
    included: list[Resource] = []
    roster_ids = []
    participant_ids = []
    for side in (1, 2):
        members = []
        for number in range(per_side):
            position = (side - 1) * per_side + number
            participant_id = f"{match_id}-p{side}{number}"
            player_id = f"{match_id}-player{side}{number}"
            if position < len(player_ids):
                player_id = player_ids[position]
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
            stats_of_player = player_stats[position] if position < len(player_stats) else None
            included.append(player(player_id, stats=stats_of_player))
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
