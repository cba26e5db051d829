"""Issue 11 item 1: a short page mid-window was taken as the window's end, losing the rest.

The real Vainglory service returned short pages (5 of 50, 48 of 50) while more matches existed.
A proxy in front of the reference service serves 3 matches a page while the client asks for 5
(it forwards ``page[limit]=3``, so each page is a whole, consistent answer with its ``next``).
"""

from __future__ import annotations

from werkzeug import Request, Response

from tests.client.proxy import (
    LIST,
    WINDOW,
    Proxy,
    clients,
    match_ids,
    proxied_service,
)


def _three_a_page(request: Request, proxy: Proxy) -> Response | None:
    if request.path == LIST:
        return proxy.forward(request, **{"page[limit]": "3"})
    return None


def test_short_pages_mid_window_lose_no_match(reference, httpserver, tmp_path) -> None:
    proxy = proxied_service(httpserver, reference, _three_a_page)
    with clients(proxy, tmp_path / "cache") as connect:
        through_proxy = connect().matches(*WINDOW)
        direct = connect(proxy.service.base_url, cache_dir=tmp_path / "direct").matches(*WINDOW)
    assert len(direct) > 10
    assert match_ids(through_proxy) == match_ids(direct)
    assert all(params["page[limit]"] == "5" for params in proxy.lists())
    # Pages of 3, each after the first beginning with the last match received (2 new), until
    # the page of the last match alone, then the empty page past it that ends the window.
    assert len(proxy.lists()) == 1 + -(-(len(direct) - 3) // 2) + 1 + 1
