"""The Delta tables an archive holds, and their versions."""

from __future__ import annotations

from pathlib import Path

from matchkit.archive.layout import table_path
from matchkit.model.schema import TABLE_NAMES

__all__ = ["table_labels", "table_versions"]


def table_labels(folder: Path) -> list[str]:
    """The tables present, as labels: ``matches``, ... then ``telemetry/<name>``."""
    from deltalake import DeltaTable

    from matchkit.telemetry.schema import TABLE_NAMES as TELEMETRY_NAMES

    labels = [name for name in TABLE_NAMES if DeltaTable.is_deltatable(str(folder / name))]
    labels.extend(
        f"telemetry/{name}"
        for name in TELEMETRY_NAMES
        if DeltaTable.is_deltatable(str(table_path(folder, name, telemetry=True)))
    )
    return labels


def table_versions(folder: Path) -> dict[str, int]:
    """Each present table's current version."""
    from deltalake import DeltaTable

    return {label: DeltaTable(str(folder / label)).version() for label in table_labels(folder)}
