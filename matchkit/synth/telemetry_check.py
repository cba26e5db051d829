"""Does a telemetry file agree with its match document? The relations of telemetry.md, checked.

:func:`telemetry_mismatches` lists every relation that fails (an empty list: consistent). It
holds for the recorded real file in ``../shared/telemetry`` and for every file the generator
writes; tests of both sides use it. Participants are named as :func:`read_match` names them;
two bots share ``userID`` 0, so sums are compared per user id.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence
from typing import Any

from matchkit.rules.events import ROYALE_EVENT_TYPES
from matchkit.synth.telemetry_match import COSMETICS, PLAYER_STATS, MatchView, read_match

__all__ = ["telemetry_mismatches"]


def _of(events: Sequence[Mapping[str, Any]], suffix: str) -> list[Mapping[str, Any]]:
    return [event["dataObject"] for event in events if event["type"].endswith(suffix)]


def _shape(events: Sequence[Mapping[str, Any]]) -> list[str]:
    problems = []
    for event in events:
        if set(event) != {"cursor", "type", "dataObject"}:
            problems.append(f"event keys {sorted(event)} are not cursor, type, dataObject")
            break
    cursors = [event["cursor"] for event in events]
    if len(set(cursors)) != len(cursors):
        problems.append("cursors repeat")
    if not all(isinstance(cursor, int) for cursor in cursors):
        problems.append("a cursor is not an integer")
    ordered = sorted(events, key=lambda event: event["cursor"])
    times = [event["dataObject"].get("time") for event in ordered]
    if not all(isinstance(time, int) for time in times):
        problems.append("an event has no integer time")
    if ordered and not ordered[-1]["type"].endswith("ServerShutdown"):
        problems.append(f"the last event by cursor is {ordered[-1]['type']}, not ServerShutdown")
    return problems


def _players(view: MatchView, events: Sequence[Mapping[str, Any]]) -> list[str]:
    problems = []
    humans = Counter(person.user_id for person in view.players)
    queued = Counter(data["userId"] for data in _of(events, "QueueEvent"))
    if queued != humans:
        problems.append(f"QueueEvents per player {dict(queued)} != players {dict(humans)}")
    reserved = _of(events, "MatchReservedUser")
    seated = Counter(person.user_id for person in view.participants)
    if Counter(data["accountId"] for data in reserved) != seated:
        problems.append("not one MatchReservedUser per participant (bots included)")
    problems += _named_but_not_reserved(events, set(seated))
    by_id = {person.user_id: person for person in view.players}
    for data in reserved:
        person = by_id.get(data["accountId"])
        if person is None:
            continue
        if data["character"] != person.character:
            problems.append(f"{person.user_id}: character {data['character']} != actor")
        for name in COSMETICS:
            if name in person.cosmetics and data[name] != person.cosmetics[name]:
                problems.append(f"{person.user_id}: {name} {data[name]} != participant's")
    return problems


def _named_but_not_reserved(events: Sequence[Mapping[str, Any]], reserved: set[str]) -> list[str]:
    """Every id an event names has a MatchReservedUser (as in the real file: parsers written
    for it, such as warhound, look each one up)."""
    named: set[str] = set()
    for event in events:
        data = event["dataObject"]
        for key in ("userID", "accountId"):
            if key in data and not event["type"].endswith("MatchReservedUser"):
                named.add(str(data[key]))
        for row in data.get("playerStats") or ():
            named.add(str(row["userID"]))
    missing = sorted(named - reserved)
    return [f"ids named without a MatchReservedUser: {missing}"] if missing else []


def _round_stats(view: MatchView, events: Sequence[Mapping[str, Any]]) -> list[str]:
    problems = []
    finished = sorted(_of(events, "RoundFinishedEvent"), key=lambda data: data["round"])
    rounds = [(one.ordinal, one.duration, one.winning_team) for one in view.rounds]
    seen = [(data["round"], data["roundLength"], data["winningTeam"]) for data in finished]
    if seen != rounds:
        problems.append(f"rounds (ordinal, length, winner) {seen} != the match's {rounds}")
    sums: dict[str, Counter[str]] = defaultdict(Counter)
    for data in finished:
        for row in data["playerStats"]:
            sums[str(row["userID"])].update({name: row.get(name, 0) for name in PLAYER_STATS})
    expected: dict[str, Counter[str]] = defaultdict(Counter)
    carried: dict[str, set[str]] = defaultdict(set)
    for person in view.participants:
        expected[person.user_id].update(person.stats)
        carried[person.user_id].update(person.stats)
    for user_id, names in carried.items():
        for name in sorted(names):
            if sums[user_id][name] != expected[user_id][name]:
                problems.append(
                    f"{user_id}: sum of playerStats {name} {sums[user_id][name]} "
                    f"!= participant's {expected[user_id][name]}"
                )
    return problems


def _deaths(view: MatchView, events: Sequence[Mapping[str, Any]]) -> list[str]:
    """One DeathEvent per death, each in the round its cursor places it in (Arena)."""
    problems = []
    died = Counter(data["userID"] for data in _of(events, "DeathEvent"))
    for person in view.participants:
        if "deaths" in person.stats and died[person.user_id] != sum(
            one.stats.get("deaths", 0) for one in view.participants if one.user_id == person.user_id
        ):
            problems.append(f"{person.user_id}: {died[person.user_id]} DeathEvents != deaths")
    if view.royale:
        return problems
    ordered = sorted(events, key=lambda event: event["cursor"])
    in_round: Counter[tuple[int, str]] = Counter()
    round_index = 0
    for event in ordered:
        if event["type"].endswith("DeathEvent"):
            in_round[(round_index, event["dataObject"]["userID"])] += 1
        elif event["type"].endswith("RoundFinishedEvent"):
            for row in event["dataObject"]["playerStats"]:
                key = (round_index, str(row["userID"]))
                if in_round[key] != sum(
                    one["deaths"]
                    for one in event["dataObject"]["playerStats"]
                    if str(one["userID"]) == key[1]
                ):
                    problems.append(
                        f"round {event['dataObject']['round']}: DeathEvents of {key[1]} "
                        "!= its deaths"
                    )
            round_index += 1
    return problems


def _arena(view: MatchView, events: Sequence[Mapping[str, Any]]) -> list[str]:
    problems = _round_stats(view, events)
    finished = _of(events, "MatchFinishedEvent")
    sides = {roster.side: roster.score for roster in view.rosters}
    if len(finished) != 1:
        problems.append(f"{len(finished)} MatchFinishedEvents, not one")
    else:
        scores = (finished[0]["teamOneScore"], finished[0]["teamTwoScore"])
        if scores != (sides.get(1), sides.get(2)):
            problems.append(f"scores {scores} != roster scores {sides}")
        if finished[0]["matchLength"] != view.duration:
            problems.append(f"matchLength {finished[0]['matchLength']} != {view.duration}")
    picks = Counter(data["userID"] for data in _of(events, "BattleritePickEvent"))
    if any(count != 5 for count in picks.values()) or set(picks) != {
        person.user_id for person in view.players
    }:
        problems.append(f"battlerite picks per player {dict(picks)} are not five each")
    first = view.rounds[0].ordinal if view.rounds else 0
    if any(data["round"] != first for data in _of(events, "BattleritePickEvent")):
        problems.append(f"a battlerite pick outside the first round ({first})")
    if view.ranked and len(_of(events, "TeamUpdateEvent")) != len(view.rosters):
        problems.append("a ranked match without one TeamUpdateEvent per roster")
    return problems


def telemetry_mismatches(
    document: Mapping[str, Any], events: Sequence[Mapping[str, Any]]
) -> list[str]:
    """Every relation of telemetry.md that ``events`` break against ``document``.

    Args:
        document: the single-match JSON:API document.
        events: the telemetry file's parsed array.

    Returns:
        One sentence per broken relation; empty when the file agrees with the match.
    """
    view = read_match(document)
    problems = _shape(events)
    starts = _of(events, "MatchStart")
    created = int(view.created_at.timestamp())
    if len(starts) != 1 or starts[0]["time"] // 1000 != created:
        problems.append("not one MatchStart at the match's createdAt")
    problems += _players(view, events)
    problems += _deaths(view, events)
    if view.royale:
        extra = {event["type"] for event in events} - set(ROYALE_EVENT_TYPES)
        if extra:
            problems.append(f"a Royale match with events beyond match level: {sorted(extra)}")
    else:
        problems += _arena(view, events)
    return problems
