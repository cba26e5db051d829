"""Issue 26 item A2: a list page was not checked against the query that produced it.

A service or proxy that ignored a filter (or the time window) answered matches the query did
not ask for; they landed in the frames and nothing was recorded. Now every page is checked
against its request before it is used or cached (:mod:`matchkit.client.checks`): a page that
disagrees is retried like a 5xx, never cached, and finally a ServiceError that says what
disagreed.

A proxy in front of the reference service forwards each list request without one of its
filters (or with a wider window).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from werkzeug import Request, Response

from matchkit.errors import ServiceError
from tests.client.proxy import LIST, WINDOW, Proxy, clients, match_ids, proxied_service


def _without(*drop: str, **replace: str) -> Callable[[Request, Proxy], Response | None]:
    """A quirk forwarding list requests without the parameters to ``drop`` (and with
    ``replace``d ones)."""

    def quirk(request: Request, proxy: Proxy) -> Response | None:
        if request.path != LIST:
            return None
        return proxy.forward(request, drop=drop, **replace)

    return quirk


def _a_player(reference: Any, tmp_path) -> str:
    from matchkit.client.client import Client

    with Client(
        reference.base_url,
        api_key=reference.api_key,
        now=reference.now,
        cache_dir=tmp_path / "players",
        rate_limit="off",
        progress=False,
    ) as client:
        participants = client.matches(*WINDOW).participants
    return str(participants["player_id"].dropna().iloc[0])


CASES = {
    "server type dropped": ({"server_types": ["QUICK2V2"]}, "filter[serverType]", {}, "serverType"),
    "ranking type dropped": ({"ranking_type": "RANKED"}, "filter[rankingType]", {}, "rankingType"),
    "window widened": (
        {},
        None,
        {"filter[createdAt-start]": "2026-10-15T00:00:00Z"},
        "is outside [2026-10-20T00:00:00Z, 2026-10-22T00:00:00Z)",
    ),
    "player ids dropped": (None, "filter[playerIds]", {}, "none of the player ids asked for"),
}


@pytest.mark.parametrize("case", list(CASES))
def test_a_page_the_query_did_not_ask_for_is_an_error_and_never_cached(
    reference, httpserver, tmp_path, case: str
) -> None:
    options, parameter, replace, words = CASES[case]
    if options is None:
        options = {"player_ids": [_a_player(reference, tmp_path)]}
    drop = () if parameter is None else (parameter,)
    proxy = proxied_service(httpserver, reference, _without(*drop, **replace))
    with clients(proxy, tmp_path / "cache") as connect:
        client = connect()
        with pytest.raises(ServiceError, match="disagrees with its request") as raised:
            client.matches(*WINDOW, **options)
        assert words in str(raised.value)
        # Retried like a 5xx: the first page was asked for as often as the policy allows.
        assert len(proxy.lists()) == client.retry_policy.attempts
        assert client.cache_info().responses == 0  # nothing that failed its check is stored
        # A fault-free run over the same cache gives the truth.
        direct = connect(proxy.service.base_url).matches(*WINDOW, **options)
        truth = connect(proxy.service.base_url, cache_dir=tmp_path / "truth")
        assert match_ids(direct) == match_ids(truth.matches(*WINDOW, **options))
    assert len(direct) > 0
