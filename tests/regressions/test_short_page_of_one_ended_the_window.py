"""Found by the chaos suite (entry ``short_page``) on a fix branch of issue 26, not on main: a
page shorter than asked, mid-window, must not end the window, however short.

Paging by time asks each page from the last match received on, so that page begins with that
match again. A service answering such a page with one match (a short page: ``page[limit]=1``
forwarded, so the page is whole and consistent, with its ``next`` link) gave nothing new, and
the window ended there: 10 of 47 matches, no error, in the chaos seeds that drew it. Main
(53ddefe) pages by offset and passes; the test keeps it so after the merge.

Here the proxy forwards every second list request with ``page[limit]=1`` (from the second on),
and sometimes ``2``: the fetch must return the same matches as a direct one.
"""

from __future__ import annotations

from werkzeug import Request, Response

from tests.client.proxy import LIST, WINDOW, Proxy, clients, match_ids, proxied_service


def _some_pages_of_one(request: Request, proxy: Proxy) -> Response | None:
    if request.path != LIST:
        return None
    count = len(proxy.lists())  # this request is already among them
    if count >= 2 and count % 2 == 0:
        return proxy.forward(request, **{"page[limit]": "1" if count % 4 == 0 else "2"})
    return None


def test_pages_of_one_or_two_mid_window_lose_no_match(reference, httpserver, tmp_path) -> None:
    proxy = proxied_service(httpserver, reference, _some_pages_of_one)
    with clients(proxy, tmp_path / "cache") as connect:
        through_proxy = connect().matches(*WINDOW)
        direct = connect(proxy.service.base_url, cache_dir=tmp_path / "direct").matches(*WINDOW)
    assert len(direct) > 10
    assert match_ids(through_proxy) == match_ids(direct)
    limits = [params.get("page[limit]") for params in proxy.lists()]
    assert len(limits) > 10  # the short pages were served and the window paged on
