"""The PUBG double, running on loopback for the module, and an oracle of its sample set.

The oracle is the drawn plan (:mod:`matchkit.sampledata.pubg.plan`) read in plain Python: which
matches exist at a moment, whose they are, which are custom. The tests ask the service over
real HTTP and compare with it.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta

import pytest
import requests

from matchkit.rules.windows import parse_time
from matchkit.sampledata.pubg import parameters as p
from matchkit.sampledata.pubg.plan import MatchPlan, SampleSetPlan, build_plan
from matchkit.service import RunningService, running
from tests.sessions import pooled_session

NOW = parse_time(p.AS_OF)
VND = "application/vnd.api+json"
RETENTION = timedelta(days=14)


@pytest.fixture(scope="session")
def plan() -> SampleSetPlan:
    return build_plan()


@pytest.fixture(scope="module")
def pubg() -> Iterator[RunningService]:
    with running(profile="pubg") as service:
        yield service


@pytest.fixture(scope="module")
def http() -> Iterator[requests.Session]:
    session = pooled_session()
    yield session
    session.close()


def headers(service: RunningService, **more: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {service.api_key}", "Accept": VND, **more}


def available(match: MatchPlan, now=NOW) -> bool:
    """The oracle: a match exists from its end to 14 days after its start, unless custom."""
    return not match.custom and now - RETENTION <= match.created_at and match.ended_at <= now
