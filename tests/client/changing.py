"""A proxy in front of the reference service whose match list changes while a client pages it.

:func:`changing_list` reads the matches of a window from the running reference service once
(over HTTP, as single-match documents), then answers every list request of the client itself,
from that list as it stands at that request: matches leave (a deletion, retention moving on)
and arrive (a late match) at the request numbers a test gives. It answers as the reference
service does (decision 8: filtered by the request's window, sorted by ``createdAt`` then id
in the direction asked, a slice at ``page[offset]`` of ``page[limit]``, ``next`` always), so
a fault-free client gets from it exactly what the reference service holds. ``GET /status`` is
forwarded.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

import orjson
import requests
from pytest_httpserver import HTTPServer
from werkzeug import Request, Response

from matchkit.rules.jsonapi import split_by_match
from matchkit.rules.query import MatchQuery
from matchkit.rules.windows import TimeWindow, parse_time
from tests.client.proxy import LIST, Proxy, proxied_service
from tests.contract.sample_pages import build_page

Document = dict[str, Any]


@dataclass
class ChangingList:
    """The list the proxy serves, and how it changes.

    Attributes:
        documents: every match the list ever holds, by id (single-match documents).
        present: the ids the list holds now.
        leave: request number (1 = the first list request) -> ids that leave before it.
        arrive: request number -> ids that arrive before it.
        unsorted: serve the opposite of the order asked (a service that ignores ``sort``).
        served: the list requests answered so far.
    """

    documents: dict[str, Document]
    present: set[str]
    leave: dict[int, set[str]] = field(default_factory=dict)
    arrive: dict[int, set[str]] = field(default_factory=dict)
    unsorted: bool = False
    served: int = 0
    ever: set[str] = field(default_factory=set)
    throughout: set[str] = field(default_factory=set)

    def __post_init__(self) -> None:
        self.ever = set(self.present)
        self.throughout = set(self.present)

    def answer(self, request: Request) -> Response:
        self.served += 1
        self.present -= self.leave.get(self.served, set())
        self.present |= self.arrive.get(self.served, set())
        self.ever |= self.present
        self.throughout &= self.present
        query = MatchQuery.from_params("global", request.args.to_dict())
        window = TimeWindow(query.start, query.end)
        inside = sorted(
            (key, match_id)
            for match_id in self.present
            if (key := _created(self.documents[match_id]))[0] in window
        )
        if query.descending != self.unsorted:
            inside.reverse()
        chosen = [self.documents[match_id] for _, match_id in inside]
        page = chosen[query.offset : query.offset + query.limit]
        body = orjson.loads(build_page(page))
        following = {**request.args.to_dict(), "page[offset]": str(query.offset + query.limit)}
        body["links"] = {
            "self": request.url,
            "next": requests.Request("GET", request.base_url, params=following).prepare().url,
        }
        return Response(orjson.dumps(body), content_type="application/vnd.api+json")


def _created(document: Document) -> tuple[Any, str]:
    match = document["data"]
    return parse_time(match["attributes"]["createdAt"]), match["id"]


def read_window(service: Any, window: tuple[str, str]) -> dict[str, Document]:
    """The single-match documents of ``window`` on the reference service's global shard."""
    documents: dict[str, Document] = {}
    offset = 0
    while True:
        params = {
            "filter[createdAt-start]": window[0],
            "filter[createdAt-end]": window[1],
            "page[limit]": "5",
            "page[offset]": str(offset),
        }
        answer = requests.get(
            service.base_url + LIST,
            params=params,
            headers={"Authorization": f"Bearer {service.api_key}"},
            timeout=30,
        )
        answer.raise_for_status()
        singles = split_by_match(answer.json())
        if not singles:
            return documents
        for single in singles:
            documents[single["data"]["id"]] = single
        offset += len(singles)


def changing_list(
    httpserver: HTTPServer,
    service: Any,
    window: tuple[str, str],
    *,
    held_back: Iterable[str] = (),
) -> tuple[Proxy, ChangingList]:
    """A proxy serving the matches of ``window`` (less ``held_back``, which may arrive later)."""
    documents = read_window(service, window)
    served = ChangingList(documents, set(documents) - set(held_back))

    def quirk(request: Request, proxy: Proxy) -> Response | None:
        return served.answer(request) if request.path == LIST else None

    return proxied_service(httpserver, service, quirk), served


def in_order(documents: dict[str, Document]) -> list[str]:
    """The ids of ``documents`` by (createdAt, id)."""
    return [match_id for _, match_id in sorted(_created(d) for d in documents.values())]
