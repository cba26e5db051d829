"""Issue 11 item 8: ``get_match`` put the id into the URL without percent-encoding it.

``get_match("ID#x")`` returned the match ``ID`` (the rest became a fragment) and
``get_match("..")`` reached another endpoint. The id is now encoded as one path segment, and ids
a path segment cannot hold are refused before any request.
"""

from __future__ import annotations

import pytest

from matchkit.errors import InvalidArgumentError, NotFoundError
from tests.client.proxy import LIST, WINDOW, clients, match_ids, proxied_service


def test_a_match_id_is_one_encoded_path_segment(reference, httpserver, tmp_path) -> None:
    proxy = proxied_service(httpserver, reference)
    with clients(proxy, tmp_path / "cache") as connect:
        client = connect()
        (match_id,) = match_ids(client.matches(*WINDOW, max_matches=1, page_limit=1))
        assert match_ids(client.get_match(match_id)) == [match_id]
        for suffix in ("#x", "?page[limit]=1", " x", "%2F"):
            with pytest.raises(NotFoundError):
                client.get_match(match_id + suffix)
        before = len(proxy.seen)
        refused = []
        for bad in ("", " ", "..", ".", "a/b", "a\\b", "line\nbreak", f" {match_id}", "\x00"):
            with pytest.raises(InvalidArgumentError) as raised:
                client.get_match(bad)
            refused.append(raised.value.parameter)
        assert len(proxy.seen) == before  # refused before any request
    assert refused == ["match_id"] * 9
    asked = [path for path, _ in proxy.seen if path.startswith(LIST + "/")]
    # werkzeug decodes the path: each id arrived whole, as one segment.
    assert asked == [
        f"{LIST}/{match_id}{suffix}" for suffix in ("", "#x", "?page[limit]=1", " x")
    ] + [f"{LIST}/{match_id}%2F"]
