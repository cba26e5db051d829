"""The chaos suite's one world per session: the reference service, the proxies, the truth."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.chaos.harness import World, open_world


@pytest.fixture(scope="session")
def chaos_world(tmp_path_factory: pytest.TempPathFactory) -> Iterator[World]:
    """The service and the proxies in front of it, and the fault-free truth, for every seed."""
    with open_world(tmp_path_factory.mktemp("chaos")) as world:
        yield world
