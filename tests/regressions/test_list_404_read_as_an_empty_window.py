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


def _quirk(offset: str, answer: str):
    def quirk(request: Request, proxy: Proxy) -> Response | None:
        if request.path == LIST and request.args.get("page[offset]", "0") == offset:
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
    ("offset", "answer"),
    [("10", "html"), ("10", "jsonapi"), ("0", "html"), ("0", "redirect")],
)
def test_a_404_that_cannot_mean_empty_is_an_error_not_fewer_matches(
    reference, httpserver, tmp_path, offset: str, answer: str
) -> None:
    proxy = proxied_service(httpserver, reference, _quirk(offset, answer))
    with clients(proxy, tmp_path / "cache") as connect, pytest.raises(ServiceError) as raised:
        connect().matches(*WINDOW)
    assert "404" in str(raised.value)
    tries = [params for params in proxy.lists() if params.get("page[offset]", "0") == offset]
    assert len(tries) == 5  # retried like a 5xx


def test_the_services_own_404_at_a_windows_start_is_still_empty(
    reference, httpserver, tmp_path
) -> None:
    proxy = proxied_service(httpserver, reference, _quirk("0", "jsonapi"))
    with clients(proxy, tmp_path / "cache") as connect:
        assert match_ids(connect().matches(*WINDOW)) == []
