"""The time search rules 1-5, the 28-day span and retention, with now pinned (interface.md
"Limits", decision 2). The service runs with now = the factory's as_of."""

from __future__ import annotations

from datetime import timedelta

import pytest

from matchkit.rules.windows import format_time
from tests.service.conftest import NOW, error_of

DAY = timedelta(days=1)


def test_service_takes_the_data_sets_as_of_as_now(service):
    assert service.now == NOW


def test_rule1_missing_start_defaults_to_now_minus_28_days(api, oracle):
    end = NOW - 2 * DAY
    ids = api.fetch_all("global", {"filter[createdAt-end]": format_time(end)})
    assert ids == oracle.select("global", NOW - 28 * DAY, end)
    assert oracle.select("global", NOW - 29 * DAY, NOW - 28 * DAY), "nothing to leave out"


def test_rule2_missing_end_defaults_to_now(api, oracle):
    start = NOW - 3 * DAY
    ids = api.fetch_all("global", {"filter[createdAt-start]": format_time(start)})
    assert ids == oracle.select("global", start, NOW)
    assert ids


def test_rule3_end_later_than_now_is_replaced_by_now(api, oracle):
    start = NOW - 3 * DAY
    params = {
        "filter[createdAt-start]": format_time(start),
        "filter[createdAt-end]": format_time(NOW + 400 * DAY),
    }
    assert api.fetch_all("global", params) == oracle.select("global", start, NOW)


def test_rule3_start_later_than_now_becomes_now_and_then_is_not_before_end(api):
    response = api.get(
        "/shards/global/matches", {"filter[createdAt-start]": format_time(NOW + DAY)}
    )
    assert response.status_code == 400
    assert error_of(response)["source"] == {"parameter": "filter[createdAt-start]"}


def test_rule4_time_before_retention_is_replaced_by_now_minus_120_days(api, oracle):
    assert oracle.select("global", NOW - 130 * DAY, NOW - 120 * DAY), "nothing to clamp away"
    params = {
        "filter[createdAt-start]": format_time(NOW - 130 * DAY),
        "filter[createdAt-end]": format_time(NOW - 100 * DAY),
    }
    # 30 days asked; after clamping the start to now - 120 days only 20 remain: no span error.
    assert api.fetch_all("global", params) == oracle.select(
        "global", NOW - 120 * DAY, NOW - 100 * DAY
    )


def test_rule4_window_wholly_before_retention_is_an_error(api):
    params = {
        "filter[createdAt-start]": format_time(NOW - 140 * DAY),
        "filter[createdAt-end]": format_time(NOW - 130 * DAY),
    }
    assert api.get("/shards/global/matches", params).status_code == 400


@pytest.mark.parametrize("gap", [timedelta(0), -timedelta(hours=1)])
def test_rule5_start_not_before_end_is_400(api, gap):
    end = NOW - 5 * DAY
    params = {
        "filter[createdAt-start]": format_time(end + (-gap)),
        "filter[createdAt-end]": format_time(end),
    }
    response = api.get("/shards/global/matches", params)
    assert response.status_code == 400
    error = error_of(response)
    assert error["title"] == "Bad Request"
    assert error["source"] == {"parameter": "filter[createdAt-start]"}


def test_span_of_28_days_is_served_and_longer_is_400(api):
    end = NOW - DAY
    ok = {
        "filter[createdAt-start]": format_time(end - 28 * DAY),
        "filter[createdAt-end]": format_time(end),
    }
    assert api.get("/shards/global/matches", ok).status_code == 200
    too_long = {**ok, "filter[createdAt-start]": format_time(end - 28 * DAY - timedelta(seconds=1))}
    response = api.get("/shards/global/matches", too_long)
    assert response.status_code == 400
    assert "28 days" in error_of(response)["detail"]


def test_start_is_inclusive_and_end_exclusive(api, oracle):
    target = oracle.matches["global"][-20]
    moment = format_time(target.created_at)
    starting = api.fetch_all(
        "global",
        {
            "filter[createdAt-start]": moment,
            "filter[createdAt-end]": format_time(target.created_at + timedelta(seconds=1)),
        },
    )
    assert target.id in starting
    ending = api.fetch_all(
        "global",
        {
            "filter[createdAt-start]": format_time(target.created_at - DAY),
            "filter[createdAt-end]": moment,
        },
    )
    assert target.id not in ending


@pytest.mark.parametrize(
    "text",
    ["2026-10-20T01:00:00+01:00", "2026-10-20T01:00:00+0100", "2026-10-20T01:00:00 0100"],
)
def test_numeric_offsets_and_the_space_decoded_plus_are_read(api, oracle, text):
    expected = oracle.select("global", NOW - 11 * DAY, NOW)
    assert api.fetch_all("global", {"filter[createdAt-start]": text}) == expected


def test_raw_plus_in_query_string_decodes_to_space_and_is_read(api, oracle):
    # A link copied by hand with an unescaped "+": the query string decodes it to a space.
    url = "/shards/global/matches?filter[createdAt-start]=2026-10-20T01:00:00+01:00"
    response = api.session.get(api.base_url + url, headers=api.auth(), timeout=30)
    assert response.status_code == 200
    expected = oracle.select("global", NOW - 11 * DAY, NOW)[:5]
    assert [match["id"] for match in response.json()["data"]] == expected


@pytest.mark.parametrize("parameter", ["filter[createdAt-start]", "filter[createdAt-end]"])
def test_unparseable_time_is_400_naming_it(api, parameter):
    response = api.get("/shards/global/matches", {parameter: "yesterday"})
    assert response.status_code == 400
    assert error_of(response)["source"] == {"parameter": parameter}


def test_na_default_start_is_3_hours_before_the_end(api, oracle):
    end = NOW - timedelta(hours=20)
    ids = api.fetch_all("na", {"filter[createdAt-end]": format_time(end)})
    expected = oracle.select("na", end - timedelta(hours=3), end)
    assert ids == expected
    assert expected


def test_na_follows_the_same_span_rule(api):
    params = {
        "filter[createdAt-start]": format_time(NOW - 29 * DAY),
        "filter[createdAt-end]": format_time(NOW),
    }
    assert api.get("/shards/na/matches", params).status_code == 400


def test_single_match_outside_retention_is_404(api, oracle):
    old = next(m for m in oracle.matches["global"] if m.created_at < NOW - 120 * DAY)
    assert api.get(f"/shards/global/matches/{old.id}").status_code == 404
