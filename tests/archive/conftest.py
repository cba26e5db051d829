"""Fixtures of the archive tests: a service whose data spans two periods 200 days apart, and
helpers that compare archives table by table.

The reference service keeps 120 days; two synthetic data sets, one ending at ``NOW_A`` and one
200 days later at ``NOW_B``, are served from one folder of documents. A service started with
``now=NOW_A`` serves the first period; one started with ``now=NOW_B`` only the second.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pandas as pd
import pytest

from matchkit.client.client import Client
from matchkit.service import RunningService, running

NOW_A = "2026-10-31T00:00:00Z"
NOW_B = "2027-05-19T00:00:00Z"  # 200 days later
MATCHES_PER_PERIOD = 40
DAYS_PER_PERIOD = 10


@pytest.fixture(scope="session")
def two_periods(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder of documents: MATCHES_PER_PERIOD matches in the DAYS_PER_PERIOD days before
    NOW_A, as many before NOW_B (different seeds, so different matches)."""
    from matchkit.synth import write_dataset

    root = tmp_path_factory.mktemp("two-periods")
    documents = root / "documents"
    documents.mkdir()
    for name, seed, as_of in (("a", 11, NOW_A), ("b", 12, NOW_B)):
        write_dataset(
            root / name,
            seed=seed,
            matches=MATCHES_PER_PERIOD,
            na_matches=1,
            as_of=as_of,
            days=DAYS_PER_PERIOD,
        )
        shutil.copy(root / name / "global.jsonl.gz", documents / f"{name}.jsonl.gz")
    return documents


@pytest.fixture(scope="session")
def store_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("stores")


def serve(documents: Path, store_dir: Path, now: str):
    """The reference service on loopback serving ``documents`` as of ``now``."""
    return running(data=documents, now=now, store_dir=store_dir)


@pytest.fixture(scope="module")
def service_a(two_periods: Path, store_dir: Path) -> Iterator[RunningService]:
    with serve(two_periods, store_dir, NOW_A) as handle:
        yield handle


def client_of(service: RunningService, cache_dir: Path, **options: Any) -> Client:
    """A client of ``service`` (its key and now), no rate limit, no progress bar."""
    defaults = {
        "api_key": service.api_key,
        "now": service.now,
        "rate_limit": "off",
        "progress": False,
    }
    return Client(service.base_url, cache_dir=cache_dir, **(defaults | options))


def stored_tables(folder: Path) -> dict[str, pd.DataFrame]:
    """Every Delta table of an archive, read by deltalake itself, sorted by every column."""
    from deltalake import DeltaTable

    from matchkit.archive.versions import table_labels

    tables = {}
    for label in table_labels(folder):
        frame = DeltaTable(str(folder / label)).to_pandas()
        frame = frame[sorted(frame.columns)].astype(str)
        tables[label] = frame.sort_values(list(frame.columns)).reset_index(drop=True)
    return tables


def assert_same_archive(actual: Path, expected: Path) -> None:
    """The two archives hold the same tables with the same rows (in key order)."""
    left, right = stored_tables(actual), stored_tables(expected)
    assert list(left) == list(right)
    for label in right:
        pd.testing.assert_frame_equal(left[label], right[label], obj=label)
