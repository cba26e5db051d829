"""What a sync did (:class:`SyncResult`), printable."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path

from matchkit.archive.days import days_between, format_days
from matchkit.archive.state import DayRecord, Gap
from matchkit.archive.writer import BatchResult
from matchkit.rules.windows import format_time

__all__ = ["SyncResult"]


@dataclass
class SyncResult:
    """What a sync did.

    Attributes:
        path: the archive folder.
        batches: batches committed (a completed pending batch included).
        added: rows added per table over all batches.
        start, end: the range synced (``None`` when there was nothing to sync).
        watermark: where the archive is final after it (the next sync starts there).
        reread_from: the end of the syncs before: from ``start`` to it, this sync read again
            what was not final yet (the settle period).
        reread: matches fetched that the archive already held (the settle period's cost;
            none was added twice).
        new_columns: ``table.column`` of each column added to a table (schema evolution).
        absent_columns: ``table.column`` of each column the service no longer sent (kept).
        gaps: ranges the service had already forgotten, never archived.
        resumed: the batch a killed sync had left pending, completed by this one.
        problems: what the normalizer noted in the batches (kept in ``archive.json``).
        notes: what the sync did other than asked (an ignored ``start``).
        day_span: with day batches (a service without a match list), a day's span; ``None``
            for windows of a match list.
        days: with day batches, each day's record (what its listing named and what it added).
    """

    path: Path
    batches: int = 0
    added: dict[str, int] = field(default_factory=dict)
    start: datetime | None = None
    end: datetime | None = None
    watermark: datetime | None = None
    reread_from: datetime | None = None
    reread: int = 0
    new_columns: list[str] = field(default_factory=list)
    absent_columns: list[str] = field(default_factory=list)
    gaps: list[Gap] = field(default_factory=list)
    resumed: int | None = None
    problems: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    day_span: timedelta | None = None
    days: list[DayRecord] = field(default_factory=list)

    def add(self, batch: BatchResult) -> None:
        """Count one committed batch."""
        self.batches += 1
        for name, rows in batch.added.items():
            self.added[name] = self.added.get(name, 0) + rows
        self.new_columns.extend(c for c in batch.new_columns if c not in self.new_columns)
        self.absent_columns.extend(c for c in batch.absent_columns if c not in self.absent_columns)
        self.problems.extend(batch.problems)

    def __str__(self) -> str:
        lines = []
        if self.resumed is not None:
            lines.append(f"completed batch {self.resumed}, left pending by an interrupted sync")
        lines.extend(self.notes)
        if self.start is None or self.end is None:
            lines.append(f"{self.path}: already up to date, nothing added")
        else:
            lines.append(
                f"{self.path}: added {self.added.get('matches', 0):,} matches from "
                f"{format_time(self.start)} to {format_time(self.end)} in {self.batches} batches"
            )
        if (
            self.reread_from is not None
            and self.start is not None
            and self.reread_from > self.start
        ):
            lines.append(
                f"  read again from {format_time(self.start)} to "
                f"{format_time(self.reread_from)} (not final at the last sync): "
                f"{self.reread:,} matches already archived, none added twice"
            )
        if self.watermark is not None:
            lines.append(
                f"  final up to {format_time(self.watermark)} (the next sync starts there)"
            )
        lines.extend(f"  {name:<30} +{rows:,} rows" for name, rows in self.added.items() if rows)
        lines.extend(f"  new column {c} (added to the table)" for c in self.new_columns)
        lines.extend(
            f"  column {c} not sent by the service any more (kept; empty in new rows)"
            for c in self.absent_columns
        )
        lines.extend(
            f"  gap: matches created from {gap} may be missing: the service no longer served them"
            for gap in self.gaps
        )
        lines.extend(self._day_lines())
        if self.problems:
            lines.append(
                f"  {len(self.problems)} notes of the normalizer, kept in archive.json "
                f"(problems), e.g. {self.problems[0]}"
            )
        return "\n".join(lines)

    def _day_lines(self) -> list[str]:
        """With day batches: the days lost to a gap, the days that listed nothing, and the
        open day read again next time."""
        span = self.day_span
        if span is None:
            return []
        lines = []
        for gap in self.gaps:
            lost = format_days(days_between(gap.start, gap.end, span), span)
            lines.append(f"  days lost (the service no longer served them): {lost}")
        empty = format_days([record.day for record in self.days if record.listed == 0], span)
        if empty:
            lines.append(f"  days with no sample (nothing listed): {empty}")
        open_days = format_days([record.day for record in self.days if not record.final], span)
        if open_days:
            lines.append(f"  day {open_days} not final yet: the next sync reads it again")
        return lines
