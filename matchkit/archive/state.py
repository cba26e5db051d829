"""The values of an archive's state: its scope and scope history, a pending batch, a gap.

Each is frozen, and written to and read from the manifest's JSON (:mod:`.manifest`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any, cast

from matchkit.archive.fields import (
    MalformedError,
    json_count,
    json_list,
    json_object,
    json_optional_time,
    json_text,
    json_texts,
    json_time,
    time_json,
)
from matchkit.errors import InvalidArgumentError
from matchkit.rules.filters import MatchFilters
from matchkit.rules.profiles import DEFAULT_PROFILE
from matchkit.rules.windows import format_time

__all__ = ["DayRecord", "FilterValue", "Gap", "PendingBatch", "Scope", "ScopePeriod"]

FilterValue = str | tuple[str, ...]


@dataclass(frozen=True)
class Scope:
    """What an archive's syncs fetch: the shard, the filters and whether telemetry is kept.

    Attributes:
        shard: the service's shard (``global``, ``na``, ``steam``...).
        filters: ``(name, value)`` of each filter of :meth:`matchkit.Client.matches`, sorted by
            name; a value is text (``ranking_type``) or a sorted tuple of texts. On a profile
            without a match list only ``player_names``: a player-centred scope.
        telemetry: whether each match's telemetry is archived too.
        profile: the name of the service's profile (:mod:`matchkit.rules.profiles`); an
            archive holds one profile's matches.
    """

    shard: str
    filters: tuple[tuple[str, FilterValue], ...] = ()
    telemetry: bool = False
    profile: str = DEFAULT_PROFILE.name

    @classmethod
    def of(
        cls,
        shard: str,
        filters: Mapping[str, object],
        *,
        telemetry: bool,
        profile: str = DEFAULT_PROFILE.name,
    ) -> Scope:
        """The scope of a sync's arguments: filters sorted, ``None`` ones left out, each list of
        values sorted as text (so that the same filters always make the same scope)."""
        kept: list[tuple[str, FilterValue]] = []
        for name, value in sorted(filters.items()):
            if value is None:
                continue
            if isinstance(value, str):
                kept.append((name, value))
            elif isinstance(value, list | tuple | set | frozenset):
                kept.append((name, tuple(sorted(str(item) for item in value))))
            else:
                raise InvalidArgumentError(
                    f"{name}={value!r} must be a text or a list of texts", parameter=name
                )
        return cls(shard=shard, filters=tuple(kept), telemetry=bool(telemetry), profile=profile)

    def filter_arguments(self) -> MatchFilters:
        """The filters as the keyword arguments of :meth:`matchkit.Client.matches`."""
        arguments = {
            name: value if isinstance(value, str) else list(value) for name, value in self.filters
        }
        return cast(MatchFilters, arguments)

    def to_json(self) -> dict[str, Any]:
        filters = {
            name: value if isinstance(value, str) else list(value) for name, value in self.filters
        }
        data: dict[str, Any] = {
            "shard": self.shard,
            "filters": filters,
            "telemetry": self.telemetry,
        }
        if self.profile != DEFAULT_PROFILE.name:  # the archives of the default stay as they were
            data["profile"] = self.profile
        return data

    @classmethod
    def from_json(cls, data: object) -> Scope:
        fields = json_object(data, "scope")
        filters = json_object(fields.get("filters", {}), "scope.filters")
        values: dict[str, object] = {}
        for name, value in filters.items():
            if isinstance(value, str):
                values[name] = value
            else:
                values[name] = [
                    json_text(item, f"scope.filters.{name}") for item in json_list(value, name)
                ]
        telemetry = fields.get("telemetry", False)
        if not isinstance(telemetry, bool):
            raise MalformedError(f"scope.telemetry is {telemetry!r}, not true or false")
        profile = json_text(fields.get("profile", DEFAULT_PROFILE.name), "scope.profile")
        return cls.of(
            json_text(fields.get("shard"), "scope.shard"),
            values,
            telemetry=telemetry,
            profile=profile,
        )

    def __str__(self) -> str:
        filters = ", ".join(
            f"{name}={value if isinstance(value, str) else ','.join(value)}"
            for name, value in self.filters
        )
        telemetry = "with telemetry" if self.telemetry else "without telemetry"
        profile = "" if self.profile == DEFAULT_PROFILE.name else f"profile {self.profile}, "
        return f"[{profile}shard {self.shard}, {filters or 'no filters'}, {telemetry}]"


@dataclass(frozen=True)
class ScopePeriod:
    """One scope of an archive's history and the match times it was synced for.

    Attributes:
        scope: the scope.
        start: from when its syncs fetched matches (``None``: not recorded, in an archive of
            the ``/1`` format).
        end: until when (exclusive); ``None`` for the archive's current scope.
    """

    scope: Scope
    start: datetime | None = None
    end: datetime | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "scope": self.scope.to_json(),
            "start": time_json(self.start),
            "end": time_json(self.end),
        }

    @classmethod
    def from_json(cls, data: object) -> ScopePeriod:
        fields = json_object(data, "scopes[]")
        return cls(
            Scope.from_json(fields.get("scope")),
            json_optional_time(fields.get("start"), "scopes[].start"),
            json_optional_time(fields.get("end"), "scopes[].end"),
        )

    def __str__(self) -> str:
        start = "the archive's start" if self.start is None else format_time(self.start)
        end = "now" if self.end is None else format_time(self.end)
        return f"{self.scope} from {start} to {end}"


@dataclass(frozen=True)
class Gap:
    """Match times the service no longer served when a sync reached them: matches created in
    ``[start, end)`` may be missing from the archive (it holds those fetched before)."""

    start: datetime
    end: datetime

    def to_json(self) -> list[str]:
        return [format_time(self.start), format_time(self.end)]

    @classmethod
    def from_json(cls, data: object) -> Gap:
        pair = json_list(data, "gaps[]")
        if len(pair) != 2:
            raise MalformedError(f"gaps[] holds {pair!r}, not [start, end]")
        return cls(json_time(pair[0], "gaps[].start"), json_time(pair[1], "gaps[].end"))

    def __str__(self) -> str:
        return f"{format_time(self.start)} to {format_time(self.end)}"


@dataclass(frozen=True)
class PendingBatch:
    """A batch recorded before its first table commit, and cleared once every table has it.

    Attributes:
        batch: its number.
        start, end: the window of match times it fetched.
        watermark: the archive's watermark once it is complete (final up to there).
        problems: what the normalizer noted in it.
        day: of a day batch (a profile without a match list), what its day listed and what
            it fetched (:class:`DayRecord`); ``None`` for a window of a match list.
    """

    batch: int
    start: datetime
    end: datetime
    watermark: datetime
    problems: tuple[str, ...] = ()
    day: DayRecord | None = None

    def to_json(self) -> dict[str, Any]:
        data = {
            "batch": self.batch,
            "start": format_time(self.start),
            "end": format_time(self.end),
            "watermark": format_time(self.watermark),
            "problems": list(self.problems),
        }
        if self.day is not None:
            data["day"] = self.day.to_json()
        return data

    @classmethod
    def from_json(cls, data: object) -> PendingBatch:
        fields = json_object(data, "pending")
        end = json_time(fields.get("end"), "pending.end")
        return cls(
            batch=json_count(fields.get("batch"), "pending.batch"),
            start=json_time(fields.get("start"), "pending.start"),
            end=end,
            # /1 had no watermark of its own: its watermark was the batch's end.
            watermark=json_time(fields.get("watermark", fields.get("end")), "pending.watermark"),
            problems=json_texts(fields.get("problems", []), "pending.problems"),
            day=None if fields.get("day") is None else DayRecord.from_json(fields["day"]),
        )


@dataclass(frozen=True)
class DayRecord:
    """One day batch of a profile without a match list: what the day's listing (its sample,
    or the scope's players' recent matches) named, and what the batch fetched.

    Attributes:
        batch: the batch.
        day: the day's start (UTC).
        sync: the sync that fetched it, numbered by the first batch it committed (a batch a
            killed sync left pending keeps the killed sync's number).
        synced_at: the now of the sync that fetched it (the service's clock).
        listed: the match ids the day's listing named (0: the day had no sample).
        added: the matches fetched for it, which the archive did not hold (each added once).
        final: whether the day was final when fetched (an open day is read again next sync).
    """

    batch: int
    day: datetime
    sync: int
    synced_at: datetime
    listed: int
    added: int
    final: bool

    def to_json(self) -> dict[str, Any]:
        return {
            "batch": self.batch,
            "day": format_time(self.day),
            "sync": self.sync,
            "synced_at": format_time(self.synced_at),
            "listed": self.listed,
            "added": self.added,
            "final": self.final,
        }

    @classmethod
    def from_json(cls, data: object) -> DayRecord:
        fields = json_object(data, "days[]")
        final = fields.get("final")
        if not isinstance(final, bool):
            raise MalformedError(f"days[].final is {final!r}, not true or false")
        return cls(
            batch=json_count(fields.get("batch"), "days[].batch"),
            day=json_time(fields.get("day"), "days[].day"),
            sync=json_count(fields.get("sync"), "days[].sync"),
            synced_at=json_time(fields.get("synced_at"), "days[].synced_at"),
            listed=json_count(fields.get("listed"), "days[].listed"),
            added=json_count(fields.get("added"), "days[].added"),
            final=final,
        )
