"""What each match endpoint answers, once a request passed the checks of
:mod:`matchkit.service.endpoint`: the status, match lists, single matches and players."""

from __future__ import annotations

from urllib.parse import urlencode

from starlette.requests import Request

from matchkit.rules.windows import RETENTION, TimeWindow
from matchkit.service.documents import list_body, page_links, single_body, status_body
from matchkit.service.endpoint import Context, base_url_of, refuse_query
from matchkit.service.params import list_query, query_items
from matchkit.service.players import FILTERS as PLAYER_FILTERS
from matchkit.service.players import player_body, players_body, players_filter
from matchkit.service.responses import RawResponse
from matchkit.service.state import SERVICE_NAME, Service

__all__ = ["get_match", "get_player", "list_matches", "list_players", "status"]


async def status(service: Service, request: Request, context: Context) -> RawResponse:
    refuse_query(request, "/status")
    body = status_body(name=SERVICE_NAME, version=service.version, released_at=service.released_at)
    return context.answer(200, body)


async def list_matches(service: Service, request: Request, context: Context) -> RawResponse:
    shard = request.path_params["shard"]
    params = query_items(request.scope["query_string"])
    query = list_query(shard, params)
    now = service.now()
    window = query.window(now=now)
    matches = service.store.list_matches(query, window, listing=service.listing(now))
    base_url = base_url_of(request)
    links = page_links(
        base_url + request.scope["path"], params, limit=query.limit, offset=query.offset
    )
    return context.answer(200, list_body(matches, links=links, base_url=base_url))


async def get_match(service: Service, request: Request, context: Context) -> RawResponse:
    shard = request.path_params["shard"]
    refuse_query(request, "a single match")
    match_id = request.path_params["match_id"]
    now = service.now()
    match = service.store.get_match(
        shard, match_id, window=TimeWindow(now - RETENTION, now), listing=service.listing(now)
    )
    if match is None:
        return context.error(
            404,
            f"no match {match_id!r} on shard {shard} (matches are kept {RETENTION.days} days)",
        )
    base_url = base_url_of(request)
    body = single_body(
        match,
        as_list=shard == "global",
        self_link=f"{base_url}{request.scope['path']}",
        base_url=base_url,
    )
    return context.answer(200, body)


async def list_players(service: Service, request: Request, context: Context) -> RawResponse:
    shard = request.path_params["shard"]
    key, values = players_filter(query_items(request.scope["query_string"]))
    kind = PLAYER_FILTERS[key]
    now = service.now()
    found = service.store.players(shard, before=now, listing=service.listing(now), **{kind: values})
    base_url = base_url_of(request)
    query = urlencode({key: ",".join(values)}, safe="[],")
    self_link = f"{base_url}{request.scope['path']}?{query}"
    body = players_body(
        found, values, kind=kind, shard=shard, base_url=base_url, self_link=self_link
    )
    return context.answer(200, body)


async def get_player(service: Service, request: Request, context: Context) -> RawResponse:
    shard = request.path_params["shard"]
    refuse_query(request, "a single player")
    player_id = request.path_params["player_id"]
    now = service.now()
    found = service.store.players(shard, before=now, ids=[player_id], listing=service.listing(now))
    if player_id not in found:
        return context.error(404, f"no player {player_id!r} on shard {shard}")
    base_url = base_url_of(request)
    body = player_body(
        found[player_id],
        shard=shard,
        base_url=base_url,
        self_link=f"{base_url}{request.scope['path']}",
    )
    return context.answer(200, body)
