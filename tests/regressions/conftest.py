"""Fixtures of the regression tests: the reference service that the client's tests stand on,
the embedded sample service that the command-line regressions run against, and the sample
service's application called in-process (the service's fuzzing findings)."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import pytest

from matchkit.service import RunningService, create_app, running
from tests.client.proxy import reference_service
from tests.service.asgi import KEY, event_loop


@pytest.fixture(scope="module")
def reference():
    """A reference service on loopback for this module (see :func:`reference_service`)."""
    yield from reference_service()


@pytest.fixture(scope="module")
def sample_service() -> Iterator[RunningService]:
    """The sample set served on loopback for this module's command-line runs."""
    with running() as handle:
        yield handle


@pytest.fixture
def keyed(sample_service: RunningService, monkeypatch: pytest.MonkeyPatch) -> RunningService:
    """:func:`sample_service`, its key in ``MATCHKIT_API_KEY`` as a user of the command sets it."""
    monkeypatch.setenv("MATCHKIT_API_KEY", sample_service.api_key)
    return sample_service


@pytest.fixture(scope="module")
def app() -> Any:
    """The sample service's ASGI application, keyed with :data:`tests.service.asgi.KEY`."""
    return create_app(api_keys=[KEY], rate_limit="off")


@pytest.fixture(scope="module")
def loop() -> Iterator[asyncio.AbstractEventLoop]:
    """The event loop :func:`app` is called on (:func:`tests.service.asgi.call`)."""
    with event_loop() as running_loop:
        yield running_loop
