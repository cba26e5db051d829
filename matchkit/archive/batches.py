"""One batch, from staged tables to a completed batch: the protocol that makes a sync killed at
any point leave an archive the next sync (or compaction) completes.

1. stage the batch's tables, as they will be stored, under ``DIR/_staging/batch-N``
   (:mod:`.staging`);
2. record ``pending = N`` (with its window and the watermark it sets) in ``archive.json``;
3. commit every table, each in one Delta commit carrying the application transaction
   ``(matchkit-archive, N)``, insert-only by match id, ``matches`` last (:mod:`.writer`);
4. record the batch, its tables' versions and the watermark; clear ``pending``; remove the
   staging folder.

A pending batch is completed from its staging folder (:func:`complete_pending`): tables that
carry its transaction already are skipped, the others get it. Readers pin the versions of the
last completed batch, so a pending batch is never half seen. Nothing else may have committed to
a table past the last completed batch (:func:`require_no_stray_batch`): a write cut short
outside this protocol is refused rather than folded into the next batch.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

import pyarrow as pa

from matchkit.archive.layout import APP_ID
from matchkit.archive.manifest import ArchiveManifest, write_manifest
from matchkit.archive.staging import clear_staging, read_staged, stage
from matchkit.archive.state import PendingBatch
from matchkit.archive.versions import open_table, table_labels
from matchkit.archive.writer import BatchResult, OpenTables, commit_batch
from matchkit.errors import ArchiveError

__all__ = [
    "batch_versions",
    "commit_new_batch",
    "complete_pending",
    "finish_batch",
    "require_no_stray_batch",
]


def commit_new_batch(
    folder: Path,
    manifest: ArchiveManifest,
    pending: PendingBatch,
    prepared: Mapping[str, pa.Table],
    *,
    tables: OpenTables | None = None,
) -> tuple[ArchiveManifest, BatchResult]:
    """Stage, record, commit and finish batch ``pending`` of ``prepared`` tables (steps 1-4).
    ``tables``: the tables as the run's batches before left them (default: opened here).

    Returns:
        The manifest after it, and what it added.
    """
    stage(folder, pending.batch, prepared)
    manifest = manifest.with_pending(pending)
    write_manifest(folder, manifest)
    done = commit_batch(folder, pending.batch, prepared, tables=tables)
    return finish_batch(folder, manifest, pending, done), done


def complete_pending(
    folder: Path, manifest: ArchiveManifest, *, tables: OpenTables | None = None
) -> tuple[ArchiveManifest, BatchResult]:
    """Commit the pending batch from its staged tables, and finish it (``tables``: as for
    :func:`commit_new_batch`).

    Raises:
        ArchiveError: its staged tables cannot be read, or a table cannot be written.
    """
    pending = manifest.pending
    if pending is None:
        raise ValueError("no batch is pending")
    require_no_stray_batch(folder, manifest)
    done = commit_batch(folder, pending.batch, read_staged(folder, pending.batch), tables=tables)
    return finish_batch(folder, manifest, pending, done), done


def finish_batch(
    folder: Path, manifest: ArchiveManifest, pending: PendingBatch, done: BatchResult
) -> ArchiveManifest:
    """Record batch ``pending`` as completed (its tables' versions, its watermark, its notes)
    and remove its staging folder; the manifest after it."""
    done.problems = list(pending.problems)
    manifest = manifest.with_batch_done(pending, batch_versions(folder, manifest, done))
    write_manifest(folder, manifest)
    clear_staging(folder)
    return manifest


def batch_versions(folder: Path, manifest: ArchiveManifest, done: BatchResult) -> dict[str, int]:
    """The table versions that read a batch just committed (``done``) on top of ``manifest``'s
    last completed one: each table the batch committed to (or found holding it) at the version
    its commit gave, every other table at the version the last batch pinned; only a table
    neither knows (none so far) is opened. Nothing else commits to an archive's tables between
    its batches (:func:`require_no_stray_batch`), so this is what opening every table would
    say, without opening them.

    Raises:
        ArchiveError: a table to open has a damaged log (naming the file).
    """
    known = {**manifest.pinned(), **done.versions}
    return {
        label: known[label] if label in known else open_table(folder / label).version()
        for label in table_labels(folder)
    }


def require_no_stray_batch(folder: Path, manifest: ArchiveManifest) -> None:
    """Every table holds the completed batches, and at most the pending one: nothing that a
    later commit would fold into the archive unseen.

    Raises:
        ArchiveError: a table carries a batch the manifest neither completed nor has pending (a
            write cut short outside a sync, such as ``matchkit synth --archive`` killed).
    """
    allowed = manifest.batch if manifest.pending is None else manifest.pending.batch
    for label in table_labels(folder):
        path = folder / label
        found = open_table(path).transaction_version(APP_ID) or 0
        if found > allowed:
            raise ArchiveError(
                f"{path} holds batch {found}, which {folder / 'archive.json'} does not record "
                f"(its last batch is {manifest.batch}): a write to the archive was cut short "
                "outside a sync. The archive reads as its last batch left it, but it cannot "
                "take more: write it again (or restore it from a backup)",
                path=path,
            )
