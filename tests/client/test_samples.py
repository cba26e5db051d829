"""The real services' recorded pages, served verbatim: the client copes with every shape."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from pytest_httpserver import HTTPServer
from werkzeug import Request, Response

from matchkit.client.client import Client
from matchkit.normalize.pipeline import to_frames
from matchkit.rules.query import MatchQuery
from matchkit.rules.windows import TimeWindow, parse_time
from tests.client.conftest import assert_same_frames, sent
from tests.conftest import shared_path

NOW = "2017-12-23T00:00:00Z"  # the Battlerite recordings are from 2017-11-22 to 2017-12-22
LIST = "/shards/global/matches"


def _sample(*parts: str) -> Path:
    return shared_path("samples", *parts)


def _verbatim(path: Path, status: int = 200) -> Response:
    return Response(path.read_bytes(), status=status, content_type="application/json")


def _recorded(path: Path, empty: Path | None = None) -> Callable[[Request], Response]:
    """A service holding the matches of one recorded page, in its order and page size.

    The request that the recording answered (its whole window, offset 0) gets the file verbatim;
    any other the matches of the file inside its window from its offset on (the client pages by
    time: each page after the first asks from the last match received on), with the file's
    included resources and links, or ``empty`` verbatim when none is left.
    """
    document = _load(path)
    size = len(document["data"])

    def handler(request: Request) -> Response:
        query = MatchQuery.from_params("global", request.args.to_dict())
        inside = [
            match
            for match in document["data"]
            if parse_time(match["attributes"]["createdAt"]) in TimeWindow(query.start, query.end)
        ]
        page = inside[query.offset : query.offset + size]
        if page == document["data"]:
            return _verbatim(path)
        if not page and empty is not None:
            return _verbatim(empty)
        body = {**document, "data": page}
        return Response(json.dumps(body), content_type="application/json")

    return handler


@pytest.fixture
def client(make_client: Callable[..., Client]) -> Client:
    return make_client(now=NOW)


def _load(path: Path) -> dict:
    return json.loads(path.read_bytes())


def test_a_single_match_with_data_as_an_object(httpserver: HTTPServer, client: Client) -> None:
    path = _sample("battlerite", "match-response-1560C4251DC340BD9027163A616DE1F3.json")
    assert isinstance(_load(path)["data"], dict)
    httpserver.expect_request(f"{LIST}/1560C4251DC340BD9027163A616DE1F3").respond_with_response(
        _verbatim(path)
    )
    frames = client.get_match("1560C4251DC340BD9027163A616DE1F3")
    assert list(frames.matches["match_id"]) == ["1560C4251DC340BD9027163A616DE1F3"]
    assert_same_frames(frames, to_frames([_load(path)]))


def test_a_page_without_next_ends_the_window(httpserver: HTTPServer, client: Client) -> None:
    path = _sample("battlerite", "matches-response-776588202252308480.json")
    document = _load(path)
    assert set(document["links"]) == {"self"}
    assert len(document["data"]) == 38  # more than the limit of 5 the client asked for
    httpserver.expect_request(LIST).respond_with_handler(_recorded(path))
    frames = client.matches(player_ids=["776588202252308480"])
    assert sent(httpserver) == 1
    assert len(frames) == 38
    assert_same_frames(frames, to_frames([document]))


def test_next_on_an_empty_page_does_not_keep_paging(httpserver: HTTPServer, client: Client) -> None:
    empty = _sample("battlerite", "matches-response-empty.json")
    assert "next" in _load(empty)["links"]
    full = _sample("battlerite", "matches-response-932292498397777920.json")
    assert len(_load(full)["data"]) == 5
    httpserver.expect_request(LIST).respond_with_handler(_recorded(full, empty))
    frames = client.matches(start="2017-11-22T00:00:00Z", end="2017-12-20T00:00:00Z")
    # The five share one second: the next page asks from it, past the first four; it holds
    # the fifth alone (the last match received); the page past it is empty and ends the
    # window (the recorded empty page, whose `next` is not followed).
    _status, _first, (second, _), (third, _) = httpserver.log
    assert second.args["filter[createdAt-start]"] == "2017-11-22T20:34:58Z"
    assert second.args["page[offset]"] == "4"
    assert third.args["filter[createdAt-start]"] == "2017-11-22T20:34:58Z"
    assert third.args["page[offset]"] == "5"
    assert sent(httpserver) == 3
    assert len(frames) == 5
    assert_same_frames(frames, to_frames([_load(full)]))


@pytest.mark.parametrize(
    "name",
    [
        "matches-response-84.json",
        "matches-response-934763458812112896.json",
        "matches-response-934808022356762624.json",
    ],
)
def test_a_page_of_50_with_next_is_followed(
    httpserver: HTTPServer, client: Client, name: str
) -> None:
    path = _sample("battlerite", name)
    document = _load(path)
    assert len(document["data"]) == 50
    assert document["links"]["next"].endswith("page[offset]=50")
    empty = _sample("battlerite", "matches-response-empty.json")
    httpserver.expect_request(LIST).respond_with_handler(_recorded(path, empty))
    frames = client.matches()
    asked = [request.args for request, _ in httpserver.log[1:]]  # after GET /status
    # 50 for a limit of 5: all taken; the next page asks from the last match's second on (it
    # holds that match alone), and the page past it is empty.
    assert len(asked) == 3
    last = document["data"][-1]["attributes"]["createdAt"]
    assert asked[1]["filter[createdAt-start]"] == asked[2]["filter[createdAt-start]"] == last
    assert [asked[1]["page[offset]"], asked[2]["page[offset]"]] == ["0", "1"]
    assert len(frames) == len({m["id"] for m in document["data"]})
    assert_same_frames(frames, to_frames([document]))


def test_a_next_link_with_a_decoded_offset_sign(httpserver: HTTPServer, client: Client) -> None:
    path = _sample("battlerite", "matches-response-935162935435730944.json")
    assert " 0100" in _load(path)["links"]["next"]
    empty = _sample("battlerite", "matches-response-empty.json")
    httpserver.expect_request(LIST).respond_with_handler(_recorded(path, empty))
    frames = client.matches(end="2017-12-03T15:23:53+0100")
    _status, (first, _), *_ = httpserver.log
    assert first.args["filter[createdAt-end]"] == "2017-12-03T14:23:53Z"
    assert len(frames) == 5


def test_a_404_list_is_an_empty_result(httpserver: HTTPServer, client: Client) -> None:
    httpserver.expect_request(LIST).respond_with_json(
        {"errors": [{"title": "Not Found", "description": "No matches found"}]}, status=404
    )
    frames = client.matches()
    assert len(frames) == 0
    assert list(frames.matches.columns[:2]) == ["match_id", "created_at"]
    assert sent(httpserver) == 1


def test_the_older_na_shapes(httpserver: HTTPServer, make_client: Callable[..., Client]) -> None:
    collection = _sample("vainglory", "matchCollection.json")
    single = _sample("vainglory", "matchSingle.json")
    httpserver.expect_request("/shards/na/matches").respond_with_response(_verbatim(collection))
    single_id = _load(single)["data"]["id"]
    httpserver.expect_request(f"/shards/na/matches/{single_id}").respond_with_response(
        _verbatim(single)
    )
    client = make_client(shard="na", now="2017-03-01T00:00:00Z")
    frames = client.matches(start="2017-02-01T00:00:00Z")
    (_status, _), (request, _) = httpserver.log
    assert request.args["page[limit]"] == "50"
    assert len(frames) == 5  # the last page: it has no links (so no next)
    assert_same_frames(frames, to_frames([_load(collection)]))
    assert_same_frames(client.get_match(single_id), to_frames([_load(single)]))


def test_the_status_resource(httpserver: HTTPServer, client: Client) -> None:
    path = _sample("battlerite", "status-response.json")
    httpserver.clear()  # the recorded status instead of the fixture's
    httpserver.expect_request("/status").respond_with_response(_verbatim(path))
    status = client.status()
    assert status.name == "gamelocker"
    assert status.version == "v7.5.1"
    assert status.released_at.isoformat() == "2017-11-22T20:25:05+00:00"
    ((request, _),) = httpserver.log
    assert "Authorization" not in request.headers  # the status needs no key
