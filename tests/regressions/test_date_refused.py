"""Issue 12: a ``datetime.date`` was refused as start or end.

A date is now its midnight UTC, in ``Client.matches``, ``plan`` and ``iter_pages`` (and in the
service's own time rules, which share :func:`matchkit.rules.windows.parse_time`).
"""

from __future__ import annotations

from datetime import date

from tests.client.proxy import LIST, clients, match_ids, proxied_service


def test_dates_are_midnight_utc(reference, httpserver, tmp_path) -> None:
    proxy = proxied_service(httpserver, reference)
    with clients(proxy, tmp_path / "cache") as connect:
        client = connect()
        by_date = client.matches(date(2026, 10, 20), date(2026, 10, 22))
        plan = client.plan(date(2026, 10, 20), end=date(2026, 10, 22))
        pages = list(client.iter_pages(date(2026, 10, 21), date(2026, 10, 22)))
        by_text = client.matches("2026-10-20T00:00:00Z", "2026-10-22T00:00:00Z")
    assert len(by_date) > 0
    assert match_ids(by_date) == match_ids(by_text)
    assert plan.requests[0].params["filter[createdAt-start]"] == "2026-10-20T00:00:00Z"
    assert plan.requests[0].params["filter[createdAt-end]"] == "2026-10-22T00:00:00Z"
    assert pages
    first = next(params for path, params in proxy.seen if path == LIST)
    assert first["filter[createdAt-start]"] == "2026-10-20T00:00:00Z"
