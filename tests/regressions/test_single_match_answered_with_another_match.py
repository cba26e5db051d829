"""Issue 26 item A1: a single match was not checked against the id asked for.

A proxy that answers match A's URL with match B's document made ``get_match(A)`` return B,
``get_matches([A, B])`` return one match, and cached the wrong answer forever. The match answered
is now checked against the id asked (the request path's check hook): a wrong one is retried like
a 5xx, never cached, then a ServiceError naming both ids.
"""

from __future__ import annotations

import pytest
import requests
from werkzeug import Request, Response

from matchkit.errors import ServiceError
from tests.client.proxy import LIST, WINDOW, Proxy, clients, match_ids, proxied_service


def test_another_matchs_document_is_an_error_and_never_cached(
    reference, httpserver, tmp_path
) -> None:
    swapped = {"on": True}
    ids: list[str] = []

    def answer_b_for_a(request: Request, proxy: Proxy) -> Response | None:
        first, second = ids
        if swapped["on"] and request.path == f"{LIST}/{first}":
            upstream = requests.get(
                f"{proxy.service.base_url}{LIST}/{second}",
                headers={"Authorization": request.headers.get("Authorization", "")},
                timeout=30,
            )
            return Response(
                upstream.content,
                status=upstream.status_code,
                content_type=upstream.headers["Content-Type"],
            )
        return None

    proxy = proxied_service(httpserver, reference, answer_b_for_a)
    with clients(proxy, tmp_path / "cache") as connect:
        direct = connect(reference.base_url, cache_dir=tmp_path / "direct")
        ids.extend(match_ids(direct.matches(*WINDOW))[:2])
        first, second = ids
        client = connect()
        with pytest.raises(ServiceError) as raised:
            client.get_match(first)
        with pytest.raises(ServiceError):
            client.get_matches([first, second])
        swapped["on"] = False  # the proxy is fixed: the right answer, nothing wrong was kept
        assert match_ids(client.get_match(first)) == [first]
        assert match_ids(client.get_matches([first, second])) == [first, second]
    message = str(raised.value)
    assert f"match {second!r} where match {first!r} was asked" in message
    assert first in str(raised.value.url)
