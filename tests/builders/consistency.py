"""A telemetry file against its match document, through the package's own check.

The relations of ``spec/telemetry.md`` are implemented once, on frames
(:func:`matchkit.telemetry.consistency.consistency_problems`); tests that hold a raw document and
a raw event list go through the readers to it, so a file the readers refuse (repeated cursors,
events of another match) counts as a mismatch too. The relations ``consistency_problems`` does not
check are checked here on the raw events: ServerShutdown is the last event by cursor; every id an
event names has a MatchReservedUser (parsers written for the real file, such as warhound, look
each one up); one QueueEvent per player (bots do not queue); in a ranked Arena match one
TeamUpdateEvent per roster.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from matchkit.errors import MatchkitError
from matchkit.normalize import to_frames
from matchkit.sampledata.telemetry.match import read_match
from matchkit.telemetry import to_telemetry_frames
from matchkit.telemetry.consistency import consistency_problems

__all__ = ["mismatches_of", "telemetry_mismatches"]


def _raw(document: Mapping[str, Any], events: Sequence[Mapping[str, Any]]) -> list[str]:
    problems = []
    ordered = sorted(events, key=lambda event: event["cursor"])
    if ordered and not ordered[-1]["type"].endswith("ServerShutdown"):
        problems.append(f"the last event by cursor is {ordered[-1]['type']}, not ServerShutdown")
    of = {event["type"].rsplit(".", 1)[-1]: [] for event in events}
    for event in events:
        of[event["type"].rsplit(".", 1)[-1]].append(event["dataObject"])
    reserved = {str(data["accountId"]) for data in of.get("MatchReservedUser", ())}
    named: set[str] = set()
    for kind, objects in of.items():
        for data in objects:
            if kind != "MatchReservedUser":
                named.update(str(data[key]) for key in ("userID", "accountId") if key in data)
            named.update(str(row["userID"]) for row in data.get("playerStats") or ())
    if named - reserved:
        problems.append(f"ids named without a MatchReservedUser: {sorted(named - reserved)}")
    view = read_match(document)
    queued = Counter(str(data["userId"]) for data in of.get("QueueEvent", ()))
    humans = Counter(person.user_id for person in view.players)
    if queued != humans:
        problems.append(f"QueueEvents per player {dict(queued)} != players {dict(humans)}")
    teams = len(of.get("TeamUpdateEvent", ()))
    if view.ranked and not view.royale and teams != len(view.rosters):
        problems.append(f"a ranked match with {teams} TeamUpdateEvents for {len(view.rosters)}")
    return problems


def mismatches_of(
    documents: Sequence[Mapping[str, Any]], files: Sequence[Sequence[Mapping[str, Any]]]
) -> list[str]:
    """Every relation the files break against their single-match documents, in one batch.

    Args:
        documents: single-match documents.
        files: the parsed telemetry file of each document, in the same order.
    """
    try:
        telemetry = to_telemetry_frames([list(events) for events in files])
    except MatchkitError as error:
        return [f"the readers refuse a file: {error}"]
    problems = list(telemetry.problems)
    problems += consistency_problems(to_frames([dict(one) for one in documents]), telemetry)
    for document, events in zip(documents, files, strict=True):
        problems += _raw(document, events)
    return problems


def telemetry_mismatches(
    document: Mapping[str, Any], events: Sequence[Mapping[str, Any]]
) -> list[str]:
    """Every relation ``events`` break against the single-match ``document`` (empty: none)."""
    return mismatches_of([document], [events])
