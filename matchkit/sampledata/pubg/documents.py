"""The PUBG sample set's documents, in the shape of the recorded ones (``../shared/pubg/``).

A match: ``data`` the match (``createdAt``, ``duration``, ``gameMode``, ``mapName``,
``matchType``, ``isCustomMatch``, ``seasonState``, ``shardId``, ``titleId``, ``stats`` and
``tags`` null; its rosters and its one asset), ``included`` its rosters (``stats.rank``,
``stats.teamId``, ``won`` as the text ``"true"`` or ``"false"``), its participants (the 23
stats of the recorded documents, ``stats.playerId`` an ``account.`` or an ``ai.`` id, ``actor``
empty) and the telemetry asset. Players list their matches; a sample lists match ids; seasons
are ids with two flags. Links are the service's to add (its base URL is its own).
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime, timedelta
from typing import Any

from matchkit.rules.windows import format_time
from matchkit.sampledata.pubg import parameters as p
from matchkit.sampledata.pubg.outcome import Outcome, draw_outcome
from matchkit.sampledata.pubg.plan import Bot, MatchPlan, Player
from matchkit.sampledata.sampling import QuickDraw

__all__ = [
    "asset_created_at",
    "asset_id",
    "match_document",
    "player_resource",
    "sample_resource",
    "season_resources",
    "telemetry_path",
]

Document = dict[str, Any]


def asset_id(match: MatchPlan) -> str:
    """The id of the match's telemetry asset."""
    return QuickDraw(f"asset:{match.seed}").uuid()


def asset_created_at(match: MatchPlan) -> datetime:
    """When the telemetry asset was made: the match's end and 1 to 10 minutes more."""
    return match.ended_at + timedelta(
        seconds=QuickDraw(f"asset-time:{match.seed}").integer(60, 600)
    )


def telemetry_path(match: MatchPlan) -> str:
    """The path of the match's telemetry file on the CDN:
    ``/<title>/<shard>/YYYY/MM/DD/HH/mm/<asset id>-telemetry.json``."""
    moment = asset_created_at(match)
    return (
        f"/{p.TELEMETRY_TITLE}/{match.shard}/{moment:%Y/%m/%d/%H/%M}/"
        f"{asset_id(match)}-telemetry.json"
    )


def match_document(
    match: MatchPlan, *, telemetry_url: str, outcome: Outcome | None = None
) -> Document:
    """The single-match document (without ``links``: the service adds them).

    Args:
        match: the match.
        telemetry_url: the CDN's base URL (the asset's ``URL`` is it and :func:`telemetry_path`).
        outcome: its outcome, when already drawn.
    """
    outcome = outcome or draw_outcome(match)
    draw = QuickDraw(f"ids:{match.seed}")
    roster_ids = [draw.uuid() for _ in match.rosters]
    participants = []
    rosters = []
    for r, roster in enumerate(match.rosters):
        members = []
        for s, slot in enumerate(roster):
            participant_id = draw.uuid()
            members.append({"type": "participant", "id": participant_id})
            participants.append(_participant(match, outcome, (r, s), slot, participant_id))
        rosters.append(
            {
                "type": "roster",
                "id": roster_ids[r],
                "attributes": {
                    "stats": {"rank": outcome.ranks[r], "teamId": r + 1},
                    "won": "true" if outcome.ranks[r] == 1 else "false",
                    "shardId": match.shard,
                },
                "relationships": {"team": {"data": None}, "participants": {"data": members}},
            }
        )
    asset = {
        "type": "asset",
        "id": asset_id(match),
        "attributes": {
            "name": "telemetry",
            "description": "",
            "createdAt": format_time(asset_created_at(match)),
            "URL": f"{telemetry_url.rstrip('/')}{telemetry_path(match)}",
        },
    }
    data = {
        "type": "match",
        "id": match.id,
        "attributes": {
            "createdAt": format_time(match.created_at),
            "duration": match.duration,
            "gameMode": match.mode.id,
            "isCustomMatch": match.custom,
            "mapName": match.map.id,
            "matchType": "custom" if match.custom else match.mode.match_type,
            "seasonState": p.SEASON_STATE,
            "shardId": match.shard,
            "stats": None,
            "tags": None,
            "titleId": p.TITLE_ID,
        },
        "relationships": {
            "rosters": {"data": [{"type": "roster", "id": rid} for rid in roster_ids]},
            "assets": {"data": [{"type": "asset", "id": asset["id"]}]},
        },
    }
    return {"data": data, "included": [*rosters, *participants, asset], "meta": {}}


def _participant(
    match: MatchPlan, outcome: Outcome, seat: tuple[int, int], slot: Player | Bot, pid: str
) -> Document:
    one = outcome.stats[seat]
    survived = outcome.survived[seat]
    stats = {
        "DBNOs": one.dbnos,
        "assists": one.assists,
        "boosts": one.boosts,
        "damageDealt": round(one.damage_dealt, 4),
        "deathType": one.death_type,
        "headshotKills": one.headshot_kills,
        "heals": one.heals,
        "killPlace": one.kill_place,
        "killStreaks": one.kill_streaks,
        "kills": one.kills,
        "longestKill": one.longest_kill,
        "name": slot.name,
        "playerId": slot.id,
        "revives": 0,
        "rideDistance": one.ride_distance,
        "roadKills": 0,
        "swimDistance": one.swim_distance,
        "teamKills": 0,
        "timeSurvived": round(survived, 1),
        "vehicleDestroys": 0,
        "walkDistance": one.walk_distance,
        "weaponsAcquired": one.weapons_acquired,
        "winPlace": outcome.ranks[seat[0]],
    }
    return {
        "type": "participant",
        "id": pid,
        "attributes": {"stats": stats, "actor": "", "shardId": match.shard},
    }


def player_resource(
    player: Player, matches: Iterable[MatchPlan], *, shard: str, with_times: bool
) -> Document:
    """A player resource listing ``matches`` (newest first), as ``/players`` answers it.

    ``with_times``: the collection's players carry ``createdAt`` and ``updatedAt``; the single
    player's document does not (as recorded).
    """
    listed = sorted(matches, key=lambda match: (match.created_at, match.id), reverse=True)
    attributes: Document = {
        "name": player.name,
        "stats": None,
        "titleId": p.TITLE_ID,
        "shardId": shard,
        "patchVersion": p.PATCH_VERSION,
    }
    if with_times:
        updated = listed[0].ended_at if listed else player.created_at
        attributes["createdAt"] = format_time(player.created_at)
        attributes["updatedAt"] = format_time(updated)
    return {
        "type": "player",
        "id": player.id,
        "attributes": attributes,
        "relationships": {
            "assets": {"data": []},
            "matches": {"data": [{"type": "match", "id": match.id} for match in listed]},
        },
    }


def sample_resource(
    start: datetime, matches: Iterable[MatchPlan], *, shard: str, seed: int
) -> Document:
    """The sample starting at ``start``: its id, time and match ids."""
    return {
        "type": "sample",
        "id": QuickDraw(f"sample:{seed}:{shard}:{start.isoformat()}").uuid(),
        "attributes": {"createdAt": format_time(start), "titleId": p.TITLE_ID, "shardId": shard},
        "relationships": {
            "matches": {"data": [{"type": "match", "id": match.id} for match in matches]}
        },
    }


def season_resources() -> list[Document]:
    """The seasons of ``/seasons``."""
    return [
        {
            "type": "season",
            "id": season,
            "attributes": {"isCurrentSeason": current, "isOffseason": False},
        }
        for season, current in p.SEASONS
    ]
