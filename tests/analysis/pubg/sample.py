"""Matches of the PUBG double's sample set, their documents, raw events and tables, built once.

The files are the sample set's own rendering (what the double's CDN serves), deterministic from
its seed; the raw events are the same files parsed by ``orjson``, for checks computed without
the reader.
"""

from __future__ import annotations

from functools import cache
from typing import Any

import orjson

import matchkit
from matchkit.model.frames import MatchFrames
from matchkit.names import Names, catalogue_names
from matchkit.sampledata.pubg.catalogue import catalogue
from matchkit.sampledata.pubg.documents import match_document
from matchkit.sampledata.pubg.plan import MatchPlan, build_plan
from matchkit.sampledata.pubg.telemetry import telemetry_bytes
from matchkit.telemetry.pubg import PubgTelemetryFrames, to_pubg_telemetry_frames

MATCHES = 16
"""The first 16 steam matches: every game mode (tdm, squad, duo, solo), five maps."""


@cache
def plans() -> tuple[MatchPlan, ...]:
    return tuple(build_plan().shards["steam"].matches[:MATCHES])


@cache
def files() -> tuple[bytes, ...]:
    return tuple(telemetry_bytes(match) for match in plans())


@cache
def documents() -> tuple[dict[str, Any], ...]:
    return tuple(match_document(match, telemetry_url="http://t") for match in plans())


@cache
def frames() -> MatchFrames:
    return matchkit.to_frames(list(documents()))


@cache
def telemetry() -> PubgTelemetryFrames:
    return to_pubg_telemetry_frames(list(files()))


@cache
def small() -> tuple[MatchFrames, PubgTelemetryFrames]:
    """The first three matches (a TDM and two squads), for tests of many calls."""
    return (
        matchkit.to_frames(list(documents()[:3])),
        to_pubg_telemetry_frames(list(files()[:3])),
    )


@cache
def raw() -> dict[str, list[dict[str, Any]]]:
    """match id -> its events, as JSON gives them."""
    return {match.id: orjson.loads(body) for match, body in zip(plans(), files(), strict=True)}


def map_of() -> dict[str, str]:
    """match id -> its map id, from the match documents."""
    return {doc["data"]["id"]: doc["data"]["attributes"]["mapName"] for doc in documents()}


def names() -> Names:
    return catalogue_names(catalogue(), source="the PUBG sample set")


def of_type(events: list[dict[str, Any]], event_type: str) -> list[dict[str, Any]]:
    return [event for event in events if event["_T"] == event_type]


def winners(document: dict[str, Any]) -> set[str]:
    """The account ids of the roster of rank 1, read from the match document."""
    included = document["included"]
    rosters = [item for item in included if item["type"] == "roster"]
    won = next(r for r in rosters if r["attributes"]["stats"]["rank"] == 1)
    members = {ref["id"] for ref in won["relationships"]["participants"]["data"]}
    return {
        item["attributes"]["stats"]["playerId"]
        for item in included
        if item["type"] == "participant" and item["id"] in members
    }
