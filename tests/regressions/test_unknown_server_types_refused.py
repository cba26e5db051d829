"""Issue 11 item 5: LEAGUE2V2, LEAGUE3V3 and PRIVATE, which the real service had, were refused.

Decision 3: a well-formed server type the interface does not list passes (it matches what it
matches, perhaps nothing), with one warning on the client, since a typo must not pass silently.
"""

from __future__ import annotations

import warnings

import pytest

from matchkit.client import UnlistedValueWarning
from matchkit.errors import InvalidArgumentError
from tests.client.proxy import WINDOW, clients, match_ids, proxied_service


def test_unlisted_server_types_are_sent_with_one_warning(reference, httpserver, tmp_path) -> None:
    proxy = proxied_service(httpserver, reference)
    with clients(proxy, tmp_path / "cache") as connect:
        client = connect()
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            mixed = client.matches(*WINDOW, server_types=["QUICK2V2", "league2v2"])
            again = client.matches(*WINDOW, server_types=["QUICK2V2", "LEAGUE2V2"])
            private = client.plan(*WINDOW, server_types="PRIVATE")
        listed = client.matches(*WINDOW, server_types=["QUICK2V2"])
        with pytest.raises(InvalidArgumentError) as raised:
            client.matches(*WINDOW, server_types=["QUICK 2V2"])
    messages = [str(w.message) for w in caught if issubclass(w.category, UnlistedValueWarning)]
    assert len(messages) == 2  # LEAGUE2V2 once, PRIVATE once
    assert "LEAGUE2V2" in messages[0]
    assert "typo" in messages[0]
    assert "PRIVATE" in messages[1]
    assert private.requests[0].params["filter[serverType]"] == "PRIVATE"
    sent = [params.get("filter[serverType]") for params in proxy.lists()]
    assert "QUICK2V2,LEAGUE2V2" in sent
    assert len(listed) > 0
    assert match_ids(mixed) == match_ids(listed) == match_ids(again)
    assert raised.value.parameter == "server_types"
