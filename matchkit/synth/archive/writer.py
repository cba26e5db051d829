"""``matchkit synth --archive DIR --matches N``: a large synthetic archive, written directly.

No documents, no HTTP, no normalizer: the matches of each partition (a month, or a month's
bucket) are drawn with numpy, vectorized (:mod:`matchkit.synth.archive.draw`), and committed as
one batch through the archive's writer (:func:`matchkit.archive.writer.commit_batch`,
appending: the ids are new by construction), so that every data file is written at its final
size, one a table and partition, and no compaction is needed afterwards. Its manifest is the
archive's own (:class:`matchkit.archive.manifest.ArchiveManifest`), so that a later sync
continues it.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path

import numpy as np
import numpy.typing as npt
import pyarrow as pa

from matchkit.archive.batches import batch_versions
from matchkit.archive.layout import bucket_of, locked
from matchkit.archive.manifest import ArchiveManifest, read_manifest, write_manifest
from matchkit.archive.state import PendingBatch, Scope
from matchkit.archive.writer import OpenTables, commit_batch
from matchkit.errors import InvalidArgumentError
from matchkit.rules.windows import parse_time
from matchkit.sampledata import parameters as p
from matchkit.sampledata.telemetry.split import split_total
from matchkit.synth.archive.arrays import hex_ids
from matchkit.synth.archive.chunk import draw_chunk
from matchkit.synth.archive.model import SyntheticModel, patch_starts, player_pool

__all__ = [
    "BUCKET_MATCHES",
    "CHUNK",
    "TELEMETRY_CHUNK",
    "append_synthetic",
    "write_synthetic_archive",
]

CHUNK = 100_000
TELEMETRY_CHUNK = 25_000
"""With telemetry a match has about 70 rows more: a chunk of this many keeps the writer's
memory (two chunks at a time) near 1 GB."""
BUCKET_MATCHES = 100_000
"""A month of more matches than this is split in buckets (the archive's ``buckets``), so that a
partition, and a Dask worker's memory, keeps its size whatever the size of the archive."""
TELEMETRY_BUCKET_MATCHES = 25_000
"""The same with telemetry: about 70 rows more a match. With buckets of 100,000 matches, a
1M-match archive's partition held 1.08M player-rounds, and ``per_minute_rates`` took a 1 GiB
worker past its memory."""


@dataclass(frozen=True)
class _Plan:
    """What to draw: ``matches`` in ``[start, end)``, at most ``chunk`` a batch, from
    ``seeds``."""

    model: SyntheticModel
    patches: list[tuple[int, str]]
    seeds: tuple[int, ...]
    matches: int
    chunk: int
    start: datetime
    end: datetime
    telemetry: bool
    append: bool


@dataclass(frozen=True)
class _Chunk:
    """One batch to draw: ``n`` matches created in ``[low, high)`` with the ids ``ids`` (None:
    drawn with the rest), its random stream's key, and the watermark once it is committed."""

    low: datetime
    high: datetime
    n: int
    ids: pa.Array | None
    key: tuple[int, ...]
    watermark: datetime


#: The key of a month's stream of match ids (a chunk's key has three numbers).
_IDS = 2**32 - 1


def _month_spans(start: datetime, end: datetime) -> list[tuple[datetime, datetime]]:
    """``[start, end)`` cut at the first instant of each month (UTC)."""
    spans = []
    low = start
    while low < end:
        first = low.replace(day=1, hour=0, minute=0, second=0, microsecond=0)
        following = first.replace(year=first.year + first.month // 12, month=first.month % 12 + 1)
        high = min(following, end)
        spans.append((low, high))
        low = high
    return spans


def _partition_chunks(plan: _Plan, buckets: int) -> Iterator[_Chunk]:
    """The plan's matches a partition at a time: each month's share (by its time), its ids
    drawn at once and split by bucket (the archive's rule), each bucket's matches one batch,
    so that each batch writes one file per table and partition, at its final size (a bucket
    of more than ``plan.chunk`` matches is written in equal parts of at most that many). One
    month's ids are held at a time."""
    spans = _month_spans(plan.start, plan.end)
    seconds = [int((high - low).total_seconds()) for low, high in spans]
    counts = split_total(plan.matches, seconds)
    for month, ((low, high), n) in enumerate(zip(spans, counts, strict=True)):
        if n == 0:
            continue
        ids = hex_ids(np.random.default_rng([*plan.seeds, month, _IDS]), n)
        of_bucket = bucket_of(ids, buckets)
        parts: list[tuple[int, int, npt.NDArray[np.intp]]] = []
        for bucket in range(buckets):
            mine = np.flatnonzero(of_bucket == bucket)
            pieces = np.array_split(mine, -(-len(mine) // plan.chunk)) if len(mine) else []
            parts.extend((bucket, piece_number, piece) for piece_number, piece in enumerate(pieces))
        for number, (bucket, piece_number, piece) in enumerate(parts):
            yield _Chunk(
                low=low,
                high=high,
                n=len(piece),
                # In text order: every table's rows come by match in this order, which is the
                # order the archive keeps matches and rosters in (layout.sort_column).
                ids=ids.take(pa.array(piece)).sort(),
                key=(month, bucket, piece_number),
                watermark=high if number == len(parts) - 1 else low,
            )


def write_synthetic_archive(
    path: str | os.PathLike[str],
    *,
    matches: int,
    seed: int = p.DEFAULT_SEED,
    as_of: str = p.DEFAULT_AS_OF,
    days: int = 365,
    chunk: int | None = None,
    buckets: int | None = None,
    telemetry: bool = False,
    progress: Callable[[int], None] | None = None,
) -> dict[str, int]:
    """Write an archive of ``matches`` synthetic matches over the ``days`` before ``as_of``.

    Args:
        path: a new (or empty) folder.
        matches: how many matches.
        seed: the seed (the same arguments give the same rows).
        as_of: the end of the time range.
        days: the days the matches spread over.
        chunk: at most this many matches drawn and committed at a time, one batch each
            (default :data:`CHUNK`, or :data:`TELEMETRY_CHUNK` with telemetry); a partition of
            more is written in equal parts (a file each).
        buckets: buckets a month (default: enough for at most :data:`BUCKET_MATCHES` matches
            in each; recorded in the manifest, which later syncs follow).
        telemetry: write each match's telemetry tables too
            (:mod:`matchkit.synth.archive.telemetry`).
        progress: called with the number of matches written after each batch.

    Returns:
        Rows written per table.

    Raises:
        InvalidArgumentError: ``matches`` or ``days`` < 1, or ``path`` is not empty.
    """
    if chunk is None:
        chunk = TELEMETRY_CHUNK if telemetry else CHUNK
    for name, value in (("matches", matches), ("days", days), ("chunk", chunk)):
        _require_count(name, value)
    if buckets is not None:
        _require_count("buckets", buckets)
    end = parse_time(as_of, parameter="as_of")  # every argument checked before the folder
    folder = Path(path)
    if folder.exists() and any(folder.iterdir()):
        raise InvalidArgumentError(f"{folder} is not empty; choose a new folder", parameter="path")
    folder.mkdir(parents=True, exist_ok=True)
    if buckets is None:
        per_month = matches * 30.4375 / days
        most = TELEMETRY_BUCKET_MATCHES if telemetry else BUCKET_MATCHES
        buckets = max(1, -(-int(per_month) // most))
    start = end - timedelta(days=days)
    scope = Scope("global", telemetry=bool(telemetry))
    manifest = ArchiveManifest.new(
        scope, source=f"matchkit synth --archive (seed {seed})", buckets=buckets
    ).with_start(start)
    plan = _Plan(
        model=SyntheticModel(player_pool(matches)),
        patches=patch_starts(start, end),
        seeds=(seed,),
        matches=matches,
        chunk=chunk,
        start=start,
        end=end,
        telemetry=bool(telemetry),
        append=True,
    )
    with locked(folder):
        return _write(folder, manifest, plan, _partition_chunks(plan, buckets), progress)


def append_synthetic(
    path: str | os.PathLike[str], *, matches: int, days: int = 1, seed: int = p.DEFAULT_SEED
) -> dict[str, int]:
    """Append ``matches`` synthetic matches over the ``days`` after the archive's watermark, in
    one batch committed as a sync commits it (inserting the rows of matches the archive lacks,
    in the archive's buckets): what a daily sync costs, without a service.

    Returns:
        Rows added per table.

    Raises:
        InvalidArgumentError: ``path`` holds no archive, or ``matches`` or ``days`` < 1.
    """
    for name, value in (("matches", matches), ("days", days)):
        _require_count(name, value)
    folder = Path(path)
    with locked(folder):
        manifest = read_manifest(folder)
        if manifest is None or manifest.watermark is None:
            raise InvalidArgumentError(f"{folder} holds no archive to append to", parameter="path")
        start = manifest.watermark
        end = start + timedelta(days=days)
        plan = _Plan(
            model=SyntheticModel(player_pool(matches * 365 // days)),
            patches=patch_starts(start, end),
            seeds=(seed, manifest.batch + 1),
            matches=matches,
            chunk=matches,
            start=start,
            end=end,
            telemetry=manifest.scope.telemetry,
            append=False,
        )
        day = _Chunk(start, end, matches, None, key=(0,), watermark=end)
        return _write(folder, manifest, plan, [day], None)


def _write(
    folder: Path,
    manifest: ArchiveManifest,
    plan: _Plan,
    chunks: Iterable[_Chunk],
    progress: Callable[[int], None] | None,
) -> dict[str, int]:
    """Draw and commit the chunks, a batch each (appended, or inserted by match id as a sync
    does), in the manifest's buckets; rows added per table."""
    counts: dict[str, int] = {}

    def drawn(chunk: _Chunk) -> dict[str, pa.Table]:
        return draw_chunk(
            plan.model,
            np.random.default_rng([*plan.seeds, *chunk.key]),
            chunk.n,
            chunk.low,
            chunk.high,
            plan.patches,
            buckets=manifest.buckets,
            telemetry=plan.telemetry,
            match_ids=chunk.ids,
        )

    opened = OpenTables(folder)  # each table opened once for all the chunks
    written = 0
    # The next chunk is drawn while this one is written (numpy and deltalake both work
    # without the GIL): two chunks in memory at most.
    planned = iter(chunks)
    chunk = next(planned, None)
    with ThreadPoolExecutor(max_workers=1) as drawer:
        coming = drawer.submit(drawn, chunk) if chunk is not None else None
        while chunk is not None and coming is not None:
            tables = coming.result()
            following = next(planned, None)
            if following is not None:
                coming = drawer.submit(drawn, following)
            batch = PendingBatch(
                batch=manifest.batch + 1, start=chunk.low, end=chunk.high, watermark=chunk.watermark
            )
            done = commit_batch(folder, batch.batch, tables, append=plan.append, tables=opened)
            del tables
            for name, rows in done.added.items():
                counts[name] = counts.get(name, 0) + rows
            manifest = manifest.with_batch_done(batch, batch_versions(folder, manifest, done))
            write_manifest(folder, manifest)
            written += chunk.n
            if progress is not None:
                progress(written)
            chunk = following
    return counts


def _require_count(name: str, value: object) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise InvalidArgumentError(f"{name}={value!r} must be a whole number >= 1", parameter=name)
