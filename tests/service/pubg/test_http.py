"""The PUBG double over real HTTP on loopback: its endpoints, rules, errors and clock."""

from __future__ import annotations

import gzip
from datetime import timedelta
from email.utils import parsedate_to_datetime
from urllib.parse import urlsplit

import pytest
import requests

from matchkit.errors import InvalidArgumentError
from matchkit.rules.windows import format_time, parse_time
from matchkit.sampledata.pubg.plan import SampleSetPlan
from matchkit.service import RunningService, running
from tests.service.pubg.conftest import NOW, VND, available, headers

pytestmark = pytest.mark.filterwarnings("ignore::ResourceWarning")


def test_status_is_pubgs_resource_and_needs_no_key(pubg: RunningService, http) -> None:
    answer = http.get(f"{pubg.base_url}/status", headers={"Accept": VND})
    assert answer.status_code == 200
    data = answer.json()["data"]
    assert (data["type"], data["id"]) == ("status", "pubg-api")
    assert set(data["attributes"]) == {"releasedAt", "version"}


def test_every_answer_carries_the_services_date(pubg: RunningService, http) -> None:
    for path in ("/status", "/shards/steam/seasons", "/nowhere", "/shards/steam/players"):
        answer = http.get(f"{pubg.base_url}{path}", headers=headers(pubg))
        assert parsedate_to_datetime(answer.headers["Date"]) == NOW, path
        assert (
            len(answer.headers.get_list("Date") if hasattr(answer.headers, "get_list") else [1])
            == 1
        )


def test_a_match_needs_no_key_and_is_gone_after_14_days(
    pubg: RunningService, http, plan: SampleSetPlan
) -> None:
    matches = plan.shards["steam"].matches
    kept = next(m for m in reversed(matches) if available(m))
    old = next(m for m in matches if m.created_at < NOW - timedelta(days=14) and not m.custom)
    custom = next(m for m in matches if m.custom and m.created_at > NOW - timedelta(days=13))
    answer = http.get(f"{pubg.base_url}/shards/steam/matches/{kept.id}", headers={"Accept": VND})
    assert answer.status_code == 200
    assert answer.json()["data"]["id"] == kept.id
    assert answer.json()["data"]["links"]["self"].endswith(f"/shards/steam/matches/{kept.id}")
    for gone in (old, custom):
        answer = http.get(f"{pubg.base_url}/shards/steam/matches/{gone.id}", headers=headers(pubg))
        assert answer.status_code == 404
        assert answer.json()["errors"][0]["title"] == "Not Found"
    # On another shard the id is not there.
    answer = http.get(f"{pubg.base_url}/shards/console/matches/{kept.id}", headers=headers(pubg))
    assert answer.status_code == 404


def test_player_endpoints_need_a_key(pubg: RunningService, http, plan: SampleSetPlan) -> None:
    player = plan.shards["steam"].players[0]
    for path in (
        f"/shards/steam/players?filter[playerNames]={player.name}",
        f"/shards/steam/players/{player.id}",
        "/shards/steam/samples",
        "/shards/steam/seasons",
    ):
        for sent in ({"Accept": VND}, {"Accept": VND, "Authorization": "Bearer wrong"}):
            answer = http.get(f"{pubg.base_url}{path}", headers=sent)
            assert answer.status_code == 401, path
            assert answer.json()["errors"][0]["title"] == "Unauthorized"


def test_a_wrong_accept_is_415_with_pubgs_title(pubg: RunningService, http) -> None:
    answer = http.get(
        f"{pubg.base_url}/shards/steam/seasons", headers=headers(pubg, Accept="text/html")
    )
    assert answer.status_code == 415
    assert answer.json() == {
        "errors": [
            {
                "title": "Unsupported media type",
                "description": answer.json()["errors"][0]["description"],
            }
        ]
    }


def test_anything_else_is_404(pubg: RunningService, http) -> None:
    for path in ("/shards/steam/matches", "/shards/global/seasons", "/players", "/shards/steam/x"):
        answer = http.get(f"{pubg.base_url}{path}", headers=headers(pubg))
        assert answer.status_code == 404, path
        assert answer.json()["errors"][0]["title"] == "Not Found"


def test_players_by_name_are_case_sensitive_and_list_their_recent_matches(
    pubg: RunningService, http, plan: SampleSetPlan
) -> None:
    shard = plan.shards["steam"]
    busiest = max(shard.players, key=lambda player: len(shard.matches_of.get(player.id, ())))
    answer = http.get(
        f"{pubg.base_url}/shards/steam/players",
        params={"filter[playerNames]": busiest.name},
        headers=headers(pubg),
    )
    assert answer.status_code == 200
    (player,) = answer.json()["data"]
    assert player["id"] == busiest.id
    listed = [item["id"] for item in player["relationships"]["matches"]["data"]]
    expected = [m.id for m in reversed(shard.matches_of[busiest.id]) if available(m)]
    assert listed == expected
    assert len(listed) > 100  # players who play many matches
    assert all(shard.by_id[i].created_at >= NOW - timedelta(days=14) for i in listed)
    wrong_case = busiest.name.swapcase()
    answer = http.get(
        f"{pubg.base_url}/shards/steam/players",
        params={"filter[playerNames]": wrong_case},
        headers=headers(pubg),
    )
    assert answer.status_code == 404


def test_players_by_id_take_at_most_10(pubg: RunningService, http, plan: SampleSetPlan) -> None:
    players = plan.shards["steam"].players
    ids = ",".join(player.id for player in players[:10])
    answer = http.get(
        f"{pubg.base_url}/shards/steam/players",
        params={"filter[playerIds]": ids},
        headers=headers(pubg),
    )
    assert answer.status_code == 200
    assert [item["id"] for item in answer.json()["data"]] == [p.id for p in players[:10]]
    eleven = ",".join(player.id for player in players[:11])
    answer = http.get(
        f"{pubg.base_url}/shards/steam/players",
        params={"filter[playerIds]": eleven},
        headers=headers(pubg),
    )
    assert answer.status_code == 400
    assert "at most 10" in answer.json()["errors"][0]["description"]
    single = http.get(
        f"{pubg.base_url}/shards/steam/players/{players[3].id}", headers=headers(pubg)
    )
    assert single.status_code == 200
    assert single.json()["data"]["id"] == players[3].id
    assert "createdAt" not in single.json()["data"]["attributes"]  # as recorded
    unknown = http.get(f"{pubg.base_url}/shards/steam/players/account.0", headers=headers(pubg))
    assert unknown.status_code == 404


def test_samples_follow_the_24_hour_and_14_day_rule(
    pubg: RunningService, http, plan: SampleSetPlan
) -> None:
    url = f"{pubg.base_url}/shards/steam/samples"
    latest = http.get(url, headers=headers(pubg)).json()["data"]
    assert latest["attributes"]["createdAt"] == "2026-11-19T00:00:00Z"
    day = parse_time("2026-11-10T00:00:00Z")
    answer = http.get(
        url, params={"filter[createdAt-start]": "2026-11-10T05:00:00Z"}, headers=headers(pubg)
    )
    assert answer.status_code == 200
    sample = answer.json()["data"]
    ids = [item["id"] for item in sample["relationships"]["matches"]["data"]]
    shard = plan.shards["steam"]
    assert ids
    assert all(day <= shard.by_id[i].created_at < day + timedelta(days=1) for i in ids)
    assert all(available(shard.by_id[i]) for i in ids)
    assert sample["id"] != latest["id"]  # a sample a day
    for start, rule in (
        (NOW - timedelta(hours=23), "24 hours"),
        (NOW - timedelta(days=15), "14 days"),
    ):
        answer = http.get(
            url, params={"filter[createdAt-start]": format_time(start)}, headers=headers(pubg)
        )
        assert answer.status_code == 400
        assert rule in answer.json()["errors"][0]["description"]


def test_seasons_are_listed(pubg: RunningService, http) -> None:
    answer = http.get(f"{pubg.base_url}/shards/steam/seasons", headers=headers(pubg))
    seasons = answer.json()["data"]
    assert [s["attributes"]["isCurrentSeason"] for s in seasons].count(True) == 1
    assert all(s["type"] == "season" for s in seasons)


def test_telemetry_is_on_a_second_host_gzipped_and_keyless(
    pubg: RunningService, http, plan: SampleSetPlan
) -> None:
    match = next(m for m in reversed(plan.shards["steam"].matches) if available(m))
    document = http.get(
        f"{pubg.base_url}/shards/steam/matches/{match.id}", headers={"Accept": VND}
    ).json()
    (asset,) = [item for item in document["included"] if item["type"] == "asset"]
    url = asset["attributes"]["URL"]
    assert pubg.telemetry_url is not None
    assert url.startswith(pubg.telemetry_url + "/bluehole-pubg/steam/")
    assert pubg.telemetry_url != pubg.base_url
    raw = requests.get(url, headers={"Accept-Encoding": "gzip"}, stream=True)
    assert raw.status_code == 200
    assert raw.headers["Content-Encoding"] == "gzip"
    events = __import__("orjson").loads(gzip.decompress(raw.raw.read()))
    assert events[0]["_T"] == "LogMatchDefinition"
    assert all({"_T", "_D"} <= set(event) for event in events)
    assert all("isGame" in event["common"] for event in events[1:])
    # The API does not serve it, and the CDN serves nothing else.
    assert http.get(pubg.base_url + url[len(pubg.telemetry_url) :]).status_code == 404
    assert requests.get(f"{pubg.telemetry_url}/bluehole-pubg/steam/nothing").status_code == 404


def test_telemetry_past_the_retention_is_403(plan: SampleSetPlan) -> None:
    match = next(m for m in reversed(plan.shards["steam"].matches) if available(m))
    later = match.created_at + timedelta(days=15)
    with running(profile="pubg", now=later) as service:
        document_url = f"{service.base_url}/shards/steam/matches/{match.id}"
        assert requests.get(document_url).status_code == 404
    with running(profile="pubg") as service:
        document = requests.get(f"{service.base_url}/shards/steam/matches/{match.id}").json()
        url = next(i for i in document["included"] if i["type"] == "asset")["attributes"]["URL"]
    with running(
        profile="pubg", now=later, telemetry_port=int(url.split(":")[2].split("/")[0])
    ) as service:
        assert requests.get(url).status_code == 403


def test_the_limit_applies_to_players_samples_and_seasons_only(plan: SampleSetPlan) -> None:
    clock = [0.0]
    match = next(m for m in reversed(plan.shards["steam"].matches) if available(m))
    with running(profile="pubg", rate_limit="10/minute", clock=lambda: clock[0]) as service:
        sent = headers(service)
        for number in range(10):
            answer = requests.get(f"{service.base_url}/shards/steam/seasons", headers=sent)
            assert answer.status_code == 200
            assert answer.headers["X-RateLimit-Limit"] == "10"
            assert answer.headers["X-RateLimit-Remaining"] == str(9 - number)
        refused = requests.get(f"{service.base_url}/shards/steam/samples", headers=sent)
        assert refused.status_code == 429
        assert refused.json()["errors"][0]["title"] == "Too Many Requests"
        reset = int(refused.headers["X-RateLimit-Reset"])
        assert (
            NOW.timestamp() < reset <= NOW.timestamp() + 60
        )  # UNIX seconds on the service's clock
        for _ in range(30):  # matches and telemetry are free
            answer = requests.get(
                f"{service.base_url}/shards/steam/matches/{match.id}", headers=sent
            )
            assert answer.status_code == 200
            assert "X-RateLimit-Limit" not in answer.headers
        clock[0] += 6.0  # one token back
        assert (
            requests.get(f"{service.base_url}/shards/steam/seasons", headers=sent).status_code
            == 200
        )


def test_the_clock_is_pinned_by_now(plan: SampleSetPlan) -> None:
    earlier = NOW - timedelta(days=3)
    with running(profile="pubg", now=earlier) as service:
        answer = requests.get(f"{service.base_url}/status")
        assert parsedate_to_datetime(answer.headers["Date"]) == earlier
        newest = [m for m in plan.shards["steam"].matches if m.created_at > earlier]
        assert (
            requests.get(f"{service.base_url}/shards/steam/matches/{newest[-1].id}").status_code
            == 404
        )


def test_a_profile_or_option_the_service_does_not_know_is_refused() -> None:
    with pytest.raises(InvalidArgumentError, match="gamelocker, pubg"):
        running(profile="battlerite")
    with pytest.raises(InvalidArgumentError, match="data is not an option of the pubg"):
        running(profile="pubg", data="somewhere")


def test_the_second_host_serves_the_sets_dictionaries_at_pubgs_paths(pubg, http) -> None:
    """As PUBG publishes its names (api-assets, apart from the API): one {id: name} object a
    kind at the profile's paths; an unknown id stays itself. The API has no catalogue."""
    from matchkit.names import load_names
    from matchkit.rules.profiles import PUBG

    published = PUBG.name_dictionaries
    assert published is not None
    folder = pubg.telemetry_url + urlsplit(published.url).path
    for path in published.files.values():
        answer = http.get(folder + path)
        assert answer.status_code == 200, path
        assert isinstance(answer.json(), dict), path
        assert answer.json(), path
    maps = load_names(http.get(folder + published.files["map"]).json(), kind="map")
    assert maps.name("map", "Baltic_Main") == "Erangel"
    modes = http.get(folder + published.files["game_mode"]).json()
    assert modes["squad-fpp"] == "Squad FPP"
    causers = load_names(http.get(folder + published.files["damage_causer"]).json(), kind="c")
    assert causers.name("c", "WeapHK416_C") == "M416"
    assert causers.name("c", "IBRTransportAircraft_C") == "IBRTransportAircraft_C"
    assert http.get(f"{pubg.base_url}/catalogue", headers={"Accept": VND}).status_code == 404


def test_limited_endpoints_carry_the_headers_even_with_the_limit_off(pubg, http) -> None:
    """chicken-dinner reads X-RateLimit-Reset (against Date) on every players answer; PUBG
    always sends them. Off, the allowance is always full."""
    answer = http.get(f"{pubg.base_url}/shards/steam/seasons", headers=headers(pubg))
    assert answer.headers["X-RateLimit-Limit"] == answer.headers["X-RateLimit-Remaining"] == "10"
    assert int(answer.headers["X-RateLimit-Reset"]) == int(NOW.timestamp())
    free = http.get(f"{pubg.base_url}/status", headers=headers(pubg))
    assert "X-RateLimit-Limit" not in free.headers
