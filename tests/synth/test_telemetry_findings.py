"""The findings the telemetry model puts in are there to recover, at the stated parameters.

Over the first 1,500 matches of the default seed (the sample set's), each estimate is held
against the parameter of :mod:`matchkit.sampledata.telemetry.parameters` within four standard errors
(or a stated tolerance for means of bounded draws).
"""

from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import pytest

from matchkit.sampledata.telemetry import parameters as t
from matchkit.sampledata.telemetry import telemetry_events
from matchkit.sampledata.telemetry.catalogue import (
    character_kit,
    featured_battlerite,
    kit_catalogue,
)
from matchkit.sampledata.telemetry.match import read_match
from matchkit.synth import iter_documents

MATCHES = 1500


@dataclass
class Tally:
    """What the tests count over the generated telemetry."""

    featured: dict[bool, list[bool]] = field(default_factory=lambda: {True: [], False: []})
    rank_picks: dict[int, int] = field(default_factory=lambda: defaultdict(int))
    queue_ratio: list[float] = field(default_factory=list)
    eu_queue: dict[bool, list[float]] = field(default_factory=lambda: {True: [], False: []})
    pings: dict[str, list[int]] = field(default_factory=lambda: defaultdict(list))
    minutes_alive: float = 0.0
    round_events: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    disables: dict[str, list[int]] = field(default_factory=lambda: defaultdict(lambda: [0, 0]))
    foreign_picks: int = 0


def _tally(tally: Tally, document: dict[str, Any]) -> None:
    view = read_match(document)
    events = telemetry_events(document)
    won = {one.user_id: roster.won for roster in view.rosters for one in roster.participants}
    actor_of = {one.user_id: one.actor for one in view.participants}
    featured_actor, featured = featured_battlerite()
    night = t.QUEUE_NIGHT_HOURS_UTC[0] <= view.created_at.hour < t.QUEUE_NIGHT_HOURS_UTC[1]
    picks: dict[str, set[int]] = defaultdict(set)
    for event in events:
        data, kind = event["dataObject"], event["type"].rsplit(".", 1)[-1]
        if kind == "BattleritePickEvent":
            picks[data["userID"]].add(data["battleriteType"])
            kit = character_kit(actor_of[data["userID"]])
            tally.rank_picks[kit.battlerites.index(data["battleriteType"])] += 1
            if data["battleriteType"] == featured and actor_of[data["userID"]] != featured_actor:
                tally.foreign_picks += 1
        elif kind == "QueueEvent":
            mean = t.queue_mean_seconds(data["league"], view.region, night=night)
            tally.queue_ratio.append(data["timeInQueue"] / float(mean))
            if view.region == t.QUEUE_NIGHT_REGION and data["league"] == 0:
                tally.eu_queue[night].append(data["timeInQueue"])
            own = next(s for s in data["regionSamples"] if s["region"] == data["matchRegion"])
            tally.pings[view.region].append(own["latencyMS"])
        elif kind == "RoundEvent":
            tally.round_events[data["type"]] += 1
        elif kind == "RoundFinishedEvent":
            for row in data["playerStats"]:
                if row["userID"] == "0":
                    continue  # bots have no round events
                tally.minutes_alive += row["timeAlive"] / 60
                role = character_kit(actor_of[row["userID"]]).role
                tally.disables[role][0] += row["disablesDone"]
                tally.disables[role][1] += row["timeAlive"]
    for user_id, chosen in picks.items():
        if actor_of[user_id] == featured_actor:
            tally.featured[won[user_id]].append(featured in chosen)


@pytest.fixture(scope="module")
def tally() -> Tally:
    result = Tally()
    for document in iter_documents("global", matches=MATCHES):
        if document["data"]["attributes"]["game"] == "Arena":
            _tally(result, document)
    return result


def _within(values: list[bool], probability: str) -> None:
    expected = float(Fraction(probability))
    error = math.sqrt(expected * (1 - expected) / len(values))
    assert abs(sum(values) / len(values) - expected) < 4 * error, (sum(values), len(values))


def test_the_featured_battlerite_goes_with_winning(tally):
    assert len(tally.featured[True]) > 100
    assert len(tally.featured[False]) > 100
    _within(tally.featured[True], t.FEATURED_PICK_WHEN_WON)
    _within(tally.featured[False], t.FEATURED_PICK_WHEN_LOST)
    assert tally.foreign_picks == 0  # only its character has it


def test_battlerites_are_picked_by_catalogue_rank(tally):
    ranks = [tally.rank_picks[rank] for rank in range(t.BATTLERITES_PER_CHARACTER)]
    assert ranks[0] > ranks[4] > ranks[-1] > 0
    assert len({rite for kit in kit_catalogue().values() for rite in kit.battlerites}) == (
        t.BATTLERITES_PER_CHARACTER * len(kit_catalogue())
    )


def test_queue_times_follow_league_region_and_night(tally):
    ratios = tally.queue_ratio
    mean = sum(ratios) / len(ratios)
    spread = math.sqrt(sum((r - mean) ** 2 for r in ratios) / (len(ratios) - 1))
    assert abs(mean - 1) < 4 * spread / math.sqrt(len(ratios))
    night, day = tally.eu_queue[True], tally.eu_queue[False]
    assert len(night) > 20
    ratio = (sum(night) / len(night)) / (sum(day) / len(day))
    assert abs(ratio - float(Fraction(t.QUEUE_NIGHT_FACTOR))) < 0.6


def test_pings_by_region(tally):
    for region, (low, mode, high) in t.PING_MS:
        values = tally.pings[region]
        assert len(values) > 50, region
        # triangular draws rounded down: mean (low + mode + high) / 3 - 1/2
        expected = (low + mode + high) / 3 - 0.5
        error = (high - low) / math.sqrt(18) / math.sqrt(len(values))
        assert abs(sum(values) / len(values) - expected) < 4 * error + 0.5, region


def test_round_events_per_minute_alive(tally):
    for kind, rate in t.ROUND_EVENT_RATES:
        observed = tally.round_events[kind] / tally.minutes_alive
        assert abs(observed / float(Fraction(rate)) - 1) < 0.05, kind


def test_disables_per_minute_by_role(tally):
    for role, rate in t.DISABLES_PER_MINUTE:
        done, seconds = tally.disables[role]
        assert abs(done * 60 / seconds / rate - 1) < 0.03, role
