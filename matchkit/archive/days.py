"""Day batches: the sync of a service without a match list (PUBG).

Such a service lists no matches by time. It lists, for each day of its clock, a sample of that
day's match ids (the profile's :class:`~matchkit.rules.profiles.SamplesRule`: a sample starts at
least 24 hours in the past and at most 14 days back), and each player's recent match ids. A
sync of it takes one day as one batch: the day's listing (its sample, or with ``player_names``
those players' recent matches created that day), the matches of it the archive does not hold
yet, fetched by id, and (with telemetry) their files, committed through the batch protocol of
:mod:`.batches` like a window of a match list.

**Days.** Days are on the sample's refresh grid from the epoch (UTC midnights for PUBG). A sync
reads the days from the archive's watermark (on the first sync its start, else the oldest day
the service keeps whole) to the newest day whose sample the rule lets it ask. A day is final
once its end is the rule's ``min_age`` in the past (every match of it has ended and its sample
is drawn); the watermark moves past final days only, so a day still open is read again by the
next sync (only the matches it lacks are fetched: never a duplicate). A sync that comes after
the service has forgotten the days past the watermark records them as a gap (:class:`.Gap`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from matchkit.archive.state import DayRecord
from matchkit.archive.versions import is_table, read_match_ids
from matchkit.rules.profiles import SamplesRule

if TYPE_CHECKING:
    from matchkit.client.client import Client
    from matchkit.model.frames import MatchFrames

__all__ = [
    "DayListing",
    "DayRange",
    "PlayerDays",
    "SampleDays",
    "archived_times",
    "day_floor",
    "days_between",
    "first_whole_day",
    "format_days",
    "latest_per_day",
]


def day_floor(moment: datetime, span: timedelta) -> datetime:
    """The start of the day (of length ``span``, on the grid from the epoch) holding
    ``moment``."""
    seconds = int(span.total_seconds())
    stamp = int(moment.timestamp())
    return datetime.fromtimestamp(stamp - stamp % seconds, tz=moment.tzinfo)


def first_whole_day(moment: datetime, span: timedelta) -> datetime:
    """The start of the first day that begins at or after ``moment``."""
    floor = day_floor(moment, span)
    return floor if floor == moment else floor + span


@dataclass(frozen=True)
class DayRange:
    """The days one sync reads, and which of them are final.

    Attributes:
        first: the first day's start.
        last: the last day's start (the newest sample the rule lets a sync ask).
        rule: the samples rule (its refresh is a day's span).
        now: the sync's now.
    """

    first: datetime
    last: datetime
    rule: SamplesRule
    now: datetime

    @classmethod
    def of(cls, rule: SamplesRule, begin: datetime, now: datetime) -> DayRange:
        """The days from the one holding ``begin`` to the newest sample's at ``now``."""
        return cls(day_floor(begin, rule.refresh), rule.latest(now), rule, now)

    @property
    def end(self) -> datetime:
        """The end of the last day (the sync's range ends there)."""
        return self.last + self.rule.refresh

    def days(self) -> list[datetime]:
        """Every day's start, oldest first (none when ``first`` is past ``last``)."""
        found, day = [], self.first
        while day <= self.last:
            found.append(day)
            day += self.rule.refresh
        return found

    def is_final(self, day: datetime) -> bool:
        """Whether the day is final: its end at least the rule's ``min_age`` before now."""
        return day + self.rule.refresh <= self.now - self.rule.min_age


class DayListing(Protocol):
    """Where a day batch's matches come from: the day's listed ids, and the matches of them
    the archive lacks."""

    notes: list[str]

    def fetch(self, day: datetime, span: timedelta) -> tuple[int, MatchFrames]:
        """The number of match ids the day lists, and the frames of those not archived."""
        ...


class SampleDays:
    """The day's sample: its match ids (one rate-limited request), then the matches the
    archive lacks by id (no rate limit, each cached forever)."""

    def __init__(self, client: Client, folder: Path) -> None:
        self.client = client
        self.folder = folder
        self.notes: list[str] = []

    def fetch(self, day: datetime, span: timedelta) -> tuple[int, MatchFrames]:
        from matchkit.client.samples import checked_sample_start, fetch_sample_ids

        client = self.client
        start = checked_sample_start(client.profile, day, now=client.now)
        ids = fetch_sample_ids(client.transport, client.shard, start, profile=client.profile)
        held = archived_times(self.folder, ids)
        return len(ids), client.get_matches([match for match in ids if match not in held])


class PlayerDays:
    """A player-centred scope: the players' recent match ids (one request of at most the
    profile's player batch, at the sync's first day), the matches of them the archive lacks
    fetched once by id, then handed out day by day by their start."""

    def __init__(self, client: Client, folder: Path, names: Sequence[str]) -> None:
        self.client = client
        self.folder = folder
        self.names = tuple(names)
        self.notes: list[str] = []
        self._listed: tuple[dict[str, datetime], MatchFrames] | None = None

    def fetch(self, day: datetime, span: timedelta) -> tuple[int, MatchFrames]:
        times, frames = self._load()
        listed = sum(1 for moment in times.values() if day <= moment < day + span)
        created = frames.matches["created_at"]
        return listed, frames.filter(((created >= day) & (created < day + span)).to_numpy())

    def _load(self) -> tuple[dict[str, datetime], MatchFrames]:
        if self._listed is None:
            from matchkit.client.players import player_frames

            client = self.client
            listing = player_frames(
                client.transport, client.shard, "names", self.names, profile=client.profile
            )
            found = set(listing.players["name"].dropna())
            missing = [name for name in self.names if name not in found]
            if missing:
                self.notes.append(
                    f"no player on shard {client.shard} is named {', '.join(missing)} (names are "
                    "compared exactly, case included): none of their matches was archived"
                )
            ids = list(dict.fromkeys(listing.player_matches["match_id"].astype(str)))
            times = archived_times(self.folder, ids)
            frames = client.get_matches([match for match in ids if match not in times])
            fetched = frames.matches
            times |= dict(zip(fetched["match_id"], fetched["created_at"], strict=True))
            self._listed = times, frames
        return self._listed


def archived_times(folder: Path, ids: Sequence[str]) -> dict[str, datetime]:
    """The start (``created_at``) of each of ``ids`` the archive's ``matches`` table holds.

    Raises:
        ArchiveError: a data file of the table cannot be read.
    """
    import pyarrow.compute as pc

    path = folder / "matches"
    if not ids or not is_table(path):
        return {}
    held = read_match_ids(
        path,
        ["match_id", "created_at"],
        pc.field("match_id").isin(list(ids)),
        unwritten="nothing was fetched",
    )
    return dict(
        zip(held.column("match_id").to_pylist(), held.column("created_at").to_pylist(), strict=True)
    )


def days_between(start: datetime, end: datetime, span: timedelta) -> list[datetime]:
    """The starts of the days of ``[start, end)`` (the days a gap lost)."""
    found, day = [], day_floor(start, span)
    while day < end:
        found.append(day)
        day += span
    return found


def format_days(days: Sequence[datetime], span: timedelta = timedelta(days=1)) -> str:
    """Days as dates, each run of three or more days in a row by its ends and its length:
    ``2026-11-01, 2026-11-05 to 2026-11-18 (14 days)``."""
    runs: list[list[datetime]] = []
    for day in sorted(set(days)):
        if runs and day - runs[-1][-1] == span:
            runs[-1].append(day)
        else:
            runs.append([day])
    shown = []
    for run in runs:
        if len(run) >= 3:
            shown.append(f"{run[0]:%Y-%m-%d} to {run[-1]:%Y-%m-%d} ({len(run)} days)")
        else:
            shown.extend(f"{day:%Y-%m-%d}" for day in run)
    return ", ".join(shown)


def latest_per_day(records: Sequence[DayRecord]) -> list[DayRecord]:
    """The last record of each day (an open day read again has several), by day."""
    latest = {record.day: record for record in records}
    return [latest[day] for day in sorted(latest)]
