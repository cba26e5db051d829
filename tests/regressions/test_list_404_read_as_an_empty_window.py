"""Issue 26 item A4: a 404 on a list page was taken as "window empty" whatever it was.

Once the service was confirmed, any 404 on a list request ended the window: in the middle of a
window, a gateway's HTML page, the end of a redirect. A fetch of 71 matches returned 10. Only
the service's own JSON:API 404 at the first page of a window, not redirected, can mean "empty"
(decision 11: the real Vainglory service's empty list); any other is retried like a 5xx, then a
ServiceError.
"""

from __future__ import annotations

import pytest
from werkzeug import Request, Response

from matchkit.errors import ServiceError
from tests.client.proxy import LIST, WINDOW, Proxy, clients, match_ids, proxied_service

HTML_404 = "<html><body><h1>404 Not Found</h1>nginx</body></html>"
JSONAPI_404 = '{"errors": [{"status": "404", "title": "Not Found", "detail": "No matches"}]}'


def _at(where: str, params) -> bool:
    """Whether a list request is at the window's first page ("first") or a later one ("later"):
    the pager asks each later page from the time of the last match received (rules/paging.py),
    so a later page's start is past the window's."""
    first = params.get("filter[createdAt-start]") == WINDOW[0] and (
        params.get("page[offset]", "0") == "0"
    )
    return first if where == "first" else not first


def _quirk(where: str, answer: str):
    def quirk(request: Request, proxy: Proxy) -> Response | None:
        if request.path == LIST and _at(where, request.args):
            if answer == "html":
                return Response(HTML_404, status=404, content_type="text/html")
            if answer == "redirect":
                return Response("", status=302, headers={"Location": "/gone"})
            return Response(JSONAPI_404, status=404, content_type="application/vnd.api+json")
        if request.path == "/gone":
            return Response(JSONAPI_404, status=404, content_type="application/vnd.api+json")
        return None

    return quirk


@pytest.mark.parametrize(
    ("where", "answer", "attempts"),
    # A later page's 404 is answered as the service would (offset 0 of a later start), so the
    # transport cannot tell it from a first page: the pager refuses it, without retrying.
    [("later", "html", 5), ("later", "jsonapi", 1), ("first", "html", 5), ("first", "redirect", 5)],
)
def test_a_404_that_cannot_mean_empty_is_an_error_not_fewer_matches(
    reference, httpserver, tmp_path, where: str, answer: str, attempts: int
) -> None:
    proxy = proxied_service(httpserver, reference, _quirk(where, answer))
    with clients(proxy, tmp_path / "cache") as connect, pytest.raises(ServiceError) as raised:
        connect().matches(*WINDOW)
    assert "404" in str(raised.value)
    tries = [params for params in proxy.lists() if _at(where, params)]
    assert len(tries) == attempts  # retried like a 5xx where the transport sees it


def test_the_services_own_404_at_a_windows_start_is_still_empty(
    reference, httpserver, tmp_path
) -> None:
    proxy = proxied_service(httpserver, reference, _quirk("first", "jsonapi"))
    with clients(proxy, tmp_path / "cache") as connect:
        assert match_ids(connect().matches(*WINDOW)) == []
