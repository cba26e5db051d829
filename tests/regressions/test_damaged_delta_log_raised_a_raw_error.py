"""Tried as a tester would (issue 34, item 6): a damaged commit of a table's Delta log made
``archive info`` and ``archive compact`` raise deltalake's raw ``DeltaError`` (the command line
printed a traceback), while ``open`` gave a typed ``ArchiveError`` for the same damage. Now
every archive command and reader gives an ArchiveError naming the damaged file (the whole
table of damages is ``tests/archive/test_damage.py``)."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest

import matchkit.archive as archive
from matchkit.cli import main
from matchkit.errors import ArchiveError
from tests.archive.conftest import client_of


def test_info_and_compact_name_the_damaged_commit(sample_service, tmp_path: Path, capsys) -> None:
    folder = tmp_path / "archive"
    start = sample_service.now - timedelta(days=2)
    with client_of(sample_service, tmp_path / "cache") as client:
        archive.sync(client, folder, start=start, window=timedelta(days=1))
    damaged = folder / "rosters" / "_delta_log" / f"{1:020d}.json"
    damaged.write_bytes(b"garbage{")
    for action in (archive.info, archive.compact, archive.open):
        with pytest.raises(ArchiveError, match="restore it from a backup") as caught:
            action(folder)
        assert caught.value.path == damaged
        assert str(damaged) in str(caught.value)
    for action in ("info", "compact"):
        assert main(["archive", action, str(folder)]) == 2
        err = capsys.readouterr().err
        assert str(damaged) in err
        assert "Traceback" not in err
