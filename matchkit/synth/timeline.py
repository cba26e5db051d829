"""When matches happen: start times spread over the data set's days with a daily cycle."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

from matchkit.sampledata import parameters as p
from matchkit.sampledata.sampling import Draw, WeightedTable
from matchkit.synth.population import Team

__all__ = [
    "draw_match_starts",
    "format_moment",
    "ref",
    "resource",
    "team_resource",
    "timed_documents",
]


def format_moment(moment: datetime) -> str:
    """The wire form of a time: ``YYYY-MM-DDTHH:MM:SSZ``."""
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def draw_match_starts(draw: Draw, count: int, *, as_of: datetime, days: int) -> list[datetime]:
    """``count`` start times in ``[as_of - days, as_of - END_MARGIN)``, whole seconds.

    A day is drawn uniformly among the UTC dates the window touches, an hour from
    :data:`matchkit.sampledata.parameters.HOURLY_ACTIVITY`, a second uniformly within the hour;
    a time outside the window is drawn again. Not sorted.
    """
    start = as_of - timedelta(days=days)
    stop = as_of - timedelta(seconds=p.END_MARGIN_SECONDS)
    first_day = start.replace(hour=0, minute=0, second=0, microsecond=0)
    day_count = (stop - first_day).days + 1
    hours = WeightedTable(range(24), p.HOURLY_ACTIVITY)
    starts: list[datetime] = []
    while len(starts) < count:
        moment = first_day + timedelta(
            days=draw.integer(0, day_count - 1),
            hours=draw.table(hours),
            seconds=draw.integer(0, 3599),
        )
        if start <= moment < stop:
            starts.append(moment)
    return starts


def timed_documents(
    label: str,
    new_id: Callable[[Draw], str],
    build: Callable[[str, datetime], dict[str, Any]],
    *,
    matches: int,
    as_of: datetime,
    days: int,
) -> Iterator[dict[str, Any]]:
    """``matches`` documents from ``build(match_id, start)``, ordered by (start, id).

    The start times come from :func:`draw_match_starts` with the draw ``"{label}:times"``, then
    one id each from ``new_id`` (a method of :class:`Draw`, such as ``Draw.uuid``) with the same
    draw, in that order, so a shard's documents are reproducible.
    """
    times = Draw(f"{label}:times")
    starts = draw_match_starts(times, matches, as_of=as_of, days=days)
    keyed = sorted((start, new_id(times)) for start in starts)
    for start, match_id in keyed:
        yield build(match_id, start)


def ref(kind: str, identifier: str) -> dict[str, str]:
    """A JSON:API resource identifier."""
    return {"type": kind, "id": identifier}


def resource(
    kind: str,
    identifier: str,
    attributes: dict[str, Any],
    relationships: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """A JSON:API resource object, its members in wire order (without relationships: none)."""
    made = {"type": kind, "id": identifier, "attributes": attributes}
    if relationships is not None:
        made["relationships"] = relationships
    return made


def team_resource(team: Team, *, shard: str, title_id: str) -> dict[str, Any]:
    """A team's resource object (the same on both shards)."""
    stats = {"division": team.division, "league": team.league}
    return resource(
        "team",
        team.team_id,
        {"name": team.name, "shardId": shard, "stats": stats, "titleId": title_id},
    )
