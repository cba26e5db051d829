"""Paging a window by time over HTTP: what a page after the first asks, a 404 mid-window, and
a cached page that its request's check refuses."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta

import orjson
import pytest
from pytest_httpserver import HTTPServer
from werkzeug import Request, Response

from matchkit.client.checks import list_page_check
from matchkit.client.client import Client
from matchkit.client.plan import list_path
from matchkit.errors import ServiceError
from matchkit.rules.query import MatchQuery
from matchkit.rules.windows import parse_time
from tests.client.conftest import sent
from tests.contract.sample_pages import build_page, sample_documents

LIST = list_path("global")
START, END = "2026-10-20T00:00:00Z", "2026-10-22T00:00:00Z"
NEXT = {"next": "http://x/shards/global/matches?page[offset]=5"}


def _documents(count: int) -> list[dict]:
    start, end = parse_time(START), parse_time(END)
    inside = [
        d
        for d in sample_documents("global")
        if start <= parse_time(d["data"]["attributes"]["createdAt"]) < end
    ]
    return inside[:count]


def _page(documents: list[dict]) -> Response:
    body = orjson.loads(build_page(documents))
    body["links"] = NEXT
    return Response(orjson.dumps(body), content_type="application/vnd.api+json")


def _in_turn(*answers: Response) -> Callable[[Request], Response]:
    given = list(answers)
    return lambda request: given.pop(0) if len(given) > 1 else given[0]


def test_the_next_page_asks_from_the_last_match_received(
    httpserver: HTTPServer, make_client: Callable[..., Client]
) -> None:
    documents = _documents(8)
    httpserver.expect_request(LIST).respond_with_handler(
        _in_turn(_page(documents[:5]), _page(documents[4:8]), _page(documents[7:8]), _page([]))
    )
    frames = make_client().matches(START, END)
    assert list(frames.matches["match_id"]) == [d["data"]["id"] for d in documents]
    asked = [request.args for request, _ in httpserver.log if request.path == LIST]
    assert [a["filter[createdAt-start]"] for a in asked] == [
        START,
        documents[4]["data"]["attributes"]["createdAt"],
        documents[7]["data"]["attributes"]["createdAt"],
        documents[7]["data"]["attributes"]["createdAt"],  # past it: empty, the window's end
    ]
    assert [a["page[offset]"] for a in asked][-2:] == ["0", "1"]
    assert {a["filter[createdAt-end]"] for a in asked} == {END}
    assert sent(httpserver) == 4


def test_a_404_after_the_first_page_is_not_an_empty_window(
    httpserver: HTTPServer, make_client: Callable[..., Client]
) -> None:
    missing = Response(b'{"errors": [{"title": "Not Found"}]}', status=404)
    httpserver.expect_request(LIST).respond_with_handler(_in_turn(_page(_documents(5)), missing))
    with pytest.raises(ServiceError, match="in the middle of a window, after 5 match"):
        make_client().matches(START, END)


def test_a_cached_page_its_check_refuses_is_fetched_again(
    httpserver: HTTPServer, make_client: Callable[..., Client]
) -> None:
    documents = _documents(3)
    wrong = orjson.loads(build_page(documents))
    wrong["data"][0]["attributes"]["tags"]["serverType"] = "PRIVATE"
    wrong["links"] = NEXT
    bad = Response(orjson.dumps(wrong), content_type="application/vnd.api+json")
    httpserver.expect_request(LIST).respond_with_handler(_in_turn(bad, _page(documents)))
    transport = make_client().transport
    kinds = sorted({d["data"]["attributes"]["tags"]["serverType"] for d in documents})
    query = MatchQuery.create(start=START, end=END, server_types=kinds)
    params = query.to_params()
    # Stored by a caller without the check (as by a version that did not check pages).
    first = transport.get(LIST, params, kind="list", expire_after=timedelta(days=1))
    assert not first.from_cache
    assert transport.lookup(LIST, params) is not None
    checked = transport.get(
        LIST, params, kind="list", expire_after=timedelta(days=1), parse=list_page_check(query)
    )
    assert not checked.from_cache  # the refused entry was dropped and the page fetched again
    assert sent(httpserver) == 2
    again = transport.get(
        LIST, params, kind="list", expire_after=timedelta(days=1), parse=list_page_check(query)
    )
    assert again.from_cache
    assert again.body == checked.body


def test_a_service_that_ignores_sort_is_paged_by_position_and_loses_nothing(
    service, httpserver: HTTPServer, tmp_path, caplog
) -> None:
    from tests.client.changing import changing_list, in_order
    from tests.client.proxy import WINDOW, clients, match_ids

    proxy, served = changing_list(httpserver, service, WINDOW)
    served.unsorted = True  # newest first when oldest first is asked
    served.leave[6] = {in_order(served.documents)[-2]}  # near the start of its own order
    with clients(proxy, tmp_path / "cache") as connect, caplog.at_level("INFO"):
        result = match_ids(connect().matches(*WINDOW))
    assert "not in createdAt order: paging the window by position" in caplog.text
    assert "did not begin with the last match received" in caplog.text  # the shift, seen
    assert len(result) == len(set(result))
    assert served.throughout <= set(result) <= served.ever
    assert result == sorted(result, key=in_order(served.documents).index)  # ordered_frames


def test_a_service_that_ignores_the_offset_is_an_error_not_an_endless_loop(
    httpserver: HTTPServer, make_client: Callable[..., Client]
) -> None:
    documents = [orjson.loads(orjson.dumps(d)) for d in _documents(5)]
    for document in documents:  # five matches of one second: the offset is all that pages them
        document["data"]["attributes"]["createdAt"] = "2026-10-20T10:00:00Z"
    documents.sort(key=lambda d: d["data"]["id"])
    httpserver.expect_request(LIST).respond_with_handler(lambda request: _page(documents))
    with pytest.raises(ServiceError, match="brought no match not already received") as raised:
        make_client().matches(START, END)
    assert "ignores page[offset]" in str(raised.value)
    assert sent(httpserver) < 20
