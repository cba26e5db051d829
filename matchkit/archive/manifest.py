"""The archive's state (``DIR/archive.json``) as typed values: :class:`ArchiveManifest`.

The manifest says what the archive's Delta tables hold in matchkit's terms: the scope of its
syncs and the range of time each scope covered, the service it came from (never a key), the
last completed batch and each batch's table versions (what a reader pins), the watermark (the
moment before which the archive is final), the batch a sync left pending, the gaps the service
had forgotten before a sync reached them, the buckets of its months and the normalizer's notes.

It is read into frozen values and written back whole; a sync or a compaction changes it by
building the next value (:meth:`ArchiveManifest.with_pending`,
:meth:`ArchiveManifest.with_batch_done`, ...), never by editing keys. A field of the wrong shape
is an :class:`~matchkit.errors.ArchiveError` naming the file, when it is read.

Formats: this matchkit writes ``matchkit-archive/2`` and reads ``/1`` too (the manifest of the
matchkit before, whose scope history had only the watermark each scope ended at, and whose
watermark was the end of the last batch); a ``/1`` manifest is rewritten as ``/2`` by the next
sync or compaction.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

import orjson

from matchkit.archive.fields import (
    MalformedError,
    json_batch_key,
    json_count,
    json_list,
    json_object,
    json_optional_time,
    json_table_versions,
    json_texts,
    time_json,
)
from matchkit.archive.state import DayRecord, Gap, PendingBatch, Scope, ScopePeriod
from matchkit.errors import ArchiveError
from matchkit.model.atomic import atomic_write

__all__ = [
    "FORMAT",
    "FORMAT_1",
    "MANIFEST",
    "ArchiveManifest",
    "read_manifest",
    "write_manifest",
]

FORMAT = "matchkit-archive/2"
FORMAT_1 = "matchkit-archive/1"
"""The format of the matchkit before: read, and rewritten as :data:`FORMAT` by the next write."""
MANIFEST = "archive.json"


@dataclass(frozen=True)
class ArchiveManifest:
    """The state of an archive (``DIR/archive.json``).

    Attributes:
        scopes: the scope history, oldest first, each with the range of match times it was
            synced for; the last one is the archive's scope (its ``end`` is ``None``).
        source: the service it was synced from (its URL, never a key).
        buckets: the buckets each month is split into (fixed when the archive was created).
        batch: the last completed batch (0: none yet); what readers open by default.
        watermark: every match created before it is final in the archive; the next sync starts
            there (``None``: never synced).
        synced_to: the end of the last batch; the matches between ``watermark`` and it are in
            the archive but provisional (the next sync reads them again).
        pending: the batch a sync recorded and had not completed (killed, or failed).
        versions: each completed batch's Delta table versions, by table label.
        gaps: the match times the service had forgotten before a sync reached them.
        problems: the normalizer's notes of each batch.
        days: of a profile without a match list, each day batch's record (what its day listed
            and what it added, by which sync), in batch order.
    """

    scopes: tuple[ScopePeriod, ...]
    source: str | None = None
    buckets: int = 1
    batch: int = 0
    watermark: datetime | None = None
    synced_to: datetime | None = None
    pending: PendingBatch | None = None
    versions: Mapping[int, Mapping[str, int]] = field(default_factory=dict)
    gaps: tuple[Gap, ...] = ()
    problems: Mapping[int, tuple[str, ...]] = field(default_factory=dict)
    days: tuple[DayRecord, ...] = ()

    @classmethod
    def new(cls, scope: Scope, *, source: str | None, buckets: int = 1) -> ArchiveManifest:
        """The manifest of an archive created with ``scope`` (no batch yet)."""
        return cls(scopes=(ScopePeriod(scope),), source=source, buckets=buckets)

    @property
    def scope(self) -> Scope:
        """The archive's current scope."""
        return self.scopes[-1].scope

    def pinned(self, batch: int | None = None) -> Mapping[str, int]:
        """The table versions of ``batch`` (default: the last completed one); empty before the
        first batch is complete.

        Raises:
            KeyError: no such batch.
        """
        chosen = self.batch if batch is None else batch
        if chosen == 0 and batch is None:
            return {}
        return self.versions[chosen]

    def notes_up_to(self, batch: int) -> tuple[str, ...]:
        """The normalizer's notes of the batches up to ``batch``, each once, in batch order."""
        return tuple(
            dict.fromkeys(
                note
                for number, notes in sorted(self.problems.items())
                if number <= batch
                for note in notes
            )
        )

    def with_source(self, source: str | None) -> ArchiveManifest:
        return dataclasses.replace(self, source=source)

    def with_scope(self, scope: Scope, *, start: datetime | None) -> ArchiveManifest:
        """The archive continued with ``scope`` from ``start`` (its watermark); the scope before
        ends where its syncs had fetched to."""
        current = self.scopes[-1]
        if self.watermark is None:  # nothing was synced with the scope before: it is replaced
            return dataclasses.replace(self, scopes=(*self.scopes[:-1], ScopePeriod(scope)))
        ended = dataclasses.replace(current, end=self.synced_to or self.watermark)
        scopes = (*self.scopes[:-1], ended, ScopePeriod(scope, start=start))
        return dataclasses.replace(self, scopes=scopes)

    def with_start(self, start: datetime) -> ArchiveManifest:
        """The current scope's range begins at ``start`` (the first batch of an archive)."""
        current = self.scopes[-1]
        if current.start is not None:
            return self
        return dataclasses.replace(
            self, scopes=(*self.scopes[:-1], dataclasses.replace(current, start=start))
        )

    def with_gap(self, gap: Gap) -> ArchiveManifest:
        """A gap recorded, and the watermark moved past it (to where the service's retention
        begins)."""
        return dataclasses.replace(
            self,
            gaps=(*self.gaps, gap),
            watermark=gap.end,
            synced_to=max(gap.end, self.synced_to or gap.end),
        )

    def with_pending(self, pending: PendingBatch) -> ArchiveManifest:
        return dataclasses.replace(self, pending=pending)

    def with_batch_done(
        self, pending: PendingBatch, versions: Mapping[str, int]
    ) -> ArchiveManifest:
        """Batch ``pending`` completed: its versions, watermark and notes recorded, nothing
        pending."""
        problems = dict(self.problems)
        if pending.problems:  # what the normalizer noted, kept with the batch (never dropped)
            problems[pending.batch] = pending.problems
        watermark = pending.watermark
        if self.watermark is not None:
            watermark = max(watermark, self.watermark)
        return dataclasses.replace(
            self,
            batch=pending.batch,
            watermark=watermark,
            synced_to=max(pending.end, self.synced_to or pending.end),
            pending=None,
            versions={**self.versions, pending.batch: dict(versions)},
            problems=problems,
            days=self.days if pending.day is None else (*self.days, pending.day),
        )

    def with_versions(self, batch: int, versions: Mapping[str, int]) -> ArchiveManifest:
        """Batch ``batch`` reads ``versions`` (a compaction's: the same rows, fewer files)."""
        return dataclasses.replace(self, versions={**self.versions, batch: dict(versions)})

    def to_json(self) -> dict[str, Any]:
        data = {
            "format": FORMAT,
            "scopes": [period.to_json() for period in self.scopes],
            "source": self.source,
            "buckets": self.buckets,
            "batch": self.batch,
            "watermark": time_json(self.watermark),
            "synced_to": time_json(self.synced_to),
            "pending": None if self.pending is None else self.pending.to_json(),
            "versions": {str(batch): dict(tables) for batch, tables in self.versions.items()},
            "gaps": [gap.to_json() for gap in self.gaps],
            "problems": {str(batch): list(notes) for batch, notes in self.problems.items()},
        }
        if self.days:  # day batches only: the manifests of a match list stay as they were
            data["days"] = [day.to_json() for day in self.days]
        return data

    @classmethod
    def from_json(cls, data: object, *, path: Path) -> ArchiveManifest:
        """The manifest of ``data`` (the JSON of ``path``, of either format).

        Raises:
            ArchiveError: it is of another format, or a field has the wrong shape (naming it).
        """
        found = data.get("format") if isinstance(data, dict) else None
        if found not in (FORMAT, FORMAT_1):
            raise ArchiveError(
                f"{path} is of format {found!r}; this version of matchkit reads {FORMAT} and "
                f"{FORMAT_1}",
                path=path,
            )
        try:
            fields = json_object(data, "the manifest")
            read = _read_v2 if found == FORMAT else _read_v1
            return read(fields)
        except MalformedError as error:
            raise ArchiveError(
                f"{path} is damaged: {error}; restore it from a backup (the Delta tables beside "
                "it are intact)",
                path=path,
            ) from None


def _read_v2(fields: dict[str, Any]) -> ArchiveManifest:
    scopes = tuple(
        ScopePeriod.from_json(item) for item in json_list(fields.get("scopes"), "scopes")
    )
    if not scopes or scopes[-1].end is not None:
        raise MalformedError("scopes does not end with the archive's current scope")
    return _common(
        fields, scopes, synced_to=json_optional_time(fields.get("synced_to"), "synced_to")
    )


def _read_v1(fields: dict[str, Any]) -> ArchiveManifest:
    """A manifest of the matchkit before: each earlier scope with the watermark it ended at, and
    the watermark at the end of the last batch (no settle period: all of it was final)."""
    periods: list[ScopePeriod] = []
    start: datetime | None = None
    for item in json_list(fields.get("scopes", []), "scopes"):
        earlier = json_object(item, "scopes[]")
        until = json_optional_time(earlier.get("until"), "scopes[].until")
        periods.append(ScopePeriod(Scope.from_json(earlier.get("scope")), start, until))
        start = until
    periods.append(ScopePeriod(Scope.from_json(fields.get("scope")), start))
    watermark = json_optional_time(fields.get("watermark"), "watermark")
    return _common(fields, tuple(periods), synced_to=watermark)


def _common(
    fields: dict[str, Any], scopes: tuple[ScopePeriod, ...], *, synced_to: datetime | None
) -> ArchiveManifest:
    source = fields.get("source")
    if source is not None and not isinstance(source, str):
        raise MalformedError(f"source is {source!r}, not a text")
    pending = fields.get("pending")
    versions = json_object(fields.get("versions", {}), "versions")
    problems = json_object(fields.get("problems", {}), "problems")
    return ArchiveManifest(
        scopes=scopes,
        source=source,
        buckets=json_count(fields.get("buckets", 1), "buckets", least=1),
        batch=json_count(fields.get("batch"), "batch"),
        watermark=json_optional_time(fields.get("watermark"), "watermark"),
        synced_to=synced_to,
        pending=None if pending is None else PendingBatch.from_json(pending),
        versions={
            json_batch_key(key, "versions"): json_table_versions(value, key)
            for key, value in versions.items()
        },
        gaps=tuple(Gap.from_json(item) for item in json_list(fields.get("gaps", []), "gaps")),
        problems={
            json_batch_key(key, "problems"): json_texts(value, f"problems.{key}")
            for key, value in problems.items()
        },
        days=tuple(DayRecord.from_json(item) for item in json_list(fields.get("days", []), "days")),
    )


def read_manifest(folder: Path) -> ArchiveManifest | None:
    """The manifest of the archive in ``folder``, or ``None`` when there is none yet.

    Raises:
        ArchiveError: the manifest cannot be read, is damaged or of another format.
    """
    path = folder / MANIFEST
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        return None
    except OSError as error:
        raise ArchiveError(f"cannot read {path}: {error.strerror or error}", path=path) from None
    try:
        data = orjson.loads(raw)
    except orjson.JSONDecodeError as error:
        raise ArchiveError(
            f"{path} is damaged ({error}); restore it from a backup (the Delta tables beside "
            "it are intact)",
            path=path,
        ) from None
    return ArchiveManifest.from_json(data, path=path)


def write_manifest(folder: Path, manifest: ArchiveManifest) -> None:
    """Replace the manifest atomically (a crash leaves the old one or the new one).

    Raises:
        ArchiveError: the file system refused the write.
    """
    data = orjson.dumps(manifest.to_json(), option=orjson.OPT_INDENT_2 | orjson.OPT_SORT_KEYS)
    atomic_write(folder / MANIFEST, data, error=ArchiveError)
