"""Tried as a tester would (issue 34, item 5): after ``archive sync --change-scope``, ``archive
info`` and ``Archive.scope`` showed only the new scope, though half the archive was fetched
under the old one (its filters left out matches the new scope keeps). Now ``info`` and
``Archive.scopes`` show every scope with the range of match times it was synced for."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import matchkit.archive as archive
from matchkit.archive.state import Scope
from matchkit.cli import main
from matchkit.rules.windows import format_time
from tests.archive.conftest import client_of


def test_every_scope_is_shown_with_its_range(sample_service, tmp_path: Path, capsys) -> None:
    folder = tmp_path / "archive"
    start = sample_service.now - timedelta(days=4)
    changed = sample_service.now - timedelta(days=2)
    with client_of(sample_service, tmp_path / "cache") as client:
        archive.sync(client, folder, start=start, now=changed, server_types=["QUICK3V3"])
        archive.sync(client, folder, allow_scope_change=True)
    quick = Scope.of("global", {"server_types": ["QUICK3V3"]}, telemetry=False)
    settled = changed - timedelta(hours=6)  # where the first scope's syncs were final
    periods = [(p.scope, p.start, p.end) for p in archive.open(folder).scopes]
    assert periods == [(quick, start, changed), (Scope("global"), settled, None)]
    assert archive.open(folder).scope == Scope("global")
    assert [(p.scope, p.start, p.end) for p in archive.info(folder).scopes] == periods
    assert main(["archive", "info", str(folder)]) == 0
    shown = capsys.readouterr().out
    assert (
        f"[shard global, server_types=QUICK3V3, without telemetry] from {format_time(start)} "
        f"to {format_time(changed)}"
    ) in shown
    assert f"[shard global, no filters, without telemetry] from {format_time(settled)} to now" in (
        shown
    )
