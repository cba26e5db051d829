"""Issue 12: a range wholly in the future said "start ... must be earlier than end ...".

Both bounds clamp to now, so the old message blamed their order. It now says the start is not
before now and no match can exist yet, before any request.
"""

from __future__ import annotations

import pytest

from matchkit.errors import InvalidArgumentError
from tests.client.proxy import LIST, clients, proxied_service


def test_a_future_range_is_about_the_future(reference, httpserver, tmp_path) -> None:
    proxy = proxied_service(httpserver, reference)
    with clients(proxy, tmp_path / "cache") as connect:
        client = connect(now="2026-11-24T05:00:00Z")
        with pytest.raises(InvalidArgumentError) as raised:
            client.matches("2027-01-01", "2027-02-01")
    message = str(raised.value)
    assert message.startswith(
        "start 2027-01-01T00:00:00Z is not before now (2026-11-24T05:00:00Z): "
        "no match can exist yet"
    )
    assert "must be earlier than" not in message
    assert raised.value.parameter == "start"
    assert not [path for path, _params in proxy.seen if path == LIST]
