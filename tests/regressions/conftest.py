"""Fixtures of the regression tests: the reference service that the client's tests stand on,
and the embedded sample service that the command-line regressions run against."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from matchkit.service import RunningService, running
from tests.client.proxy import reference_service


@pytest.fixture(scope="module")
def reference(tmp_path_factory):
    """A reference service on loopback for this module (see :func:`reference_service`)."""
    yield from reference_service(tmp_path_factory)


@pytest.fixture(scope="module")
def sample_service(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningService]:
    """The sample set served on loopback for this module's command-line runs."""
    with running(store_dir=tmp_path_factory.mktemp("store")) as handle:
        yield handle


@pytest.fixture
def keyed(sample_service: RunningService, monkeypatch: pytest.MonkeyPatch) -> RunningService:
    """:func:`sample_service`, its key in ``MATCHKIT_API_KEY`` as a user of the command sets it."""
    monkeypatch.setenv("MATCHKIT_API_KEY", sample_service.api_key)
    return sample_service
