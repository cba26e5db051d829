"""The PUBG double's endpoints: status, players, samples, seasons, a match.

Each answers from the sample set at the service's now: a match exists from its start plus its
length until the retention has passed (and never when custom); a player lists the matches of
theirs that exist; a sample lists the matches of its day that still exist. Unknown players,
matches and paths are 404s with PUBG's bodies.
"""

from __future__ import annotations

from collections.abc import Sequence
from urllib.parse import parse_qsl, urlencode

import orjson
from starlette.requests import Request

from matchkit.errors import InvalidArgumentError
from matchkit.sampledata.pubg.documents import (
    player_resource,
    sample_resource,
    season_resources,
)
from matchkit.sampledata.pubg.plan import Player
from matchkit.service.pubg.app import Context, PubgService
from matchkit.service.pubg.bodies import status_body
from matchkit.service.responses import RawResponse

__all__ = ["HANDLERS", "not_found"]

_PLAYER_FILTERS = {"filter[playerNames]": "names", "filter[playerIds]": "ids"}
_SAMPLE_START = "filter[createdAt-start]"


def _params(request: Request) -> list[tuple[str, str]]:
    return parse_qsl(request.scope["query_string"].decode("latin-1"), keep_blank_values=True)


def _no_params(request: Request, what: str) -> None:
    params = _params(request)
    if params:
        raise InvalidArgumentError(f"{what} takes no query parameters; remove {params[0][0]!r}")


def _base_url(request: Request) -> str:
    return str(request.base_url).rstrip("/")


async def status(service: PubgService, request: Request, context: Context) -> RawResponse:
    _no_params(request, "/status")
    return context.answer(
        200, status_body(version=service.version, released_at=service.released_at)
    )


async def get_match(service: PubgService, request: Request, context: Context) -> RawResponse:
    _no_params(request, "a match")
    shard, match_id = request.path_params["shard"], request.path_params["match_id"]
    match = service.sample_set.match(shard, match_id, now=service.now())
    if match is None:
        days = service.profile.retention.days
        return context.error(
            404,
            f"no match {match_id!r} on shard {shard} (matches are kept {days} days; custom "
            "matches are not available)",
        )
    link = f"{_base_url(request)}{request.scope['path']}"
    document = service.sample_set.document(match, telemetry_url=service.telemetry_url)
    body = {
        "data": {**document["data"], "links": {"self": link, "schema": ""}},
        "included": document["included"],
        "links": {"self": link},
        "meta": {},
    }
    return context.answer(200, orjson.dumps(body))


def _players_wanted(request: Request, service: PubgService) -> tuple[str, str, tuple[str, ...]]:
    """``(wire filter, what it selects, its values)`` of a players request."""
    params = _params(request)
    for key, _ in params:
        if key not in _PLAYER_FILTERS:
            raise InvalidArgumentError(
                f"{key!r} is not a parameter of /players; give filter[playerNames] or "
                "filter[playerIds]"
            )
    if len(params) != 1:
        raise InvalidArgumentError(
            "give one of filter[playerNames] or filter[playerIds], with up to "
            f"{service.profile.player_batch} comma-separated values"
        )
    key, text = params[0]
    values = tuple(value.strip() for value in text.split(","))
    if not all(values):
        raise InvalidArgumentError(f"{key} holds an empty value; give non-empty values")
    service.profile.checked_batch(values, parameter=key)
    return key, _PLAYER_FILTERS[key], tuple(dict.fromkeys(values))


async def list_players(service: PubgService, request: Request, context: Context) -> RawResponse:
    shard = request.path_params["shard"]
    key, kind, values = _players_wanted(request, service)
    found: list[Player] = []
    for value in values:
        player = service.sample_set.find_player(
            shard, **({"player_id": value} if kind == "ids" else {"name": value})
        )
        if player is not None:
            found.append(player)
    if not found:
        return context.error(404, "No Players Found Matching Criteria")
    base = _base_url(request)
    now = service.now()
    data = [
        _with_links(
            player_resource(
                player,
                service.sample_set.player_matches(shard, player, now=now),
                shard=shard,
                with_times=True,
            ),
            base,
            shard,
        )
        for player in found
    ]
    query = urlencode({key: ",".join(values)}, safe="[],")
    self_link = f"{base}{request.scope['path']}?{query}"
    return context.answer(
        200, orjson.dumps({"data": data, "links": {"self": self_link}, "meta": {}})
    )


async def get_player(service: PubgService, request: Request, context: Context) -> RawResponse:
    _no_params(request, "a player")
    shard, player_id = request.path_params["shard"], request.path_params["player_id"]
    player = service.sample_set.find_player(shard, player_id=player_id)
    if player is None:
        return context.error(404, f"no player {player_id!r} on shard {shard}")
    base = _base_url(request)
    matches = service.sample_set.player_matches(shard, player, now=service.now())
    resource = _with_links(
        player_resource(player, matches, shard=shard, with_times=False), base, shard
    )
    link = f"{base}{request.scope['path']}"
    return context.answer(
        200, orjson.dumps({"data": resource, "links": {"self": link}, "meta": {}})
    )


def _with_links(resource: dict, base: str, shard: str) -> dict:
    resource["links"] = {"schema": "", "self": f"{base}/shards/{shard}/players/{resource['id']}"}
    return resource


async def samples(service: PubgService, request: Request, context: Context) -> RawResponse:
    shard = request.path_params["shard"]
    params = dict(_params(request))
    unknown = sorted(set(params) - {_SAMPLE_START})
    if unknown:
        raise InvalidArgumentError(
            f"{unknown[0]!r} is not a parameter of /samples; it takes {_SAMPLE_START} only"
        )
    rule = service.profile.samples
    assert rule is not None  # the profile serves samples: its endpoints name them
    now = service.now()
    if _SAMPLE_START in params:
        start = rule.checked_start(params[_SAMPLE_START], now=now, parameter=_SAMPLE_START)
    else:
        start = service.sample_set.latest_sample_start(now)
    day = start.replace(hour=0, minute=0, second=0, microsecond=0)
    matches = service.sample_set.sample(shard, day, now=now)
    resource = sample_resource(day, matches, shard=shard, seed=service.sample_set.plan.seed)
    return context.answer(200, orjson.dumps({"data": resource}))


async def seasons(service: PubgService, request: Request, context: Context) -> RawResponse:
    _no_params(request, "/seasons")
    link = f"{_base_url(request)}{request.scope['path']}"
    body = {"data": season_resources(), "links": {"self": link}, "meta": {}}
    return context.answer(200, orjson.dumps(body))


async def not_found(service: PubgService, request: Request, context: Context) -> RawResponse:
    endpoints: Sequence[str] = [
        path for name, path in service.profile.endpoints.items() if name in HANDLERS
    ]
    return context.error(
        404,
        f"no such endpoint: {request.scope['path']}; the service answers {', '.join(endpoints)}",
    )


HANDLERS = {
    "status": status,
    "match": get_match,
    "players": list_players,
    "player": get_player,
    "samples": samples,
    "seasons": seasons,
}
"""Each endpoint of the profile the API answers, by name (telemetry is the CDN's)."""
