"""Fixtures of the regression tests: the reference service that the client's tests stand on."""

from __future__ import annotations

import pytest

from tests.client.proxy import reference_service


@pytest.fixture(scope="module")
def reference(tmp_path_factory):
    """A reference service on loopback for this module (see :func:`reference_service`)."""
    yield from reference_service(tmp_path_factory)
