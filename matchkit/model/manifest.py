"""What the Parquet writers of matchkit share: the target folder check, the dtypes kept in a
manifest, and the SHA-256 of every file it lists.

:mod:`matchkit.model.parquet` (MatchFrames) and :mod:`matchkit.telemetry.parquet`
(TelemetryFrames) both write into a hidden staging folder beside the target, then hand it to
:func:`matchkit.model.replace.replace_folder`, which replaces only the files the target's own
manifest lists; both refuse a folder they did not write.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import orjson
import pandas as pd
import pyarrow as pa

from matchkit.errors import InvalidArgumentError, MatchkitError, StorageError
from matchkit.model.replace import written_by_matchkit
from matchkit.model.schema import category_dtype

__all__ = [
    "TYPES_MAPPER",
    "check_digest",
    "check_target_folder",
    "dtype_of",
    "dtype_spec",
    "file_digest",
    "read_as_described",
    "read_manifest",
    "restored",
]

# Arrow types read back as pandas' nullable dtypes (never through float64, which would round
# integers beyond 2**53); the manifest's dtypes are applied on top.
TYPES_MAPPER = {
    pa.int64(): pd.Int64Dtype(),
    pa.bool_(): pd.BooleanDtype(),
    pa.string(): pd.StringDtype(),
    pa.large_string(): pd.StringDtype(),
}.get


def check_target_folder(
    target: Path,
    *,
    manifest: str,
    overwrite: bool,
    foreign: str,
    name: str | None = None,
    parameter: str = "path",
    overwrite_hint: str = "pass overwrite=True to replace it or choose a new folder",
) -> None:
    """Refuse a target that is a file, a non-empty folder without ``overwrite``, or a folder
    without ``manifest`` (not written by matchkit: nothing of it is ever replaced). A folder
    matchkit wrote may hold other files too: an overwrite leaves them where they are
    (:func:`matchkit.model.replace.replace_folder`).

    Args:
        target: the folder to write.
        manifest: the file name that marks a complete write.
        overwrite: whether a folder matchkit wrote may be replaced.
        foreign: what the message says of a folder without ``manifest``.
        name: how the messages name the target (by default its path; ``--out <path>``).
        parameter: the argument the errors name.
        overwrite_hint: what to do when the folder is not empty and ``overwrite`` is false.

    Raises:
        InvalidArgumentError: the target cannot be written.
    """
    name = str(target) if name is None else name
    if not target.exists():
        return
    if not target.is_dir():
        raise InvalidArgumentError(f"{name} exists and is not a folder", parameter=parameter)
    if not any(target.iterdir()):
        return
    if not overwrite:
        raise InvalidArgumentError(
            f"{name} already exists and is not empty; {overwrite_hint}", parameter=parameter
        )
    if not written_by_matchkit(target, manifest):
        raise InvalidArgumentError(f"{name} {foreign}", parameter=parameter)


def restored(series: pd.Series, dtype: Any) -> pd.Series:
    """``series`` with the dtype the manifest recorded."""
    if series.dtype == dtype:
        return series
    if isinstance(dtype, pd.CategoricalDtype):
        return series.astype(object).astype(dtype)
    return series.astype(dtype)


def dtype_spec(dtype: Any) -> Any:
    """A dtype as JSON: its name, or the categories of a categorical."""
    if isinstance(dtype, pd.CategoricalDtype):
        return {"categories": [str(c) for c in dtype.categories], "ordered": bool(dtype.ordered)}
    if isinstance(dtype, pd.StringDtype):
        return "string"
    return str(dtype)


def dtype_of(spec: Any) -> Any:
    """The dtype :func:`dtype_spec` wrote."""
    if isinstance(spec, dict):
        dtype = category_dtype(spec["categories"])
        return pd.CategoricalDtype(dtype.categories, ordered=spec.get("ordered", False))
    if spec == "string":
        return pd.StringDtype()
    return pd.api.types.pandas_dtype(spec)


def file_digest(path: Path) -> str:
    """The SHA-256 of a file's bytes (hex): what a manifest records of every file it lists."""
    with open(path, "rb") as file:
        return hashlib.file_digest(file, "sha256").hexdigest()


def check_digest(path: Path, expected: object, *, error: type[StorageError] = StorageError) -> None:
    """Refuse a file whose bytes are not those its manifest recorded (``expected``, the SHA-256
    written with it): a flipped byte inside a Parquet page can read back as other values, with
    no error from the reader.

    Raises:
        StorageError: (or ``error``) the file changed since it was written, or the manifest
            records no digest of it.
    """
    if not isinstance(expected, str):
        raise error(
            f"the manifest records no SHA-256 of {path}, so it cannot be checked; write the "
            "data set again",
            path=path,
        )
    if file_digest(path) != expected:
        raise error(
            f"{path} is not the file matchkit wrote: its SHA-256 differs from the manifest's "
            "(damaged or edited since), and it could read back as other values. Write the data "
            "set again",
            path=path,
        )


def read_manifest(
    folder: Path, name: str, *, format: str, missing: str, again: str
) -> dict[str, Any]:
    """The manifest ``name`` of ``folder``, checked: JSON, of ``format`` (the one this matchkit
    writes), with a ``tables`` object of objects.

    Args:
        missing: what the error says when there is no manifest (after "{folder} ").
        again: what to do when it cannot be read ("write the data set again").

    Raises:
        StorageError: no manifest, or one that cannot be read, is of another format or has no
            readable tables.
    """
    where = folder / name
    try:
        manifest = orjson.loads(where.read_bytes())
    except FileNotFoundError:
        raise StorageError(f"{folder} {missing}", path=where) from None
    except orjson.JSONDecodeError as error:
        raise StorageError(f"{where} is not valid JSON ({error}); {again}", path=where) from None
    except OSError as error:
        raise StorageError(f"cannot read {where}: {error.strerror or error}", path=where) from None
    found = manifest.get("format") if isinstance(manifest, dict) else None
    if found != format:
        raise StorageError(
            f"{where} has format {found!r}; this matchkit reads {format} only: {again} with "
            "this matchkit",
            path=where,
        )
    tables = manifest.get("tables")
    if not isinstance(tables, dict) or not all(isinstance(s, dict) for s in tables.values()):
        raise StorageError(f"{where} has no readable 'tables'; {again}", path=where)
    return manifest


_READ_ERRORS = (pa.ArrowException, OSError, KeyError, TypeError, ValueError, AttributeError)
"""What reading a table can raise from Arrow, the file system or a malformed manifest."""

_Read = TypeVar("_Read")


def read_as_described(
    read: Callable[..., _Read],
    path: Path,
    *args: Any,
    again: str,
    error: type[StorageError] = StorageError,
    **options: Any,
) -> _Read:
    """``read(path, *args, **options)``: a table, read as its manifest describes it. matchkit's
    own errors pass as they are; any other failure is a StorageError (or ``error``), naming the
    file and saying ``again`` ("write the data set again")."""
    try:
        return read(path, *args, **options)
    except MatchkitError:
        raise
    except _READ_ERRORS as failure:
        raise error(
            f"{path} cannot be read as the manifest describes it "
            f"({type(failure).__name__}: {failure}); {again}",
            path=path,
        ) from failure
