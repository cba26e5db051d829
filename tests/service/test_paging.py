"""Paging and sort over HTTP: interface.md "Limits" and decisions 1, 4, 8, 11."""

from __future__ import annotations

from datetime import timedelta
from urllib.parse import parse_qsl, urlsplit

import pytest

from tests.service.conftest import NOW, error_of


def _query(link: str) -> dict[str, str]:
    return dict(parse_qsl(urlsplit(link).query, keep_blank_values=True))


def test_paging_example_limit_5_offset_3(api, oracle):
    response = api.get("/shards/global/matches", {"page[limit]": 5, "page[offset]": 3})
    assert response.status_code == 200
    body = response.json()
    links = body["links"]
    assert _query(links["first"])["page[offset]"] == "0"
    assert _query(links["next"])["page[offset]"] == "8"
    assert _query(links["self"])["page[offset]"] == "3"
    assert "previous" in links
    for name in ("first", "next", "self", "previous"):
        assert _query(links[name])["page[limit]"] == "5"
    expected = oracle.select("global", NOW - timedelta(days=28), NOW)[3:8]
    assert [match["id"] for match in body["data"]] == expected
    assert body["meta"] == {}


def test_previous_link_absent_on_first_page(api):
    links = api.get("/shards/global/matches").json()["links"]
    assert set(links) == {"first", "next", "self"}


def test_links_carry_every_request_parameter(api):
    params = {
        "filter[serverType]": "QUICK2V2,ROYALRUMBLESOLO",
        "filter[createdAt-start]": "2026-10-10T00:00:00+01:00",
        "sort": "-createdAt",
        "page[limit]": "2",
        "page[offset]": "4",
    }
    body = api.get("/shards/global/matches", params).json()
    for name, offset in (("first", "0"), ("next", "6"), ("self", "4"), ("previous", "2")):
        link = body["links"][name]
        assert link.startswith(f"{api.base_url}/shards/global/matches?")
        assert _query(link) == {**params, "page[offset]": offset}


def test_links_follow_to_the_next_page(api, oracle):
    first = api.get("/shards/global/matches", {"page[limit]": 3}).json()
    second = api.session.get(first["links"]["next"], headers=api.auth(), timeout=30).json()
    expected = oracle.select("global", NOW - timedelta(days=28), NOW)[3:6]
    assert [match["id"] for match in second["data"]] == expected


def test_default_limit_is_5_on_global_and_50_on_na(api, oracle):
    body = api.get("/shards/global/matches").json()
    assert len(body["data"]) == 5
    assert _query(body["links"]["self"])["page[limit]"] == "5"
    na_params = {"filter[createdAt-start]": (NOW - timedelta(days=3)).isoformat()}
    available = oracle.select("na", NOW - timedelta(days=3), NOW)
    assert len(available) > 50
    body = api.get("/shards/na/matches", na_params).json()
    assert len(body["data"]) == 50
    assert _query(body["links"]["self"])["page[limit]"] == "50"


@pytest.mark.parametrize(
    ("shard", "value"),
    [
        ("global", "0"),
        ("global", "6"),
        ("global", "-1"),
        ("global", "two"),
        ("global", "2.5"),
        ("na", "51"),
        ("na", "0"),
    ],
)
def test_limit_out_of_range_is_400_naming_it(api, shard, value):
    response = api.get(f"/shards/{shard}/matches", {"page[limit]": value})
    assert response.status_code == 400
    assert error_of(response)["source"] == {"parameter": "page[limit]"}


@pytest.mark.parametrize("value", ["1", "5"])
def test_limit_bounds_are_served_on_global(api, value):
    response = api.get("/shards/global/matches", {"page[limit]": value})
    assert response.status_code == 200
    assert len(response.json()["data"]) == int(value)


def test_limit_50_is_served_on_na(api):
    assert api.get("/shards/na/matches", {"page[limit]": "50"}).status_code == 200


@pytest.mark.parametrize("value", ["-1", "x", ""])
def test_bad_offset_is_400_naming_it(api, value):
    response = api.get("/shards/global/matches", {"page[offset]": value})
    assert response.status_code == 400
    assert error_of(response)["source"] == {"parameter": "page[offset]"}


def test_page_past_the_end_is_empty_200_with_next(api):
    response = api.get("/shards/global/matches", {"page[offset]": 100000})
    assert response.status_code == 200
    body = response.json()
    assert body["data"] == []
    assert body["included"] == []
    assert _query(body["links"]["next"])["page[offset]"] == "100005"


def test_default_sort_is_ascending_by_created_at_then_id(api, oracle):
    ids = api.fetch_all("global", {})
    assert ids == oracle.select("global", NOW - timedelta(days=28), NOW)


def test_descending_sort_breaks_ties_by_id_descending(api, oracle):
    window = (NOW - timedelta(days=28), NOW)
    expected = oracle.select("global", *window, descending=True)
    times = [oracle.by_id("global", match_id).created_at for match_id in expected]
    assert len(set(times)) < len(times), "the factory should hold ties to break"
    assert api.fetch_all("global", {"sort": "-createdAt"}) == expected


def test_ascending_ties_are_ordered_by_id(api, oracle):
    ids = api.fetch_all("global", {"sort": "createdAt"})
    pairs = [(oracle.by_id("global", match_id).created_at, match_id) for match_id in ids]
    assert pairs == sorted(pairs)


@pytest.mark.parametrize("value", ["duration", "-duration", "createdat", "+createdAt"])
def test_unknown_sort_is_400(api, value):
    response = api.get("/shards/global/matches", {"sort": value})
    assert response.status_code == 400
    assert error_of(response)["source"] == {"parameter": "sort"}
