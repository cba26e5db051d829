"""Issue 11 item 3: a bad 200 was cached, and a closed window stayed wrong for 120 days.

A proxy's ``{"message": "maintenance"}`` (or ``{"data": null}``) answered with 200 was stored;
the client then returned 0 matches (or kept raising ``DocumentError``) without asking again.
Every 200 is now checked before it is stored (decision 11): a bad one is a ``ServiceError``,
retried like a 5xx, never cached.
"""

from __future__ import annotations

import json

import pytest
from werkzeug import Request, Response

from matchkit.client.responses import check_body
from matchkit.errors import ServiceError
from tests.client.proxy import (
    LIST,
    WINDOW,
    Proxy,
    clients,
    match_ids,
    proxied_service,
)

BAD_BODIES = {
    "maintenance": json.dumps({"message": "maintenance"}),
    "data-null": json.dumps({"data": None}),
    "html": "<html><body>Down for maintenance</body></html>",
    "not-matches": json.dumps({"data": [{"type": "player", "id": "x"}]}),
}


def _bad_at_first(body: str, times: int):
    served = {"bad": 0}

    def quirk(request: Request, proxy: Proxy) -> Response | None:
        if request.path != LIST or served["bad"] >= times:
            return None
        served["bad"] += 1
        return Response(body, status=200, content_type="application/json")

    return quirk


def _stored_bodies(client) -> list[bytes]:
    return [response.content for response in client._session.cache.responses.values()]


@pytest.mark.parametrize("kind", list(BAD_BODIES))
def test_a_bad_200_is_retried_and_never_stored(reference, httpserver, tmp_path, kind) -> None:
    quirk = _bad_at_first(BAD_BODIES[kind], times=2)
    proxy = proxied_service(httpserver, reference, quirk)
    with clients(proxy, tmp_path / "cache") as connect:
        client = connect()
        found = client.matches(*WINDOW)
        direct = connect(proxy.service.base_url, cache_dir=tmp_path / "direct")
        expected = direct.matches(*WINDOW)
        stored = _stored_bodies(client)
    assert match_ids(found) == match_ids(expected)
    assert len(stored) == len(proxy.lists()) - 2
    assert all(check_body("list", body) for body in stored)


def test_a_lasting_bad_200_is_an_error_and_the_window_is_asked_again(
    reference, httpserver, tmp_path
) -> None:
    quirk = _bad_at_first(BAD_BODIES["maintenance"], times=5)  # the policy's 5 attempts
    proxy = proxied_service(httpserver, reference, quirk)
    with clients(proxy, tmp_path / "cache") as connect:
        with pytest.raises(ServiceError, match="answered 200 with a document") as raised:
            connect().matches(*WINDOW)
        assert raised.value.status == 200
        assert raised.value.errors[0]["detail"] == "maintenance"
        # The proxy is past its maintenance: the same closed window, the same cache.
        later = connect().matches(*WINDOW)
        direct = connect(proxy.service.base_url, cache_dir=tmp_path / "direct")
        expected = direct.matches(*WINDOW)
    assert len(later) > 10
    assert match_ids(later) == match_ids(expected)
