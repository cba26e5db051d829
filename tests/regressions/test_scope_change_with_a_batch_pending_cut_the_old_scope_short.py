"""Found while writing the archive chaos suite's invariant (issue 34, item 8): a sync that
changed the scope (``--change-scope``) of an archive whose last sync had been killed recorded
the scope change first, then completed the pending batch, which had been fetched under the old
scope. The old scope's range ended at the watermark before that batch, so the archive held, in
the new scope's range, matches the new scope does not take, and its scope history did not say
why. Now a pending batch is completed under the scope it was fetched in, and the new scope
starts after it."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import matchkit.archive as archive
from matchkit.archive.state import Scope
from tests.archive.conftest import client_of
from tests.archive.states import kill_before_matches


def test_the_pending_batch_is_completed_under_its_own_scope(sample_service, tmp_path: Path):
    folder = tmp_path / "archive"
    start = sample_service.now - timedelta(days=3)
    killed = sample_service.now - timedelta(days=2)
    with client_of(sample_service, tmp_path / "cache") as client:
        archive.sync(client, folder, start=start, now=killed, settle=timedelta(0))
        kill_before_matches(client, folder, killed, killed + timedelta(days=1))
        changed = archive.sync(
            client, folder, allow_scope_change=True, server_types=["QUICK3V3"], settle=timedelta(0)
        )
    assert changed.resumed is not None
    quick = Scope.of("global", {"server_types": ["QUICK3V3"]}, telemetry=False)
    periods = [(p.scope, p.start, p.end) for p in archive.open(folder).scopes]
    resumed_end = killed + timedelta(days=1)
    assert periods == [(Scope("global"), start, resumed_end), (quick, resumed_end, None)]
