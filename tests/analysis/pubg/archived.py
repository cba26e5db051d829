"""A PUBG archive of two months for the tests of the analyses and the match map on an
archive: the double's ``console`` matches of 2026-10-31 and 2026-11-01 with their telemetry,
synced through a client, and the same matches and files as that client fetches them.

It is synced once per test process (:func:`synced_once`, in the suite's cache folder) and each
module takes a copy of its own (:func:`two_months`), which it may change.
"""

from __future__ import annotations

import dataclasses
import functools
import os
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path

import matchkit.archive as archive
from matchkit.client.client import Client
from matchkit.model.frames import MatchFrames
from matchkit.rules.windows import parse_time
from matchkit.service import running
from matchkit.telemetry.pubg import PubgTelemetryFrames

NOW = "2026-11-02T06:00:00Z"
START = "2026-10-31T00:00:00Z"


@dataclass(frozen=True)
class Archived:
    """The archive's folder, and its matches and telemetry as the client fetched them."""

    folder: Path
    frames: MatchFrames
    telemetry: PubgTelemetryFrames


def two_months(root: Path) -> Archived:
    """A copy of the archive in ``root`` (the matches and files as fetched are shared)."""
    synced = synced_once()
    shutil.copytree(synced.folder, root / "archive")
    return dataclasses.replace(synced, folder=root / "archive")


@functools.cache
def synced_once() -> Archived:
    """The archive as synced, once per process (never to be changed: see :func:`two_months`)."""
    root = Path(
        tempfile.mkdtemp(prefix="pubg-two-months-", dir=os.environ.get("MATCHKIT_CACHE_DIR"))
    )
    return _synced(root)


def _synced(root: Path) -> Archived:
    with running(profile="pubg") as service:
        moment = parse_time(NOW, parameter="now")
        service.app.state.service.fixed_now = moment
        with Client(
            service.base_url,
            api_key=service.api_key,
            profile="pubg",
            shard="console",
            now=moment,
            rate_limit="off",
            progress=False,
            cache_dir=root / "cache",
        ) as client:
            archive.sync(client, root / "archive", start=START, telemetry=True)
            ids = archive.open(root / "archive").matches["match_id"].compute().astype(str)
            frames = client.get_matches(list(ids))
            telemetry = client.telemetry(frames)
    assert isinstance(telemetry, PubgTelemetryFrames)
    return Archived(root / "archive", frames, telemetry)
