"""TelemetryFrames on disk: one Parquet file per table and a manifest.

Layout under the folder you name::

    _matchkit_telemetry.json     format, tables, columns, dtypes, row counts, problems;
                                 written last, so it marks a complete write
    files.parquet  queue_events.parquet  ...  (one per table)

A write goes to a hidden folder beside the target and is renamed into place at the end, so an
interrupted write never leaves a folder that :func:`read_telemetry` accepts. Reading checks
every table's file and row count against the manifest: a missing or changed file is an error,
never a smaller result.
"""

from __future__ import annotations

import os
import shutil
import uuid
from pathlib import Path
from typing import TYPE_CHECKING

import orjson
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from matchkit.errors import DocumentError, MatchkitError
from matchkit.model import storage
from matchkit.telemetry.schema import TABLE_NAMES

if TYPE_CHECKING:
    from matchkit.telemetry.frames import TelemetryFrames

__all__ = ["FORMAT", "MANIFEST", "read_telemetry", "write_telemetry"]

FORMAT = "matchkit-telemetry/1"
MANIFEST = "_matchkit_telemetry.json"


def write_telemetry(
    frames: TelemetryFrames, path: str | os.PathLike[str], *, overwrite: bool = False
) -> Path:
    """Write every table of ``frames`` under ``path``.

    Raises:
        InvalidArgumentError: ``path`` is a file, or a non-empty folder and ``overwrite`` is
            false, or a folder that does not hold telemetry frames (never replaced).
    """
    target = Path(path)
    storage.check_target_folder(
        target,
        manifest=MANIFEST,
        overwrite=overwrite,
        foreign="exists and does not hold TelemetryFrames; refusing to replace it",
    )
    target.parent.mkdir(parents=True, exist_ok=True)
    staging = target.parent / f".{target.name}.writing-{uuid.uuid4().hex}"
    staging.mkdir()
    try:
        tables = {}
        for name, frame in frames.tables.items():
            tables[name] = {
                "rows": len(frame),
                "columns": list(frame.columns),
                "dtypes": {column: storage.dtype_spec(frame[column].dtype) for column in frame},
            }
            table = pa.Table.from_pandas(frame, preserve_index=False)
            pq.write_table(table, staging / f"{name}.parquet")
        manifest = {"format": FORMAT, "tables": tables, "problems": list(frames.problems)}
        (staging / MANIFEST).write_bytes(orjson.dumps(manifest, option=orjson.OPT_INDENT_2))
        storage.move_into_place(staging, target)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    return target


def read_telemetry(path: str | os.PathLike[str]) -> TelemetryFrames:
    """Read what :func:`write_telemetry` wrote, with the dtypes it had.

    Raises:
        MatchkitError: no manifest (not telemetry frames, or an interrupted write), or a
            manifest of another format.
        DocumentError: a table's file is missing or its rows differ from the manifest's count.
    """
    from matchkit.telemetry.frames import TelemetryFrames

    folder = Path(path)
    try:
        manifest = orjson.loads((folder / MANIFEST).read_bytes())
    except FileNotFoundError:
        raise MatchkitError(
            f"{folder} does not hold complete TelemetryFrames: {MANIFEST} is missing (write "
            "them with TelemetryFrames.to_parquet; an interrupted write leaves none)"
        ) from None
    if manifest.get("format") != FORMAT:
        raise MatchkitError(f"{folder / MANIFEST} has format {manifest.get('format')!r}")
    tables = {}
    for name in TABLE_NAMES:
        spec = manifest["tables"].get(name)
        if spec is None:
            raise DocumentError(f"{folder / MANIFEST} lists no table {name!r}")
        file = folder / f"{name}.parquet"
        if not file.exists():
            raise DocumentError(f"{file} is missing; the telemetry frames are incomplete")
        frame = pq.read_table(file).to_pandas(types_mapper=storage.TYPES_MAPPER)
        if len(frame) != spec["rows"] or list(frame.columns) != spec["columns"]:
            raise DocumentError(
                f"{file} holds {len(frame)} rows and columns {list(frame.columns)}; the "
                f"manifest says {spec['rows']} rows of {spec['columns']}"
            )
        tables[name] = pd.DataFrame(
            {
                column: storage.restored(frame[column], storage.dtype_of(spec["dtypes"][column]))
                for column in spec["columns"]
            }
        )
    return TelemetryFrames(**tables, problems=tuple(manifest.get("problems", ())))
