"""Issue 11, item 16: a Parquet data set read back silently partial, and untyped errors.

Deleting a partition file returned fewer matches, deleting ``participants/`` returned none, a
copied part file or a stray partition added rows: the manifest's row counts were never checked.
Now :func:`read_frames` checks every file against the manifest and says what is missing or
extra; errors of Arrow, JSON and the file system are MatchkitErrors; killed writes' leftovers
are removed by the next write, and only those.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import orjson
import pytest

from matchkit import InvalidArgumentError, MatchFrames, MatchkitError, to_frames
from matchkit.model.manifest import file_digest
from matchkit.model.parquet import MANIFEST
from tests.builders.resources import arena, page

DAYS = ("2026-10-28", "2026-10-29", "2026-10-30")


@pytest.fixture
def written(tmp_path: Path) -> Path:
    """Nine matches over three days, written to ``tmp_path/out``."""
    frames = to_frames(
        page(*(arena(f"m{n}", created_at=f"{DAYS[n % 3]}T{10 + n:02d}:00:00Z") for n in range(9)))
    )
    out = tmp_path / "out"
    frames.to_parquet(out)
    assert len(MatchFrames.read_parquet(out)) == 9  # intact, it reads whole
    return out


def _manifest(out: Path) -> dict:
    return orjson.loads((out / MANIFEST).read_bytes())


def test_a_deleted_partition_file_is_named_not_read_as_fewer_matches(written: Path) -> None:
    (written / "matches" / f"date={DAYS[1]}" / "part-0.parquet").unlink()
    with pytest.raises(MatchkitError, match=rf"missing date={DAYS[1]}/part-0.parquet \(3 of 9"):
        MatchFrames.read_parquet(written)


def test_a_deleted_table_folder_is_named_not_read_as_no_rows(written: Path) -> None:
    participants = _manifest(written)["tables"]["participants"]["rows"]
    assert participants > 0
    shutil.rmtree(written / "participants")
    with pytest.raises(MatchkitError, match=rf"participants is missing.*{participants} rows"):
        MatchFrames.read_parquet(written)


def test_a_copied_part_file_is_refused_not_read_as_more_rows(written: Path) -> None:
    partition = written / "rosters" / f"date={DAYS[0]}"
    shutil.copy(partition / "part-0.parquet", partition / "part-1.parquet")
    with pytest.raises(MatchkitError, match=rf"not in the manifest date={DAYS[0]}/part-1"):
        MatchFrames.read_parquet(written)


def test_a_stray_partition_is_refused(written: Path) -> None:
    shutil.copytree(
        written / "matches" / f"date={DAYS[2]}", written / "matches" / "date=2099-01-01"
    )
    with pytest.raises(MatchkitError, match=r"date=2099-01-01/part-0\.parquet"):
        MatchFrames.read_parquet(written)


def test_hidden_and_underscore_files_are_not_data(written: Path) -> None:
    """Readers skip them (Arrow, Spark's _SUCCESS), so they do not make a data set wrong."""
    (written / "matches" / "_SUCCESS").write_text("")
    (written / "matches" / ".DS_Store").write_text("x")
    assert len(MatchFrames.read_parquet(written)) == 9


def test_a_file_whose_rows_differ_from_the_manifest_is_refused(written: Path) -> None:
    manifest = _manifest(written)
    files = manifest["tables"]["matches"]["files"]
    first = sorted(files)[0]
    # Swap two partitions' files: every name present, but the rows per file are wrong.
    manifest["tables"]["matches"]["files"] = {name: 4 if name == first else 2 for name in files}
    manifest["tables"]["matches"]["files"][sorted(files)[1]] = 3
    (written / MANIFEST).write_bytes(orjson.dumps(manifest))
    with pytest.raises(MatchkitError, match="holds 3 rows, the manifest says 4"):
        MatchFrames.read_parquet(written)


def test_an_inconsistent_manifest_is_refused(written: Path) -> None:
    manifest = _manifest(written)
    manifest["tables"]["matches"]["rows"] = 10
    (written / MANIFEST).write_bytes(orjson.dumps(manifest))
    with pytest.raises(MatchkitError, match=r"inconsistent.*hold 9 rows, its total says 10"):
        MatchFrames.read_parquet(written)


def test_a_damaged_file_is_a_matchkit_error_naming_it(written: Path) -> None:
    path = written / "teams" / "part-0.parquet"
    path.write_bytes(path.read_bytes()[: len(path.read_bytes()) // 2])
    # The manifest is made to agree with the damaged file, so that only Arrow can notice.
    manifest = _manifest(written)
    manifest["tables"]["teams"]["sha256"]["part-0.parquet"] = file_digest(path)
    (written / MANIFEST).write_bytes(orjson.dumps(manifest))
    with pytest.raises(MatchkitError, match="teams cannot be read") as raised:
        MatchFrames.read_parquet(written)
    assert type(raised.value.__cause__).__module__.startswith("pyarrow")  # was ArrowInvalid


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"{not json", "is not valid JSON"),
        (b"[]", "has format None"),
        (b'{"format": "matchkit-frames/3"}', "no readable 'tables'"),
        (b'{"format": "matchkit-frames/3", "tables": {"matches": {}}}', "KeyError"),
    ],
)
def test_a_broken_manifest_is_a_matchkit_error(written: Path, content: bytes, message: str) -> None:
    (written / MANIFEST).write_bytes(content)
    with pytest.raises(MatchkitError, match=message):
        MatchFrames.read_parquet(written)


@pytest.mark.parametrize("older", ["matchkit-frames/1", "matchkit-frames/2"])
def test_a_manifest_of_another_format_is_refused_saying_what_to_do(
    written: Path, older: str
) -> None:
    manifest = _manifest(written)
    manifest["format"] = older
    for spec in manifest["tables"].values():
        del spec["files"]
    (written / MANIFEST).write_bytes(orjson.dumps(manifest))
    expected = f"has format '{older}'; this matchkit reads matchkit-frames/3 only: write the data"
    with pytest.raises(MatchkitError, match=expected):
        MatchFrames.read_parquet(written)


def _dead_pid() -> int:
    child = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"],
        check=True,
        capture_output=True,
        text=True,
    )
    return int(child.stdout)


def test_leftovers_of_killed_writes_are_removed_by_the_next_write(written: Path) -> None:
    frames = MatchFrames.read_parquet(written)
    beside = written.parent
    hexa = "0123456789abcdef" * 2
    dead = _dead_pid()
    ours_dead = [
        beside / f".out.writing-{dead}-{hexa}",
        beside / f".out.replaced-{dead}-{hexa}",
        beside / f".out.writing-{hexa}",  # an older version's name (no pid)
    ]
    kept = [
        beside / f".out.writing-{os.getpid()}-{hexa}",  # a live writer: still in progress
        beside / f".out.writing-{dead}-notours",  # not a name matchkit makes
        beside / f".other.writing-{dead}-{hexa}",  # another target's
    ]
    for folder in [*ours_dead, *kept]:
        folder.mkdir()
        (folder / "file").write_text("x")
    frames.to_parquet(written, overwrite=True)
    assert sorted(p.name for p in beside.iterdir()) == sorted(["out", *(p.name for p in kept)])


def test_a_retired_data_set_stays_while_the_target_is_not_complete(tmp_path: Path) -> None:
    """A kill between retiring the old data set and renaming the new one: keep the old one."""
    retired = tmp_path / f".out.replaced-{_dead_pid()}-{'ab' * 16}"
    retired.mkdir()
    (retired / MANIFEST).write_text("{}")
    MatchFrames.empty().to_parquet(tmp_path / "elsewhere")
    MatchFrames.empty().to_parquet(tmp_path / "out")  # now complete: the next write removes it
    assert retired.exists()
    MatchFrames.empty().to_parquet(tmp_path / "out", overwrite=True)
    assert not retired.exists()


def test_the_current_folder_is_refused_not_an_oserror(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    for path in (".", str(tmp_path), str(tmp_path.parent)):
        with pytest.raises(InvalidArgumentError, match="current folder"):
            MatchFrames.empty().to_parquet(path, overwrite=True)
    assert list(tmp_path.iterdir()) == []


def test_a_file_in_the_way_is_an_argument_error_not_fileexistserror(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("keep")
    with pytest.raises(InvalidArgumentError, match="is not a folder"):
        MatchFrames.empty().to_parquet(tmp_path / "file" / "out")
    assert (tmp_path / "file").read_text() == "keep"
