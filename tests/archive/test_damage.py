"""One error type per failure (issue 34, item 6): every kind of damage to an archive (a commit of
a Delta log, a data file, a table, the manifest) is an ArchiveError naming the damaged file, from
each of ``open``, ``info``, ``compact`` and ``sync``, and the command line prints its message,
never a traceback. One table of damages, tested against all of them."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path

import orjson
import pytest

import matchkit.archive as archive
from matchkit.cli import main
from matchkit.errors import ArchiveError
from matchkit.rules.windows import format_time, parse_time
from tests.archive.conftest import NOW_A, client_of

START = format_time(parse_time(NOW_A) - timedelta(days=2))
TABLE = "participants"


def commit(folder: Path, version: int) -> Path:
    return folder / TABLE / "_delta_log" / f"{version:020d}.json"


def a_data_file(folder: Path) -> Path:
    return Path(archive.open(folder).files(TABLE)[0])


def garbage_commit(folder: Path) -> Path:
    commit(folder, 1).write_bytes(b"garbage{")
    return commit(folder, 1)


def truncated_commit(folder: Path) -> Path:
    path = commit(folder, 1)
    path.write_bytes(path.read_bytes()[:60])
    return path


def emptied_commit(folder: Path) -> Path:
    commit(folder, 1).write_bytes(b"")  # deltalake alone reads it as a commit of nothing
    return commit(folder, 1)


def missing_first_commit(folder: Path) -> Path:
    commit(folder, 0).unlink()
    return commit(folder, 0)


def missing_table(folder: Path) -> Path:
    shutil.rmtree(folder / TABLE)
    return commit(folder, 0)


def missing_data_file(folder: Path) -> Path:
    path = a_data_file(folder)
    path.unlink()
    return path


def truncated_data_file(folder: Path) -> Path:
    path = a_data_file(folder)
    path.write_bytes(path.read_bytes()[:100])
    return path


def manifest_not_json(folder: Path) -> Path:
    (folder / "archive.json").write_bytes(b'{"format": "matchkit-arch')
    return folder / "archive.json"


def manifest_field(folder: Path) -> Path:
    data = orjson.loads((folder / "archive.json").read_bytes())
    data["versions"] = {"2": {"matches": "three"}}
    (folder / "archive.json").write_bytes(orjson.dumps(data))
    return folder / "archive.json"


DAMAGES: dict[str, Callable[[Path], Path]] = {
    "a commit of a log is not JSON": garbage_commit,
    "a commit of a log is cut short": truncated_commit,
    "a commit of a log is emptied": emptied_commit,
    "the first commit of a log is missing": missing_first_commit,
    "a table is missing": missing_table,
    "a data file is missing": missing_data_file,
    "a data file is cut short": truncated_data_file,
    "the manifest is not JSON": manifest_not_json,
    "a field of the manifest is damaged": manifest_field,
}


@pytest.fixture(scope="module")
def synced(service_a, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """An archive of two batches (every table at version 1), and the cache its sync filled."""
    root = tmp_path_factory.mktemp("damaged")
    with client_of(service_a, root / "cache") as client:
        archive.sync(client, root / "archive", start=START, window=timedelta(days=1))
    return root / "archive", root / "cache"


@pytest.fixture(params=sorted(DAMAGES), ids=str)
def damaged(request, synced, tmp_path: Path) -> tuple[Path, Path]:
    """A copy of the archive with one damage; the damaged file."""
    folder = tmp_path / "archive"
    shutil.copytree(synced[0], folder)
    return folder, DAMAGES[request.param](folder)


def assert_names(error: ArchiveError, damaged: Path) -> None:
    assert str(damaged) in str(error)
    assert Path(str(error.path)) == damaged


def test_open(damaged) -> None:
    folder, file = damaged
    with pytest.raises(ArchiveError) as caught:
        archive.open(folder)
    assert_names(caught.value, file)


def test_info(damaged) -> None:
    folder, file = damaged
    with pytest.raises(ArchiveError) as caught:
        archive.info(folder)
    assert_names(caught.value, file)


def test_compact(damaged) -> None:
    folder, file = damaged
    with pytest.raises(ArchiveError) as caught:
        archive.compact(folder)
    assert_names(caught.value, file)


def test_sync(service_a, synced, damaged) -> None:
    folder, file = damaged
    with client_of(service_a, synced[1]) as client, pytest.raises(ArchiveError) as caught:
        archive.sync(client, folder)
    assert_names(caught.value, file)


def test_the_command_line_prints_the_message(service_a, synced, damaged, capsys, monkeypatch):
    folder, file = damaged
    monkeypatch.setenv("MATCHKIT_API_KEY", service_a.api_key)
    sync = [
        "--base-url",
        service_a.base_url,
        "--now",
        NOW_A,
        "--rate-limit",
        "off",
        "--cache-dir",
        str(synced[1]),
    ]
    for command in (["info"], ["compact"], ["sync", *sync]):
        code = main(["archive", command[0], str(folder), *command[1:]])
        err = capsys.readouterr().err
        assert code == 2, (command, err)
        assert err.startswith(f"matchkit archive: {file}") or str(file) in err, err
        assert "Traceback" not in err


def test_a_damaged_staged_batch_is_named_by_sync_and_compact(service_a, synced, tmp_path) -> None:
    from tests.archive.states import kill_before_matches

    folder = tmp_path / "archive"
    shutil.copytree(synced[0], folder)
    with client_of(service_a, synced[1]) as client:
        batch = kill_before_matches(client, folder, parse_time(START), parse_time(NOW_A))
        staged = folder / "_staging" / f"batch-{batch}"
        (staged / "order.json").write_bytes(b"[")
        with pytest.raises(ArchiveError) as caught:
            archive.sync(client, folder)
    assert_names(caught.value, staged)
    with pytest.raises(ArchiveError) as caught:
        archive.compact(folder)
    assert_names(caught.value, staged)
    # Readers need no staged batch: they read the completed ones, and name the pending one.
    assert archive.open(folder).pending == batch
    assert archive.info(folder).pending.batch == batch


def test_a_table_another_writer_gave_deletion_vectors_is_refused(service_a, synced, tmp_path):
    from deltalake import DeltaTable

    folder = tmp_path / "archive"
    shutil.copytree(synced[0], folder)
    table = DeltaTable(str(folder / TABLE))
    table.alter.set_table_properties({"delta.enableDeletionVectors": "true"})
    with pytest.raises(ArchiveError, match="deletionVectors") as caught:
        archive.compact(folder)
    assert caught.value.path == folder / TABLE
    with client_of(service_a, synced[1]) as client, pytest.raises(ArchiveError, match="deletion"):
        archive.sync(client, folder)
    # The versions the archive recorded were written by matchkit: they still read.
    assert len(archive.open(folder).participants) > 0
