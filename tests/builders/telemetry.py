"""The sample set's telemetry files, as the reference service renders them, for tests."""

from __future__ import annotations

import itertools

from matchkit.sampledata.dataset import open_dataset
from matchkit.sampledata.telemetry import telemetry_bytes

__all__ = ["sample_telemetry_files"]


def sample_telemetry_files(*, step: int = 1, limit: int | None = None) -> dict[str, bytes]:
    """Match id -> telemetry file of every ``step``-th global match of the sample set (the first
    ``limit`` of those, when given)."""
    documents = itertools.islice(open_dataset().iter_documents("global"), 0, None, step)
    files = {}
    for document in itertools.islice(documents, limit):
        data = document["data"]
        match = data[0] if isinstance(data, list) else data
        files[match["id"]] = telemetry_bytes(document)
    return files
