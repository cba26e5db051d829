"""Bad input under the PUBG profile: a typed error that names the rule, before any request
(the double's request log shows none reached it)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from matchkit.client.client import Client
from matchkit.client.warnings import ClockSkewWarning
from matchkit.errors import InvalidArgumentError
from matchkit.service import RunningService
from tests.client.pubg.conftest import paths


def test_a_gamelocker_shard_is_refused(
    pubg_service: RunningService, pubg_client: Callable[..., Client]
) -> None:
    before = paths(pubg_service)
    with pytest.raises(InvalidArgumentError, match="not a shard of the pubg profile") as raised:
        pubg_client(shard="global")
    assert "'global' is a shard of the gamelocker profile" in str(raised.value)
    assert "steam, kakao, psn, xbox, console, stadia, tournament" in str(raised.value)
    assert raised.value.parameter == "shard"
    assert paths(pubg_service) == before


def test_eleven_names_are_refused(
    pubg_service: RunningService, pubg_client: Callable[..., Client]
) -> None:
    client = pubg_client()
    before = paths(pubg_service)
    names = [f"player{number}" for number in range(11)]
    with pytest.raises(InvalidArgumentError, match=r"holds 11 values.*at most 10"):
        client.players(names=names)
    with pytest.raises(InvalidArgumentError, match="at most 10"):
        client.players(ids=[f"account.{number}" for number in range(11)])
    assert paths(pubg_service) == before


@pytest.mark.parametrize(
    ("start", "rule"),
    [
        ("2026-11-19T06:00:00Z", "less than 24 hours before now"),
        ("2026-11-01T00:00:00Z", "more than 14 days before now"),
        ("yesterday", "start"),
    ],
)
def test_a_sample_start_breaking_the_rule_is_refused(
    pubg_service: RunningService, pubg_client: Callable[..., Client], start: str, rule: str
) -> None:
    client = pubg_client()
    before = paths(pubg_service)
    with pytest.raises(InvalidArgumentError, match=rule):
        client.samples(start=start)
    assert paths(pubg_service) == before


def test_a_sample_start_is_judged_by_the_services_clock(
    pubg_service: RunningService, pubg_client: Callable[..., Client]
) -> None:
    """Unpinned, the client asks the service its time (GET /status) and nothing else: this
    machine's clock is days past the double's now, by which 2026-11-19T06:00 would be old."""
    client = pubg_client(now=None)
    before = paths(pubg_service)
    with (
        pytest.warns(ClockSkewWarning),
        pytest.raises(InvalidArgumentError, match="less than 24 hours before now"),
    ):
        client.samples(start="2026-11-19T06:00:00Z")
    assert paths(pubg_service)[len(before) :] == ["/status"]


def test_matches_by_time_say_how_matches_are_found(
    pubg_service: RunningService, pubg_client: Callable[..., Client]
) -> None:
    client = pubg_client()
    before = paths(pubg_service)
    for call in (client.matches, client.plan, client.iter_pages):
        with pytest.raises(InvalidArgumentError, match="has no match list") as raised:
            call("2026-11-10", "2026-11-12")
        for way in ("client.players", "client.samples", "client.get_matches"):
            assert way in str(raised.value)
    assert paths(pubg_service) == before


def test_an_unknown_profile_names_the_known_ones(tmp_path) -> None:
    with pytest.raises(InvalidArgumentError, match="profile='fortnite' is not known") as raised:
        Client(profile="fortnite", cache_dir=tmp_path, progress=False)
    assert "gamelocker, pubg" in str(raised.value)
    assert not list(tmp_path.iterdir())  # not even the cache was opened
