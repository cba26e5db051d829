"""``matchkit synth --archive DIR --matches N``: a large synthetic archive, written directly.

No documents, no HTTP, no normalizer: each chunk of matches is drawn with numpy, vectorized,
from the sample set's parameters (:mod:`matchkit.sampledata.parameters`: server types and their
shares, rosters and sizes, ranked shares, the side advantage of each Arena mode played as
first-to-3 rounds, triangular round and match durations, regions, the daily cycle, patches
every few weeks, character popularity, slot kinds, team shares, skewed player activity) and
committed as one batch through the archive's writer (:func:`matchkit.archive.writer.commit_batch`,
appending: the ids are new by construction). Tables hold the known columns of MatchFrames
(no extra columns such as participants' damage stats); spectators is empty. The player pool
grows with N (the sample's 3,000 players per 4,200 matches, at least 3,000).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime, timedelta
from pathlib import Path

import numpy as np
import pyarrow as pa

from matchkit.archive.layout import FORMAT, locked, read_manifest, write_manifest
from matchkit.archive.synthetic_draw import draw_chunk, hex_ids
from matchkit.archive.versions import table_versions
from matchkit.archive.writer import commit_batch
from matchkit.errors import InvalidArgumentError
from matchkit.sampledata import parameters as p

__all__ = ["append_synthetic", "write_synthetic_archive"]

CHUNK = 100_000
TELEMETRY_CHUNK = 25_000
"""With telemetry a match has about 70 rows more: a chunk of this many keeps the writer's
memory (two chunks at a time) near 1 GB."""
BUCKET_MATCHES = 100_000
"""A month of more matches than this is split in buckets (the archive's ``buckets``), so that a
partition, and a Dask worker's memory, keeps its size whatever the size of the archive."""
_MICROS = 1_000_000


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
            (:mod:`matchkit.archive.synthetic_telemetry`).
        progress: called with the number of matches written after each chunk.

    Returns:
        Rows written per table.

    Raises:
        InvalidArgumentError: ``matches`` or ``days`` < 1, or ``path`` is not empty.
    """
    from matchkit.rules.windows import parse_time

    if chunk is None:
        chunk = TELEMETRY_CHUNK if telemetry else CHUNK
    for name, value in (("matches", matches), ("days", days), ("chunk", chunk)):
        if not isinstance(value, int) or value < 1:
            raise InvalidArgumentError(
                f"{name}={value!r} must be a whole number >= 1", parameter=name
            )
    if buckets is not None and (not isinstance(buckets, int) or buckets < 1):
        raise InvalidArgumentError(
            f"buckets={buckets!r} must be a whole number >= 1", parameter="buckets"
        )
    folder = Path(path)
    if folder.exists() and any(folder.iterdir()):
        raise InvalidArgumentError(f"{folder} is not empty; choose a new folder", parameter="path")
    folder.mkdir(parents=True, exist_ok=True)
    if buckets is None:
        per_month = matches * 30.4375 / days
        buckets = max(1, -(-int(per_month) // BUCKET_MATCHES))
    end = parse_time(as_of, parameter="as_of")
    start = end - timedelta(days=days)
    pool = max(p.GLOBAL_PLAYER_POOL, matches * p.GLOBAL_PLAYER_POOL // p.GLOBAL_MATCHES)
    model = _Model(pool)
    patches = _patches(start, end)
    counts: dict[str, int] = {}
    with locked(folder):
        manifest = read_manifest(folder) or {
            "format": FORMAT,
            "scope": {"shard": "global", "filters": {}, "telemetry": bool(telemetry)},
            "source": f"matchkit synth --archive (seed {seed})",
            "batch": 0,
            "watermark": None,
            "pending": None,
            "versions": {},
            "gaps": [],
            "scopes": [],
            "buckets": buckets,
        }
        _write(folder, manifest, model, patches, seed, matches, chunk, start, end, counts,
               progress=progress, telemetry=bool(telemetry))  # fmt: skip
    return counts


def append_synthetic(
    path: str | os.PathLike[str], *, matches: int, days: int = 1, seed: int = p.DEFAULT_SEED
) -> dict[str, int]:
    """Append ``matches`` synthetic matches over the ``days`` after the archive's watermark, in
    one batch committed as a sync commits it (inserting the rows whose key the tables lack, in
    the archive's buckets): what a daily sync costs, without a service.

    Returns:
        Rows added per table.

    Raises:
        InvalidArgumentError: ``path`` holds no archive, or ``matches`` or ``days`` < 1.
    """
    from matchkit.rules.windows import parse_time

    for name, value in (("matches", matches), ("days", days)):
        if not isinstance(value, int) or value < 1:
            raise InvalidArgumentError(
                f"{name}={value!r} must be a whole number >= 1", parameter=name
            )
    folder = Path(path)
    counts: dict[str, int] = {}
    with locked(folder):
        manifest = read_manifest(folder)
        if manifest is None or manifest["watermark"] is None:
            raise InvalidArgumentError(f"{folder} holds no archive to append to", parameter="path")
        start = parse_time(manifest["watermark"])
        end = start + timedelta(days=days)
        yearly = matches * 365 // days
        model = _Model(max(p.GLOBAL_PLAYER_POOL, yearly * p.GLOBAL_PLAYER_POOL // p.GLOBAL_MATCHES))
        seed_of = [seed, manifest["batch"] + 1]
        _write(folder, manifest, model, _patches(start, end), seed_of, matches, matches, start,
               end, counts, merge=True,
               telemetry=manifest["scope"].get("telemetry", False))  # fmt: skip
    return counts


def _write(folder, manifest, model, patches, seed, matches, chunk, start, end, counts, *,
           merge=False, progress=None, telemetry=False) -> None:  # fmt: skip
    """Draw and commit ``matches`` matches in ``[start, end)``, a batch per ``chunk`` (appended,
    or with ``merge`` inserted by key as a sync does), in the manifest's buckets."""
    from matchkit.rules.windows import format_time

    buckets = manifest.get("buckets", 1)
    chunks = -(-matches // chunk)
    span = (end - start) / chunks
    seeds = seed if isinstance(seed, list) else [seed]

    def drawn(index: int) -> dict:
        n = min(chunk, matches - index * chunk)
        low = start + span * index
        rng = np.random.default_rng([*seeds, index])
        return draw_chunk(model, rng, n, low, low + span, patches, buckets=buckets,
                          telemetry=telemetry)  # fmt: skip

    # The next chunk is drawn while this one is written (numpy and deltalake both work
    # without the GIL): two chunks in memory at most.
    with ThreadPoolExecutor(max_workers=1) as drawer:
        coming = drawer.submit(drawn, 0)
        for index in range(chunks):
            tables = coming.result()
            if index + 1 < chunks:
                coming = drawer.submit(drawn, index + 1)
            batch = manifest["batch"] + 1
            done = commit_batch(folder, batch, tables, append=not merge)
            del tables
            for name, rows in done.added.items():
                counts[name] = counts.get(name, 0) + rows
            manifest["batch"] = batch
            manifest["watermark"] = format_time(start + span * (index + 1))
            manifest["versions"][str(batch)] = table_versions(folder)
            write_manifest(folder, manifest)
            if progress is not None:
                progress(min(matches, (index + 1) * chunk))


class _Model:
    """The sample set's parameters as arrays."""

    def __init__(self, pool: int) -> None:
        from matchkit.sampledata.catalogue import build_catalogue
        from matchkit.sampledata.telemetry.catalogue import kit_catalogue

        catalogue = build_catalogue()
        self.modes = p.MODES
        self.mode_share = _shares([m.share for m in p.MODES])
        self.regions = np.array([r for r, _ in p.REGIONS])
        self.region_share = _shares([s for _, s in p.REGIONS])
        self.hours = np.array(p.HOURLY_ACTIVITY, dtype=float) / sum(p.HOURLY_ACTIVITY)
        self.actors = np.array([c.actor for c in catalogue.characters])
        self.actor_share = _shares([c.popularity for c in catalogue.characters])
        self.maps = np.array(catalogue.arena_maps)
        self.royale_map = catalogue.royale_map
        self.game_modes = np.array([catalogue.game_mode_ids[m.server_type] for m in p.MODES])
        self.game_mode_numbers = self.game_modes.astype(np.int64)
        self.actor_numbers = self.actors.astype(np.int64)
        kits = kit_catalogue()
        self.battlerites = np.array([kits[actor].battlerites for actor in self.actors])
        weights = 1.0 / (np.arange(1, pool + 1) + p.PLAYER_SKEW)
        self.player_cdf = np.cumsum(weights / weights.sum())
        self.player_cdf[-1] = 1.0
        numbers = 770_000_000_000_000_000 + np.arange(pool, dtype=np.int64) * 7_919_113
        self.player_ids = pa.array(numbers.astype(str), pa.string())
        self.player_names = pa.array([f"Player{i}" for i in range(pool)], pa.string())
        teams = sum(count for _, count in p.TEAM_POOL)
        self.team_ids = hex_ids(np.random.default_rng(0), teams, lower=True)
        self.team_names = pa.array([f"Team {i}" for i in range(teams)], pa.string())


def _shares(values: list) -> np.ndarray:
    shares = np.array([float(value) for value in values])
    return shares / shares.sum()


def _patches(start: datetime, end: datetime) -> list[tuple[int, str]]:
    """(start in microseconds, version) of each patch live between ``start`` and ``end``."""
    from matchkit.sampledata.catalogue import patch_schedule

    return [
        (int(patch.start.timestamp()) * _MICROS, patch.version)
        for patch in patch_schedule(start, end, p.FIRST_PATCH_GLOBAL)
    ]
