"""Every document and telemetry event of the PUBG double has the shape of the recorded ones in
``../shared/pubg/``: the same members, the same kinds of value (a number, a text, a boolean, an
object, a list, or null where the recorded one is null)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
import requests

from matchkit.sampledata.pubg.plan import SampleSetPlan
from matchkit.service import RunningService
from tests.conftest import shared_path
from tests.service.pubg.conftest import available, headers

RECORDED_MATCHES = (
    "match-pubg-python-squad-fpp-baltic.json",
    "match-pubgkt-squad.json",
    "match-pubgkt-tdm.json",
)


def recorded(name: str) -> Any:
    return json.loads(shared_path("pubg", name).read_text(encoding="utf-8"))


def kind(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, int | float):
        return "number"
    return {str: "text", dict: "object", list: "list"}[type(value)]


def agree(mine: dict[str, Any], theirs: dict[str, Any], where: str) -> None:
    """Same members, and each member's value of the same kind (null agreeing with anything
    the other side has: PUBG writes null where a value is absent)."""
    assert set(mine) == set(theirs), where
    for key, value in mine.items():
        ours, recorded_kind = kind(value), kind(theirs[key])
        if "null" not in (ours, recorded_kind):
            assert ours == recorded_kind, f"{where}.{key}: {ours} != {recorded_kind}"


def of_type(document: dict[str, Any], type_: str) -> list[dict[str, Any]]:
    return [item for item in document["included"] if item["type"] == type_]


@pytest.fixture(scope="module")
def served_matches(pubg: RunningService, plan: SampleSetPlan) -> dict[str, dict[str, Any]]:
    """A served match of each game mode, by mode."""
    found: dict[str, dict[str, Any]] = {}
    for match in reversed(plan.shards["steam"].matches):
        if available(match) and match.mode.id not in found:
            url = f"{pubg.base_url}/shards/steam/matches/{match.id}"
            found[match.mode.id] = requests.get(url, headers=headers(pubg)).json()
    return found


@pytest.mark.parametrize("name", RECORDED_MATCHES)
def test_match_documents_have_the_recorded_shape(served_matches, name: str) -> None:
    theirs = recorded(name)
    for mode, mine in served_matches.items():
        where = f"{mode} vs {name}"
        assert set(mine) == set(theirs), where
        agree(mine["data"], theirs["data"], f"{where}: match")
        agree(mine["data"]["attributes"], theirs["data"]["attributes"], f"{where}: attributes")
        assert set(mine["data"]["relationships"]) == set(theirs["data"]["relationships"])
        for type_ in ("roster", "participant", "asset"):
            ours, recorded_one = of_type(mine, type_)[0], of_type(theirs, type_)[0]
            agree(ours, recorded_one, f"{where}: {type_}")
            agree(ours["attributes"], recorded_one["attributes"], f"{where}: {type_} attributes")
            if "stats" in ours["attributes"]:
                agree(
                    ours["attributes"]["stats"],
                    recorded_one["attributes"]["stats"],
                    f"{where}: {type_} stats",
                )
        rosters = of_type(mine, "roster")
        assert {roster["attributes"]["won"] for roster in rosters} == {"true", "false"}
        assert sorted(r["attributes"]["stats"]["rank"] for r in rosters) == list(
            range(1, len(rosters) + 1)
        )
        prefixes = {
            p["attributes"]["stats"]["playerId"].split(".")[0] for p in of_type(mine, "participant")
        }
        assert prefixes <= {"account", "ai"}


def test_the_set_has_bots_and_every_mode(served_matches) -> None:
    assert set(served_matches) >= {"solo", "duo", "squad", "squad-fpp", "tdm"}
    ids = [
        p["attributes"]["stats"]["playerId"]
        for document in served_matches.values()
        for p in of_type(document, "participant")
    ]
    assert any(i.startswith("ai.") for i in ids)
    assert any(i.startswith("account.") for i in ids)


def _players(pubg: RunningService, plan: SampleSetPlan) -> Iterator[tuple[str, Any, Any]]:
    shard = plan.shards["steam"]
    names = ",".join(player.name for player in shard.players[:2])
    yield (
        "players-pubg-python.json",
        requests.get(
            f"{pubg.base_url}/shards/steam/players",
            params={"filter[playerNames]": names},
            headers=headers(pubg),
        ).json(),
        recorded("players-pubg-python.json"),
    )
    yield (
        "player-pubg-python.json",
        requests.get(
            f"{pubg.base_url}/shards/steam/players/{shard.players[0].id}", headers=headers(pubg)
        ).json(),
        recorded("player-pubg-python.json"),
    )


def test_player_documents_have_the_recorded_shape(
    pubg: RunningService, plan: SampleSetPlan
) -> None:
    for name, mine, theirs in _players(pubg, plan):
        assert set(mine) == set(theirs), name
        ours = mine["data"] if isinstance(mine["data"], dict) else mine["data"][0]
        recorded_one = theirs["data"] if isinstance(theirs["data"], dict) else theirs["data"][0]
        agree(ours, recorded_one, name)
        agree(ours["attributes"], recorded_one["attributes"], f"{name} attributes")
        assert set(ours["relationships"]) == set(recorded_one["relationships"])
        assert set(ours["links"]) == set(recorded_one["links"])


def test_samples_and_seasons_have_the_recorded_shape(pubg: RunningService) -> None:
    mine = requests.get(f"{pubg.base_url}/shards/steam/samples", headers=headers(pubg)).json()
    theirs = recorded("samples-pubg-python.json")
    assert set(mine) == set(theirs)
    agree(mine["data"], theirs["data"], "sample")
    agree(mine["data"]["attributes"], theirs["data"]["attributes"], "sample attributes")
    mine = requests.get(f"{pubg.base_url}/shards/steam/seasons", headers=headers(pubg)).json()
    theirs = recorded("seasons-pubg-python.json")
    assert set(mine) == set(theirs)
    agree(mine["data"][0], theirs["data"][0], "season")
    agree(mine["data"][0]["attributes"], theirs["data"][0]["attributes"], "season attributes")


@pytest.fixture(scope="module")
def served_events(served_matches) -> dict[str, list[dict[str, Any]]]:
    events: dict[str, list[dict[str, Any]]] = {}
    for mode in ("squad-fpp", "tdm"):
        (asset,) = of_type(served_matches[mode], "asset")
        for event in requests.get(asset["attributes"]["URL"]).json():
            events.setdefault(event["_T"], []).append(event)
    return events


def _recorded_events() -> dict[str, list[dict[str, Any]]]:
    events: dict[str, list[dict[str, Any]]] = {}
    for event in recorded("telemetry-excerpt-tpa-dist.json"):
        if event["_T"].startswith("LogCarePackage"):  # only the excerpt has them
            events.setdefault(event["_T"], []).append(event)
    for event in recorded("telemetry-js1936-2025-custom-erangel.json"):
        events.setdefault(event["_T"], []).append(event)
    return events


def test_telemetry_events_have_the_recorded_shape(served_events) -> None:
    theirs = _recorded_events()
    assert set(served_events) <= set(theirs)
    assert {
        "LogPlayerKillV2",
        "LogMatchEnd",
        "LogPlayerPosition",
        "LogGameStatePeriodic",
        "LogParachuteLanding",
        "LogCarePackageLand",
        "LogItemPickup",
    } <= set(served_events)
    character = theirs["LogPlayerCreate"][0]["character"]
    for type_, events in served_events.items():
        recorded_events = theirs[type_]
        always = set.intersection(*(set(event) for event in recorded_events))
        # The 2025 file's collector dropped members whose value was null (killer, finisher).
        sometimes = set.union(*(set(event) for event in recorded_events)) | {"killer", "finisher"}
        for event in events:
            assert always <= set(event) <= sometimes, type_
            for key, value in event.items():
                examples = [e[key] for e in recorded_events if e.get(key) is not None]
                if value is not None and examples and key != "common":
                    assert kind(value) == kind(examples[0]), f"{type_}.{key}"
            for key in ("character", "victim", "attacker", "killer"):
                if isinstance(event.get(key), dict):
                    agree(event[key], character, f"{type_}.{key}")
            if "common" in always:
                assert isinstance(event["common"]["isGame"], int | float)
