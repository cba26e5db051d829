"""A page whose JSON repeats a top-level member was read by its last copy, and cached.

``{"data": [...matches...], "links": {...}, "data": []}`` reads, in every JSON reader, as
``{"data": []}``: the client took it as an empty window (a silent loss, kept in the cache), and
the normalizer as a page without matches. Such a document is malformed: the request path's
check refuses it (retried like a 5xx, never cached, then a ServiceError) and so does the
normalizer (a DocumentError), whatever member is repeated (issue 34 item 7).
"""

from __future__ import annotations

import json

import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from werkzeug import Request, Response

from matchkit import to_frames
from matchkit.errors import DocumentError, ServiceError
from matchkit.rules.jsonapi import repeated_members
from tests.client.proxy import LIST, WINDOW, Proxy, clients, proxied_service

PAGE = (
    b'{"data": [{"type": "match", "id": "m1", "attributes": {"createdAt": "2026-10-20"}}], '
    b'"included": [{"type": "player", "id": "p1", "attributes": {"name": "A"}}]}'
)


@pytest.mark.parametrize("member", ["data", "included"])
def test_the_normalizer_refuses_a_repeated_member(member: str) -> None:
    repeated = PAGE[:-1] + f', "{member}": []}}'.encode()
    with pytest.raises(DocumentError, match=f"'{member}' is given more than once"):
        to_frames([PAGE, repeated])
    with pytest.raises(DocumentError) as raised:
        to_frames(repeated.decode())
    assert raised.value.document_index == 0
    assert len(to_frames(PAGE)) == 1  # the document given once reads as before


def test_the_client_refuses_a_page_with_a_second_empty_data(
    reference, httpserver, tmp_path
) -> None:
    def second_data(request: Request, proxy: Proxy) -> Response | None:
        if request.path != LIST:
            return None
        answer = proxy.forward(request)
        body = answer.get_data().rstrip()
        return Response(body[:-1] + b',"data":[]}', content_type="application/vnd.api+json")

    proxy = proxied_service(httpserver, reference, second_data)
    with clients(proxy, tmp_path / "cache") as connect:
        client = connect()
        with pytest.raises(ServiceError, match="top-level member 'data' is given twice"):
            client.matches(*WINDOW)
        for params in proxy.lists():
            assert client.transport.lookup(LIST, params) is None  # never cached


_JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**63), 2**63 - 1) | st.text(max_size=5),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3)
    ),
    max_leaves=10,
)


@settings(max_examples=200, deadline=None)
@given(
    members=st.dictionaries(st.text(max_size=6), _JSON, min_size=1, max_size=5),
    indent=st.booleans(),
    again=st.data(),
)
def test_a_repeated_member_is_found_and_a_single_one_never(
    members: dict[str, object], indent: bool, again: st.DataObject
) -> None:
    text = json.dumps(members, indent=2 if indent else None, ensure_ascii=False)
    assert repeated_members(text.encode()) == []
    assert repeated_members(orjson.dumps(members)) == []
    name = again.draw(st.sampled_from(sorted(members)))
    value = json.dumps(again.draw(_JSON))
    twice = text.rstrip()[:-1].rstrip() + f", {json.dumps(name)}: {value}}}"
    assert repeated_members(twice.encode()) == [name]
