"""Issue 12: a fetch waiting for the rate limit said nothing about it.

The bar sat still while the client waited. A wait is now shown in the bar's postfix, with the
window it delays: "waiting 6.0 s for the service's rate limit" (a 429's Retry-After) or
"... for the rate limit" (the client's own limiter).
"""

from __future__ import annotations

from werkzeug import Response

from tests.client.conftest import FakeClock
from tests.client.proxy import LIST, clients, proxied_service


def test_a_429_wait_is_shown_in_the_bar(reference, httpserver, tmp_path, capsys) -> None:
    refused = []

    def first_list_refused(request, proxy):
        if request.path == LIST and not refused:
            refused.append(request.args.to_dict())
            return Response("", status=429, headers={"Retry-After": "6"})
        return None

    proxy = proxied_service(httpserver, reference, first_list_refused)
    clock = FakeClock()
    with clients(proxy, tmp_path / "cache", clock) as connect:
        frames = connect(progress=True).matches("2026-10-20", "2026-10-22")
    shown = capsys.readouterr().err
    assert len(refused) == 1
    assert clock.sleeps == [6]
    assert len(frames) > 0
    assert "matchkit global 2026-10-20..2026-10-22 (window 1/1): 0page" in shown, (
        "the wait came before the first page and names the window"
    )
    assert "0 matches, waiting 6.0 s for the service's rate limit" in shown
