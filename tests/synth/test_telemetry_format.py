"""Generated telemetry against the recorded real file (../shared/telemetry), the format reference.

The real file is a ranked 3v3 match: a generated ranked 3v3 file must have the same event types,
the same ``dataObject`` keys per type (in the same order) and the same JSON types. The
consistency check must accept the real file against its match, and must catch each kind of
break in a generated one.
"""

from __future__ import annotations

import copy
import json
from collections import defaultdict
from typing import Any

import pytest

from matchkit.sampledata.telemetry import telemetry_events
from matchkit.synth import iter_documents
from tests.builders.consistency import telemetry_mismatches
from tests.conftest import shared_path

MATCH_ID = "4810AA4CC2C34FDCBA34C7E8915EAFD4"


@pytest.fixture(scope="module")
def real() -> tuple[dict[str, Any], list[dict[str, Any]]]:
    folder = shared_path("telemetry")
    document = json.loads((folder / f"match-response-{MATCH_ID}.json").read_text())
    events = json.loads((folder / f"telemetry-{MATCH_ID}.json").read_text())
    return document, events


@pytest.fixture(scope="module")
def ranked_3v3() -> dict[str, Any]:
    for document in iter_documents("global", seed=11, matches=200):
        attributes = document["data"]["attributes"]
        tags = attributes["tags"]
        if tags == {"rankingType": "RANKED", "serverType": "QUICK3V3"}:
            return document
    raise AssertionError("no ranked 3v3 match among 200")


def _json_type(value: Any) -> str:
    # float vs int matters (timeInQueue is a float in the real file); bool before int
    for kind, name in ((bool, "bool"), (int, "int"), (float, "float"), (str, "str")):
        if isinstance(value, kind):
            return name
    if isinstance(value, list):
        return "list[" + ",".join(sorted({_json_type(item) for item in value})) + "]"
    if isinstance(value, dict):
        return "object{" + ",".join(f"{k}:{_json_type(v)}" for k, v in value.items()) + "}"
    return type(value).__name__


def _shapes(events: list[dict[str, Any]]) -> dict[str, dict[str, set[str]]]:
    """type -> field -> the JSON types seen (list element types merged)."""
    shapes: dict[str, dict[str, set[str]]] = defaultdict(lambda: defaultdict(set))
    for event in events:
        for key, value in event["dataObject"].items():
            shapes[event["type"]][key].add(_json_type(value))
    return shapes


def _merge_lists(types: set[str]) -> set[str]:
    """An empty list has no element type: ``list[]`` fits any list."""
    lists = {kind for kind in types if kind.startswith("list[") and kind != "list[]"}
    return (types - {"list[]"}) if lists else types


def test_the_same_event_types_as_the_real_file(real, ranked_3v3):
    _, real_events = real
    generated = telemetry_events(ranked_3v3)
    assert {e["type"] for e in generated} == {e["type"] for e in real_events}


def test_the_same_fields_in_the_same_order_per_type(real, ranked_3v3):
    _, real_events = real
    first_real = {}
    for event in real_events:
        first_real.setdefault(event["type"], list(event["dataObject"]))
    for event in telemetry_events(ranked_3v3):
        assert set(event) == {"cursor", "type", "dataObject"}
        assert list(event["dataObject"]) == first_real[event["type"]], event["type"]


def test_the_same_json_types_per_field(real, ranked_3v3):
    _, real_events = real
    real_shapes = _shapes(real_events)
    generated = _shapes(telemetry_events(ranked_3v3))
    for kind, fields in generated.items():
        for key, types in fields.items():
            expected = _merge_lists(real_shapes[kind][key])
            assert _merge_lists(types) <= expected, (kind, key, types, expected)


def test_the_same_shape_of_player_stats_and_region_samples(real, ranked_3v3):
    _, real_events = real

    def first(events, kind, field):
        return next(e["dataObject"][field][0] for e in events if e["type"].endswith(kind))

    generated = telemetry_events(ranked_3v3)
    for kind, field in (("RoundFinishedEvent", "playerStats"), ("QueueEvent", "regionSamples")):
        real_row, row = first(real_events, kind, field), first(generated, kind, field)
        assert list(row) == list(real_row)
        assert [_json_type(v) for v in row.values()] == [_json_type(v) for v in real_row.values()]


def test_the_check_accepts_the_real_file(real):
    document, events = real
    assert telemetry_mismatches(document, events) == []


def _find(events, kind):
    return next(e for e in events if e["type"].endswith(kind))


def _breaks():
    def stat(events):
        _find(events, "RoundFinishedEvent")["dataObject"]["playerStats"][0]["damageDone"] += 1

    def winner(events):
        data = _find(events, "RoundFinishedEvent")["dataObject"]
        data["winningTeam"] = 3 - data["winningTeam"]

    def death(events):
        events.remove(_find(events, "DeathEvent"))

    def death_moved(events):
        """A death moved to the round after its own, by cursor."""
        ordered = sorted(events, key=lambda e: e["cursor"])
        finished = [e for e in ordered if e["type"].endswith("RoundFinishedEvent")]
        dying = next(e for e in ordered if e["type"].endswith("DeathEvent"))
        dying["cursor"] = finished[0]["cursor"] + 1
        while any(e is not dying and e["cursor"] == dying["cursor"] for e in events):
            dying["cursor"] += 1

    def cosmetic(events):
        _find(events, "MatchReservedUser")["dataObject"]["mount"] += 1

    def character(events):
        _find(events, "MatchReservedUser")["dataObject"]["character"] += 1

    def score(events):
        _find(events, "MatchFinishedEvent")["dataObject"]["teamOneScore"] += 1

    def pick(events):
        events.remove(_find(events, "BattleritePickEvent"))

    def queue(events):
        events.remove(_find(events, "QueueEvent"))

    def team(events):
        events.remove(_find(events, "TeamUpdateEvent"))

    def cursor(events):
        events[1]["cursor"] = events[0]["cursor"]

    def last(events):
        shutdown = _find(events, "ServerShutdown")
        shutdown["cursor"] = min(e["cursor"] for e in events) - 1

    return [
        stat,
        winner,
        death,
        death_moved,
        cosmetic,
        character,
        score,
        pick,
        queue,
        team,
        cursor,
        last,
    ]


@pytest.mark.parametrize("breaking", _breaks(), ids=lambda f: f.__name__)
def test_the_check_catches_each_break(ranked_3v3, breaking):
    events = telemetry_events(ranked_3v3)
    assert telemetry_mismatches(ranked_3v3, events) == []
    broken = copy.deepcopy(events)
    breaking(broken)
    assert telemetry_mismatches(ranked_3v3, broken) != []
