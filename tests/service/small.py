"""A small factory data set served in the background, for tests outside tests/service.

The regression tests of the service import :func:`small_service`; tests/service itself uses the
session fixtures of its conftest.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import requests

from matchkit.service import RunningService, running
from tests.builders.datasets import build_dataset


@contextmanager
def small_service(folder: Path, **options: Any) -> Iterator[RunningService]:
    """``running()`` on a 60-match factory data set written into ``folder``."""
    data = folder / "data"
    if not data.exists():
        data.mkdir(parents=True)
        build_dataset(data, global_matches=40, na_matches=20)
    with running(data=data, store_dir=folder / "store", **options) as service:
        yield service


def get(service: RunningService, path: str, **options: Any) -> requests.Response:
    """GET ``path`` (with its query string) on ``service`` with its key."""
    headers = {"Authorization": f"Bearer {service.api_key}", **options.pop("headers", {})}
    return requests.get(service.base_url + path, headers=headers, timeout=30, **options)
