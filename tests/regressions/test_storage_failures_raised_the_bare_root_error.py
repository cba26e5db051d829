"""A storage failure had no type of its own: reading a damaged MatchFrames data set raised the
bare root ``MatchkitError`` (42 ``raise MatchkitError(`` in the package), a damaged TelemetryFrames
data set a ``DocumentError`` (whose meaning is a malformed JSON:API document), an archive an
``ArchiveError``; a caller could not catch "a file matchkit wrote cannot be used" as one thing.
Found by the architecture review (its section 3d). Now each is a ``StorageError`` naming the file
(``ArchiveError`` and ``CacheError`` are kinds of it), and the root is never raised itself."""

from __future__ import annotations

import ast
from pathlib import Path

import orjson
import pytest

import matchkit
from matchkit import MatchFrames, StorageError
from matchkit.errors import ArchiveError, CacheError, DocumentError
from matchkit.model.parquet import MANIFEST
from matchkit.telemetry import TelemetryFrames, to_telemetry_frames
from tests.telemetry.test_parse import MATCH, small_file


def test_a_damaged_data_set_is_a_storage_error_naming_the_file(tmp_path: Path) -> None:
    frames = matchkit.to_frames([])
    frames.to_parquet(tmp_path / "frames")
    manifest = tmp_path / "frames" / MANIFEST
    manifest.write_bytes(b"{not json")
    with pytest.raises(StorageError, match="is not valid JSON") as caught:
        MatchFrames.read_parquet(tmp_path / "frames")
    assert caught.value.path == manifest


def test_damaged_telemetry_frames_are_a_storage_error_not_a_document_error(tmp_path: Path) -> None:
    out = tmp_path / "telemetry"
    to_telemetry_frames(orjson.dumps(small_file()), match_ids=[MATCH]).to_parquet(out)
    (out / "deaths.parquet").unlink()
    with pytest.raises(StorageError, match=r"deaths\.parquet is missing") as caught:
        TelemetryFrames.read_parquet(out)
    assert not isinstance(caught.value, DocumentError)
    assert caught.value.path == out / "deaths.parquet"


def test_every_storage_error_is_one_type() -> None:
    assert issubclass(ArchiveError, StorageError)
    assert issubclass(CacheError, StorageError)


def test_the_root_error_is_never_raised_itself() -> None:
    package = Path(matchkit.__file__).parent
    raised = [
        f"{path.relative_to(package)}:{node.lineno}"
        for path in sorted(package.rglob("*.py"))
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.Raise)
        and isinstance(node.exc, ast.Call)
        and isinstance(node.exc.func, ast.Name)
        and node.exc.func.id == "MatchkitError"
    ]
    assert raised == [], "raise a specific MatchkitError (StorageError, ...), not the root"
