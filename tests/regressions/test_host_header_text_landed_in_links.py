"""The service fuzzing (tests/service/test_fuzz.py) found: the Host header went unchecked into the
paging and self links (and a ``"`` in it broke the JSON body)."""

from __future__ import annotations

import orjson
import pytest

from tests.service.asgi import list_matches


@pytest.mark.parametrize("host", ['evil"host', "a b", "x/y?z", "", "[zz]:1", "h:99999999"])
def test_host_header_text_never_lands_in_links(app, loop, host):
    # The Host header went unchecked into the links (and a '"' broke the JSON body).
    status, _, body = list_matches(loop, app, query=b"page[limit]=1", headers=[("host", host)])
    assert status == 200
    document = orjson.loads(body)
    for link in document["links"].values():
        assert link.startswith("http://127.0.0.1:8000/shards/global/matches?")
    assert all(
        resource["links"]["self"].startswith("http://127.0.0.1:8000/")
        for resource in document["data"]
    )
