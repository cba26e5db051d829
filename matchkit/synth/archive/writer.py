"""``matchkit synth --archive DIR --matches N``: a large synthetic archive, written directly.

No documents, no HTTP, no normalizer: each chunk of matches is drawn with numpy, vectorized
(:mod:`matchkit.synth.archive.draw`), and committed as one batch through the archive's writer
(:func:`matchkit.archive.writer.commit_batch`, appending: the ids are new by construction), in
the archive's buckets; its manifest is the archive's own
(:class:`matchkit.archive.manifest.ArchiveManifest`), so that a later sync continues it.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path

import numpy as np
import pyarrow as pa

from matchkit.archive.batches import batch_versions
from matchkit.archive.layout import locked
from matchkit.archive.manifest import ArchiveManifest, read_manifest, write_manifest
from matchkit.archive.state import PendingBatch, Scope
from matchkit.archive.writer import OpenTables, commit_batch
from matchkit.errors import InvalidArgumentError
from matchkit.rules.windows import parse_time
from matchkit.sampledata import parameters as p
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


@dataclass(frozen=True)
class _Plan:
    """What to draw: ``matches`` in ``[start, end)``, ``chunk`` a batch, from ``seeds``."""

    model: SyntheticModel
    patches: list[tuple[int, str]]
    seeds: tuple[int, ...]
    matches: int
    chunk: int
    start: datetime
    end: datetime
    telemetry: bool
    append: bool


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
        chunk: matches drawn and committed at a time, one batch each (default
            :data:`CHUNK`, or :data:`TELEMETRY_CHUNK` with telemetry).
        buckets: buckets a month (default: enough for at most :data:`BUCKET_MATCHES` matches
            in each; recorded in the manifest, which later syncs follow).
        telemetry: write each match's telemetry tables too
            (:mod:`matchkit.synth.archive.telemetry`).
        progress: called with the number of matches written after each chunk.

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
    folder = Path(path)
    if folder.exists() and any(folder.iterdir()):
        raise InvalidArgumentError(f"{folder} is not empty; choose a new folder", parameter="path")
    folder.mkdir(parents=True, exist_ok=True)
    if buckets is None:
        per_month = matches * 30.4375 / days
        buckets = max(1, -(-int(per_month) // BUCKET_MATCHES))
    end = parse_time(as_of, parameter="as_of")
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
        return _write(folder, manifest, plan, progress)


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
        return _write(folder, manifest, plan, None)


def _write(
    folder: Path,
    manifest: ArchiveManifest,
    plan: _Plan,
    progress: Callable[[int], None] | None,
) -> dict[str, int]:
    """Draw and commit the plan's matches, a batch per chunk (appended, or inserted by match id
    as a sync does), in the manifest's buckets; rows added per table."""
    chunks = -(-plan.matches // plan.chunk)
    span = (plan.end - plan.start) / chunks
    counts: dict[str, int] = {}

    def drawn(index: int) -> dict[str, pa.Table]:
        n = min(plan.chunk, plan.matches - index * plan.chunk)
        low = plan.start + span * index
        rng = np.random.default_rng([*plan.seeds, index])
        return draw_chunk(
            plan.model,
            rng,
            n,
            low,
            low + span,
            plan.patches,
            buckets=manifest.buckets,
            telemetry=plan.telemetry,
        )

    opened = OpenTables(folder)  # each table opened once for all the chunks
    # The next chunk is drawn while this one is written (numpy and deltalake both work
    # without the GIL): two chunks in memory at most.
    with ThreadPoolExecutor(max_workers=1) as drawer:
        coming = drawer.submit(drawn, 0)
        for index in range(chunks):
            tables = coming.result()
            if index + 1 < chunks:
                coming = drawer.submit(drawn, index + 1)
            batch = PendingBatch(
                batch=manifest.batch + 1,
                start=plan.start + span * index,
                end=plan.start + span * (index + 1),
                watermark=plan.start + span * (index + 1),
            )
            done = commit_batch(folder, batch.batch, tables, append=plan.append, tables=opened)
            del tables
            for name, rows in done.added.items():
                counts[name] = counts.get(name, 0) + rows
            manifest = manifest.with_batch_done(batch, batch_versions(folder, manifest, done))
            write_manifest(folder, manifest)
            if progress is not None:
                progress(min(plan.matches, (index + 1) * plan.chunk))
    return counts


def _require_count(name: str, value: object) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise InvalidArgumentError(f"{name}={value!r} must be a whole number >= 1", parameter=name)
