"""A gateway answering the ``global`` list with the ``na`` shard's pages had them read as
``global`` matches, and cached.

The shard of each resource was never checked: ``na`` matches came back as ``global`` ones, and a
window the ``na`` shard left empty read as an empty ``global`` window. Now every match, roster and
participant that names a shard, and the page's own link, must name the shard asked for: another
shard's answer is retried like a 5xx, never cached, then a ServiceError saying what disagreed; a
single match is held to its shard the same way (issue 34 item 7).
"""

from __future__ import annotations

import orjson
import pytest
from werkzeug import Request, Response

from matchkit.errors import ServiceError
from tests.client.proxy import LIST, WINDOW, Proxy, clients, match_ids, proxied_service


def _na_pages(request: Request, proxy: Proxy) -> Response | None:
    """The gateway: a global list is answered with the na shard's list of the same window."""
    if request.path != LIST:
        return None
    params = {k: v for k, v in request.args.items() if not k.startswith("filter[serverType")}
    upstream = Request.from_values(
        path="/shards/na/matches", query_string=params, headers=dict(request.headers)
    )
    return proxy.forward(upstream)


def test_the_na_shards_pages_for_global_are_an_error_and_never_cached(
    reference, httpserver, tmp_path
) -> None:
    proxy = proxied_service(httpserver, reference, _na_pages)
    with clients(proxy, tmp_path / "cache") as connect:
        client = connect()
        with pytest.raises(ServiceError) as raised:
            client.matches(*WINDOW)
        assert client.transport.cache_hits == 0
        for params in proxy.lists():  # nothing the gateway answered was kept
            assert client.transport.lookup(LIST, params) is None
    message = str(raised.value)
    assert "a page that disagrees with its request" in message
    assert "shardId 'na', not global" in message or "names shard 'na'" in message


def test_an_empty_page_of_another_shard_is_refused_by_its_own_link(
    reference, httpserver, tmp_path
) -> None:
    """Where the na shard has no match, its page is empty: only its link names the shard."""
    proxy = proxied_service(httpserver, reference, _na_pages)
    with clients(proxy, tmp_path / "cache") as connect:
        client = connect()
        with pytest.raises(ServiceError, match="own link names shard 'na', not global"):
            client.matches("2026-10-20T00:00:00Z", "2026-10-20T00:00:01Z")


def test_a_match_of_another_shard_and_its_rosters_are_refused(
    reference, httpserver, tmp_path
) -> None:
    def as_na(request: Request, proxy: Proxy) -> Response | None:
        if not request.path.startswith(LIST + "/"):
            return None
        answer = proxy.forward(request)
        document = orjson.loads(answer.get_data())
        for item in document["included"]:
            if item["type"] == "roster":
                item["attributes"]["shardId"] = "na"  # one roster of another shard
        return Response(orjson.dumps(document), content_type="application/vnd.api+json")

    proxy = proxied_service(httpserver, reference, as_na)
    with clients(proxy, tmp_path / "cache") as connect:
        direct = connect(reference.base_url, cache_dir=tmp_path / "direct")
        (first,) = match_ids(direct.matches(*WINDOW))[:1]
        client = connect()
        with pytest.raises(ServiceError, match=r"roster .* has shardId 'na', not global"):
            client.get_match(first)
        assert client.transport.lookup(f"{LIST}/{first}") is None
