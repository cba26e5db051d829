"""Issue 11 item 2: ``Client("http://host:port/v1")`` returned 0 matches (decision 11).

Every list request under a wrong base URL answers 404, which the real Vainglory service also
sent for an empty window; the client counted each as empty. It now confirms the service with
``GET /status`` before its first list request, and a wrong base URL is an error naming it.
"""

from __future__ import annotations

import pytest

from matchkit.errors import ServiceError
from tests.client.proxy import (
    LIST,
    WINDOW,
    clients,
    match_ids,
    proxied_service,
)


def test_a_wrong_base_url_is_an_error_naming_it(reference, httpserver, tmp_path) -> None:
    proxy = proxied_service(httpserver, reference)
    with clients(proxy, tmp_path / "cache") as connect:
        wrong = connect(proxy.url + "/v1")
        with pytest.raises(ServiceError) as raised:
            wrong.matches(*WINDOW)
        right = connect()
        found = right.matches(*WINDOW)
        again = right.matches("2026-10-22T00:00:00Z", "2026-10-23T00:00:00Z")
    assert f"base_url='{proxy.url}/v1'" in str(raised.value)
    assert raised.value.status == 404
    assert [path for path, _ in proxy.seen[:1]] == ["/v1/status"]
    assert not any(path.startswith("/v1" + LIST) for path, _ in proxy.seen)  # nothing listed
    # The right base URL: confirmed once, then every window listed.
    assert len(match_ids(found)) > 10
    assert len(again) > 0
    assert [path for path, _ in proxy.seen].count("/status") == 1
