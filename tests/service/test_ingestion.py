"""When the reference service lists a match (decision 20): once ``createdAt + duration + delay``
has passed, the delay drawn per match from a documented distribution; before then a list leaves
it out, a get by id is a 404 and a player's latest snapshot is not yet the one it carries."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
import requests

from matchkit.errors import InvalidArgumentError
from matchkit.rules.windows import SETTLE, format_time, parse_time
from matchkit.sampledata.dataset import open_dataset
from matchkit.service import RunningService, running
from matchkit.service.ingestion import DEFAULT_DELAY, OFF, IngestionDelay, match_draw
from tests.service.conftest import NOW, Oracle


@pytest.mark.parametrize(
    ("spec", "delay"),
    [
        ("90s", timedelta(seconds=90)),
        ("10m", timedelta(minutes=10)),
        ("2h", timedelta(hours=2)),
        ("0", timedelta(0)),
        (0, timedelta(0)),
        (30.5, timedelta(seconds=30.5)),
        (timedelta(minutes=3), timedelta(minutes=3)),
    ],
)
def test_a_fixed_delay_is_read(spec: Any, delay: timedelta) -> None:
    parsed = IngestionDelay.parse(spec)
    assert parsed.delay(0.0) == parsed.delay(0.999) == delay == parsed.longest


def test_default_and_off() -> None:
    assert IngestionDelay.parse(None) is DEFAULT_DELAY
    assert IngestionDelay.parse("default") is DEFAULT_DELAY
    assert IngestionDelay.parse("OFF") is OFF
    assert OFF.from_creation
    assert OFF.longest == timedelta(0)


@pytest.mark.parametrize("spec", ["soon", "-5", "5d", "nan", True, [1], float("inf")])
def test_a_bad_setting_is_refused_naming_it(spec: Any) -> None:
    with pytest.raises(InvalidArgumentError, match="ingestion_delay") as raised:
        IngestionDelay.parse(spec)
    assert raised.value.parameter == "ingestion_delay"


def test_quantiles_must_rise() -> None:
    with pytest.raises(InvalidArgumentError, match="quantiles"):
        IngestionDelay(((0.0, timedelta(minutes=5)), (1.0, timedelta(minutes=1))))
    with pytest.raises(InvalidArgumentError, match="quantiles"):
        IngestionDelay(((0.1, timedelta(0)), (1.0, timedelta(minutes=1))))


def test_the_default_distribution_is_minutes_with_a_long_tail_of_hours() -> None:
    """Over the sample set's matches (their own draws): the documented quantiles hold."""
    dataset = open_dataset()
    draws = [
        match_draw(shard, document["data"]["id"])
        for shard in dataset.shards
        for document in dataset.iter_documents(shard)
    ]
    delays = sorted(DEFAULT_DELAY.delay(draw) for draw in draws)
    share = {
        limit: sum(delay <= limit for delay in delays) / len(delays)
        for limit in (timedelta(minutes=2), timedelta(minutes=10), timedelta(hours=1))
    }
    assert 0.45 < share[timedelta(minutes=2)] < 0.55
    assert 0.87 < share[timedelta(minutes=10)] < 0.93
    assert 0.98 < share[timedelta(hours=1)] < 1.0  # a tail of hours beyond
    assert delays[-1] <= DEFAULT_DELAY.longest == timedelta(hours=5)
    assert DEFAULT_DELAY.longest + timedelta(hours=1) <= SETTLE  # matches of up to an hour


def test_a_draw_is_the_same_everywhere_and_spread() -> None:
    assert match_draw("global", "m1") == match_draw("global", "m1")
    assert match_draw("global", "m1") != match_draw("na", "m1")
    draws = [match_draw("global", str(n)) for n in range(2000)]
    assert all(0.0 <= draw < 1.0 for draw in draws)
    assert 0.45 < sum(draw < 0.5 for draw in draws) / len(draws) < 0.55


def test_the_sql_of_a_delay_agrees_with_it() -> None:
    import sqlite3

    connection = sqlite3.connect(":memory:")
    for draw in (0.0, 0.2, 0.5, 0.7, 0.9, 0.95, 0.99, 0.995, 0.999999):
        (micros,) = connection.execute(f"SELECT {DEFAULT_DELAY.sql('?')}", [draw] * 8).fetchone()
        assert abs(micros - DEFAULT_DELAY.delay(draw) / timedelta(microseconds=1)) < 2


# -- the service ---------------------------------------------------------------------------------


def _visible_at(document: dict[str, Any], shard: str, delay: IngestionDelay) -> datetime:
    match = document["data"]
    ended = parse_time(match["attributes"]["createdAt"]) + timedelta(
        seconds=match["attributes"].get("duration") or 0
    )
    return ended + delay.delay(match_draw(shard, match["id"]))


@pytest.fixture(scope="module")
def late(oracle: Oracle) -> tuple[dict[str, Any], datetime]:
    """A match of the factory set, and when the default delay lists it (one of the last day)."""
    recent = [m for m in oracle.matches["global"] if m.created_at > NOW - timedelta(days=1)]
    match = recent[len(recent) // 2]
    return match.document, _visible_at(match.document, "global", DEFAULT_DELAY)


@pytest.fixture(scope="module")
def at_the_moment(
    late: tuple[dict[str, Any], datetime], dataset_dir: Path, store_dir: Path
) -> Iterator[dict[str, RunningService]]:
    """The service a second before and a second after the moment the match is listed (the
    service computes the moment in SQL, to the microsecond)."""
    _, moment = late
    with (
        running(
            data=dataset_dir,
            store_dir=store_dir,
            now=moment - timedelta(seconds=1),
            ingestion_delay="default",
        ) as before,
        running(
            data=dataset_dir,
            store_dir=store_dir,
            now=moment + timedelta(seconds=1),
            ingestion_delay="default",
        ) as at,
    ):
        yield {"before": before, "at": at}


def _listed(service: RunningService, document: dict[str, Any]) -> list[str]:
    created = parse_time(document["data"]["attributes"]["createdAt"])
    response = requests.get(
        service.base_url + "/shards/global/matches",
        params={
            "filter[createdAt-start]": format_time(created),
            "filter[createdAt-end]": format_time(created + timedelta(seconds=1)),
        },
        headers={"Authorization": f"Bearer {service.api_key}"},
        timeout=30,
    )
    assert response.status_code == 200
    return [item["id"] for item in response.json()["data"]]


def _get(service: RunningService, match_id: str) -> int:
    return requests.get(
        f"{service.base_url}/shards/global/matches/{match_id}",
        headers={"Authorization": f"Bearer {service.api_key}"},
        timeout=30,
    ).status_code


def test_a_match_is_listed_and_served_only_once_its_delay_has_passed(
    late: tuple[dict[str, Any], datetime], at_the_moment: dict[str, RunningService]
) -> None:
    document, _ = late
    match_id = document["data"]["id"]
    assert match_id not in _listed(at_the_moment["before"], document)
    assert _get(at_the_moment["before"], match_id) == 404
    assert match_id in _listed(at_the_moment["at"], document)
    assert _get(at_the_moment["at"], match_id) == 200


def test_a_players_snapshot_is_of_their_latest_listed_match() -> None:
    """On the sample set, whose players' lifetime stats grow match by match: until a match is
    listed, its players' snapshot is the one of their match before."""
    dataset = open_dataset()
    documents = list(dataset.iter_documents("global"))
    document = documents[-1]
    moment = _visible_at(document, "global", DEFAULT_DELAY)
    snapshots = {i["id"]: i for i in document["included"] if i["type"] == "player"}

    def players(now: datetime) -> dict[str, Any]:
        with running(now=now, ingestion_delay="default") as service:
            response = requests.get(
                service.base_url + "/shards/global/players",
                params={"filter[playerIds]": ",".join(sorted(snapshots)[:6])},
                headers={"Authorization": f"Bearer {service.api_key}"},
                timeout=30,
            )
        return {item["id"]: item["attributes"] for item in response.json()["data"]}

    before = players(moment - timedelta(seconds=1))
    after = players(moment + timedelta(seconds=1))
    for player_id in sorted(snapshots)[:6]:
        assert after[player_id] == snapshots[player_id]["attributes"]
        assert before.get(player_id) != snapshots[player_id]["attributes"]


def test_off_lists_from_created_at_and_zero_once_ended(
    oracle: Oracle, dataset_dir: Path, store_dir: Path
) -> None:
    match = oracle.matches["global"][-1]
    duration = timedelta(seconds=match.document["data"]["attributes"]["duration"])
    in_play = match.created_at + duration / 2  # the service's now: the match is being played
    with (
        running(data=dataset_dir, store_dir=store_dir, now=in_play, ingestion_delay="off") as off,
        running(data=dataset_dir, store_dir=store_dir, now=in_play, ingestion_delay=0) as zero,
    ):
        assert match.id in _listed(off, match.document)
        assert _get(off, match.id) == 200
        assert match.id not in _listed(zero, match.document)
        assert _get(zero, match.id) == 404


def test_create_app_takes_the_modelled_delay_by_default(dataset_dir: Path, store_dir: Path) -> None:
    from matchkit.service.app import create_app

    app = create_app(data=dataset_dir, store_dir=store_dir, ingestion_delay="10m")
    assert app.state.service.ingestion == IngestionDelay.fixed(timedelta(minutes=10))
    assert str(app.state.service.ingestion) == "10 min after its end"
    default = create_app(data=dataset_dir, store_dir=store_dir).state.service.ingestion
    assert default is DEFAULT_DELAY
