"""The PUBG sample set: deterministic, long enough, and true to its documented model; each
telemetry file agrees with its match document, event by event."""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from datetime import timedelta
from functools import cache

import pytest

from matchkit.rules.windows import parse_time
from matchkit.sampledata.pubg import parameters as p
from matchkit.sampledata.pubg.catalogue import catalogue
from matchkit.sampledata.pubg.documents import match_document
from matchkit.sampledata.pubg.outcome import draw_outcome
from matchkit.sampledata.pubg.plan import MatchPlan, Player, build_plan
from matchkit.sampledata.pubg.telemetry import telemetry_bytes, telemetry_events


@cache
def plan():
    return build_plan()


def one_of_each_mode() -> list[MatchPlan]:
    found: dict[str, MatchPlan] = {}
    for match in plan().shards["steam"].matches:
        found.setdefault(match.mode.id, match)
    return list(found.values())


def test_the_same_seed_gives_the_same_set() -> None:
    again = build_plan()
    for shard, drawn in plan().shards.items():
        assert [m.id for m in again.shards[shard].matches] == [m.id for m in drawn.matches]
        assert again.shards[shard].players == drawn.players
    match = plan().shards["steam"].matches[7]
    assert match_document(match, telemetry_url="http://t") == match_document(
        again.shards["steam"].matches[7], telemetry_url="http://t"
    )
    assert telemetry_bytes(match) == telemetry_bytes(again.shards["steam"].matches[7])
    other = build_plan(seed=7)
    assert other.shards["steam"].matches[0].id != match.id


def test_the_set_spans_more_than_the_retention() -> None:
    matches = plan().shards["steam"].matches
    end = parse_time(p.AS_OF)
    assert matches[0].created_at < end - timedelta(days=19)
    assert all(m.ended_at < end for m in matches)
    assert len(matches) == p.DAYS * p.MATCHES_PER_DAY["steam"]
    assert {m.map.id for m in matches} == {spec.id for spec in p.MAPS}
    assert {m.mode.id for m in matches} == {mode.id for mode in p.GAME_MODES}


def test_some_players_play_many_matches() -> None:
    counts = sorted((len(v) for v in plan().shards["steam"].matches_of.values()), reverse=True)
    assert counts[0] > 200
    assert counts[len(counts) // 2] >= 5


@pytest.mark.parametrize("match", one_of_each_mode(), ids=lambda m: m.mode.id)
def test_telemetry_agrees_with_its_match(match: MatchPlan) -> None:
    document = match_document(match, telemetry_url="http://t")
    events = telemetry_events(match)
    rosters = {r["id"]: r for r in document["included"] if r["type"] == "roster"}
    rank_of = {}
    stats = {}
    for roster in rosters.values():
        for ref in roster["relationships"]["participants"]["data"]:
            rank_of[ref["id"]] = roster["attributes"]["stats"]["rank"]
    for item in document["included"]:
        if item["type"] == "participant":
            one = item["attributes"]["stats"]
            assert one["winPlace"] == rank_of[item["id"]]
            stats[one["playerId"]] = one
    kills, knocks, damage = Counter(), Counter(), defaultdict(float)
    last_position: dict[str, float] = {}
    start = match.created_at

    def seconds(event) -> float:
        return (parse_time(event["_D"]) - start).total_seconds()

    for event in events:
        kind = event["_T"]
        if kind == "LogPlayerKillV2":
            victim = event["victim"]["accountId"]
            if event["killer"] is not None:
                killer = event["killer"]["accountId"]
                kills[killer] += 1
                assert stats[killer]["timeSurvived"] >= seconds(event) - 0.1  # alive to kill
                assert event["killer"]["teamId"] != event["victim"]["teamId"]
            if match.mode.match_type != "arcade":
                assert abs(stats[victim]["timeSurvived"] - seconds(event)) <= 0.05
        elif kind == "LogPlayerMakeGroggy":
            knocks[event["attacker"]["accountId"]] += 1
        elif kind == "LogPlayerTakeDamage" and "attacker" in event:
            damage[event["attacker"]["accountId"]] += event["damage"]
        elif kind == "LogPlayerPosition":
            last_position[event["character"]["accountId"]] = event["elapsedTime"]
        elif kind == "LogMatchEnd":
            for entry in event["characters"]:
                character = entry["character"]
                assert character["ranking"] == stats[character["accountId"]]["winPlace"]
    for player_id, one in stats.items():
        assert one["kills"] == kills[player_id], player_id
        assert one["DBNOs"] == knocks[player_id], player_id
        assert one["damageDealt"] == pytest.approx(damage[player_id]), player_id
        assert last_position.get(player_id, 0) <= one["timeSurvived"] + 0.05
    assert [e["_T"] for e in events][:1] == ["LogMatchDefinition"]
    assert events[-1]["_T"] == "LogMatchEnd"
    assert [e["_D"] for e in events] == sorted(e["_D"] for e in events)


def test_placements_follow_roster_strength_as_documented() -> None:
    """Plackett-Luce on strength: the strongest roster wins with probability S_max / sum(S)."""
    expected = observed = variance = 0.0
    for match in plan().shards["steam"].matches:
        if match.mode.match_type == "arcade":
            continue
        strength = [sum(slot.skill for slot in roster) for roster in match.rosters]
        share = max(strength) / sum(strength)
        ranks = draw_outcome(match).ranks
        strongest = [r for r, s in enumerate(strength) if s == max(strength)]
        expected += share * len(strongest)
        observed += any(ranks[r] == 1 for r in strongest)
        variance += share * len(strongest) * (1 - share * len(strongest))
    assert abs(observed - expected) < 4 * math.sqrt(variance)


def test_kills_follow_skill() -> None:
    kills: dict[int, list[int]] = defaultdict(list)
    for match in plan().shards["steam"].matches[:200]:
        outcome = draw_outcome(match)
        for (r, s), one in outcome.stats.items():
            slot = match.rosters[r][s]
            if isinstance(slot, Player):
                kills[slot.skill].append(one.kills)
    means = {skill: sum(values) / len(values) for skill, values in kills.items()}
    assert means[1] < means[2] < means[4]


def test_the_catalogue_names_what_the_set_generates() -> None:
    names = catalogue()["names"]
    match = one_of_each_mode()[0]
    assert names["map"]["Baltic_Main"] == "Erangel"
    assert match.map.id in names["map"]
    causers = {e.get("damageCauserName") for e in telemetry_events(match)} - {None}
    assert causers <= set(names["damage_causer"])
    items = {e["item"]["itemId"] for e in telemetry_events(match) if "item" in e}
    assert items <= set(names["item"])
